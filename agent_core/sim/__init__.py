"""The offline simulated model: speaks the Messages API over HTTP, in-process or as a local server."""

from agent_core.sim.handler import SimHandler, SimReply
from agent_core.sim.server import serve_forever, start_server
from agent_core.sim.transport import SimTransport

__all__ = ["SimHandler", "SimReply", "SimTransport", "start_server", "serve_forever"]
