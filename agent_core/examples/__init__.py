"""Example recordings shipped for classes: real runs of the loop against the offline model, as JSON exports."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from agent_core.files.export import import_json
from agent_core.model import Run

EXAMPLES_DIR = Path(__file__).parent
SCENARIOS_PATH = EXAMPLES_DIR / "scenarios.toml"


def list_examples() -> list[tuple[str, Path]]:
    """(name, path) of every shipped recording, sorted by name."""
    return sorted((path.stem, path) for path in EXAMPLES_DIR.glob("*.json"))


def load_example(name: str) -> Run:
    """A shipped recording by name; it keeps its stable id (example-<name>)."""
    paths = dict(list_examples())
    if name not in paths:
        raise KeyError(f"No example named {name!r}; available: {', '.join(paths) or 'none'}.")
    return import_json(paths[name].read_bytes(), keep_id=True)


def load_scenarios() -> dict[str, dict[str, Any]]:
    """The scenario table the recordings are generated from (title, expect_stop, lesson, config)."""
    return tomllib.loads(SCENARIOS_PATH.read_text(encoding="utf-8"))
