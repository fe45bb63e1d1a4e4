"""What a stepper, a tool registry or a store opens, it closes: each is a context manager."""

from __future__ import annotations

import scripted

from agent_core.loop.stepper import Stepper
from agent_core.model import Run, RunConfig
from agent_core.teaching.progress import ProgressStore
from agent_core.tools import ToolRegistry
from agent_core.tools.catalog import default_specs


def test_a_stepper_closes_the_http_client_it_made_and_not_one_it_was_given():
    with Stepper(Run(RunConfig(task="hi")), transport=scripted.Script(scripted.message(scripted.text("ok")))) as s:
        s.run_to_end()
        made = s._client
    assert made is not None and made.is_closed()
    given = Stepper(Run(RunConfig(task="hi")))._get_client()
    with Stepper(Run(RunConfig(task="hi")), client=given):
        pass
    assert not given.is_closed()
    given.close()


def test_a_registry_and_a_progress_store_close_in_a_with_block(tmp_path):
    with ToolRegistry(default_specs(["calculate"])) as registry:
        assert registry.execute("calculate", {"expression": "2+2"}).output == "4"
    with ProgressStore(tmp_path / "progress.db") as store:
        store.mark("ann", "01-the-loop", "quiz-1")
    with ProgressStore(tmp_path / "progress.db") as again:
        assert again.done("ann", "01-the-loop") == {"quiz-1"}  # committed before each connection closed
