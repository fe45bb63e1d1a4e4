"""How this server runs: personal (one person at their own machine, the default) or a class server (many
learners, each a stranger to the others), and the class server's limits, all from its environment.

    AGENT_LOOP_LAB_MODE=class                the switch (`make serve-class` sets it for every worker)
    AGENT_LOOP_LAB_SECRET                    signs identity cookies (else a file beside the database, made once)
    AGENT_LOOP_LAB_ALLOW_HOSTS               hosts, host:port or CIDR networks on the school's own network that
                                             learners may use as an Anthropic-compatible URL (e.g. the Ollama box)
    AGENT_LOOP_LAB_LEARNER_DAILY_USD         what one learner may spend of the server's key per day (default 1)
    AGENT_LOOP_LAB_CLASS_DAILY_USD           ... one class per day (default 20)
    AGENT_LOOP_LAB_SERVER_DAILY_USD          ... the whole server per day (default 50)
    AGENT_LOOP_LAB_MAX_REQUEST_BYTES         the largest request the app sends (default 4 MB, in either mode)
    AGENT_LOOP_LAB_MAX_RUN_BYTES             the requests one run may hold in memory, all turns (default 32 MB)
    AGENT_LOOP_LAB_MAX_SESSION_BYTES         ... all the runs of one browser session together (default 64 MB)

Read on every call (a few environment look-ups), so nothing here is process state that could go stale.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

ENV_MODE = "AGENT_LOOP_LAB_MODE"
ENV_SECRET = "AGENT_LOOP_LAB_SECRET"
ENV_ALLOW_HOSTS = "AGENT_LOOP_LAB_ALLOW_HOSTS"
ENV_LEARNER_USD = "AGENT_LOOP_LAB_LEARNER_DAILY_USD"
ENV_CLASS_USD = "AGENT_LOOP_LAB_CLASS_DAILY_USD"
ENV_SERVER_USD = "AGENT_LOOP_LAB_SERVER_DAILY_USD"
ENV_MAX_REQUEST = "AGENT_LOOP_LAB_MAX_REQUEST_BYTES"
ENV_MAX_RUN = "AGENT_LOOP_LAB_MAX_RUN_BYTES"
ENV_MAX_SESSION = "AGENT_LOOP_LAB_MAX_SESSION_BYTES"
PERSONAL, CLASS = "personal", "class"
DEFAULT_LEARNER_USD, DEFAULT_CLASS_USD, DEFAULT_SERVER_USD = 1.0, 20.0, 50.0
# The API itself takes up to 32 MB; a class's server holds every learner's runs in memory, so the app stops a run
# whose next request would pass this (task, system prompt, tools and history together) and says why.
DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_RUN_BYTES = 32 * 1024 * 1024  # so one run's memory is bounded, whatever a learner types
# A session holds a run per workspace (the Playground and every lesson opened): together they are bounded too.
DEFAULT_MAX_SESSION_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    """The server's mode and limits, as its environment sets them."""

    mode: str = PERSONAL
    learner_daily_usd: float = DEFAULT_LEARNER_USD
    class_daily_usd: float = DEFAULT_CLASS_USD
    server_daily_usd: float = DEFAULT_SERVER_USD
    allow_hosts: tuple[str, ...] = ()
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    max_run_bytes: int = DEFAULT_MAX_RUN_BYTES
    max_session_bytes: int = DEFAULT_MAX_SESSION_BYTES

    @property
    def is_class(self) -> bool:
        return self.mode == CLASS


def _money(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


def _size(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def server_config() -> ServerConfig:
    """This process's mode and limits (an unreadable value falls back to its default)."""
    mode = CLASS if os.environ.get(ENV_MODE, "").strip().lower() in (CLASS, "class-server") else PERSONAL
    hosts = tuple(h.strip() for h in os.environ.get(ENV_ALLOW_HOSTS, "").split(",") if h.strip())
    return ServerConfig(
        mode=mode,
        learner_daily_usd=_money(ENV_LEARNER_USD, DEFAULT_LEARNER_USD),
        class_daily_usd=_money(ENV_CLASS_USD, DEFAULT_CLASS_USD),
        server_daily_usd=_money(ENV_SERVER_USD, DEFAULT_SERVER_USD),
        allow_hosts=hosts,
        max_request_bytes=_size(ENV_MAX_REQUEST, DEFAULT_MAX_REQUEST_BYTES),
        max_run_bytes=_size(ENV_MAX_RUN, DEFAULT_MAX_RUN_BYTES),
        max_session_bytes=_size(ENV_MAX_SESSION, DEFAULT_MAX_SESSION_BYTES),
    )


def is_class_server() -> bool:
    return server_config().is_class
