"""`python -m agent_core run|serve`: the loop in a terminal, or the simulated model as an HTTP server."""

from agent_core.cli import main

raise SystemExit(main())
