"""The recorder: serves another program's Messages API calls and keeps each exchange, grouped into runs.

`python -m agent_core serve --record` (or the switch on the Runs page) starts it; the program points
ANTHROPIC_BASE_URL at it. Each request is answered by the offline model, or passed through to Anthropic with the
program's own key (never kept) or to a compatible server; every exchange is saved with its exact wire bytes."""

from agent_core.recorder.clients import client_name
from agent_core.recorder.grouping import Grouper
from agent_core.recorder.service import Recorder, RecorderConfig, start_recorder

__all__ = ["Grouper", "Recorder", "RecorderConfig", "client_name", "start_recorder"]
