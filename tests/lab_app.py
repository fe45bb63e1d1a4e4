"""AppTest helpers for the lab's pages: open a page, find a widget by its key (never by its label), click it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from keys import FAULTS
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block, Widget

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PLAYGROUND = "pages/playground.py"
LAB_KEY = "agent_loop_lab:playground"


def ok(at: AppTest) -> None:
    """The last run raised nothing."""
    assert not at.exception, [e.value for e in at.exception]


def open_page(page: str = PLAYGROUND, lang: str | None = None) -> AppTest:
    """The app run once, then switched to `page` (a path from the repository's root); in `lang` from the link."""
    at = AppTest.from_file(APP, default_timeout=90)
    if lang:
        at.query_params["lang"] = lang
    at.run()
    at.switch_page(page).run()
    ok(at)
    return at


def widget(at: AppTest | Block, key: str) -> Any:
    """The widget with this key; for a keyed container (around an input whose value the code sets), the widget in it."""
    node = at.get_by_key(key)
    if isinstance(node, Block):
        return next(e for e in node if isinstance(e, Widget))
    return node


def key_starting(at: AppTest, prefix: str) -> str:
    """The key of the first widget whose key starts with `prefix` (keys that carry a turn or a hash)."""
    return next(e.key for e in at if isinstance(e, Widget) and (e.key or "").startswith(prefix))


def click(at: AppTest, key: str) -> None:
    """Click the button with this key and run the app once more."""
    widget(at, key).click().run()
    ok(at)


def lab_of(at: AppTest) -> Any:
    """The Playground's LabSession in this AppTest's session."""
    return at.session_state[LAB_KEY]


def texts(elements: Iterable[Any]) -> str:
    """The values of these elements, one a line."""
    return "\n".join(str(e.value) for e in elements)


def pick_faults(at: AppTest, *labels: str) -> None:
    """Inject exactly these faults (FAULTS keys in lab_ui.playground.controls), none when there are none."""
    box = widget(at, FAULTS)
    for old in list(box.value):
        box.unselect(old)
    for label in labels:
        box.select(label)
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def everything_shown(at: AppTest) -> str:
    """Every element the page sent to the browser (values, labels, bodies), as text."""
    out: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            out.append(str(proto))
        for child in (getattr(node, "children", None) or {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)
