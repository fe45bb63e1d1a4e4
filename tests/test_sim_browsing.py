"""Browser tools: steps on one page go in the order asked, the page opened first when a step names its address but
its tool takes none; a CSS selector, the text to type, a screenshot's name and size are taken as written, never
the whole sentence; a question a script answers ('the page title') runs that script on the page."""

from __future__ import annotations

import pytest
from sim_loop import agent_loop, tool

from agent_core.sim.browsing import selector

S, N = {"type": "string"}, {"type": "number"}
CSS = {"type": "string", "description": "CSS selector of the element"}
TOOLS = [
    tool("open_page", "Opens a web page in the browser", {"url": S}),
    tool("press", "Presses a button of the current page", {"selector": CSS}),
    tool("type_text", "Types text into a field of the current page", {"selector": CSS, "text": S}),
    tool(
        "capture",
        "Takes a screenshot of the current page",
        {"name": {"type": "string", "description": "A name for the image"}, "width": N, "height": N},
        required=["name"],
    ),
    tool("run_js", "Runs JavaScript code in the browser", {"code": {"type": "string", "description": "JavaScript"}}),
]


def run(name: str, args: dict) -> tuple[str, bool]:
    if name == "run_js":
        return '"Shop"' if "title" in args["code"] else "undefined", False
    return "done", False


def steps(question: str) -> list[list[tuple[str, dict]]]:
    replies, _ = agent_loop(question, TOOLS, run)
    return replies


def test_a_click_waits_for_the_page_and_takes_only_the_selector():
    assert steps("open https://shop.test and press the #checkout button") == [
        [("open_page", {"url": "https://shop.test"})],
        [("press", {"selector": "#checkout"})],
    ]


def test_steps_on_a_form_go_one_after_another_in_the_order_asked_and_are_told_in_the_users_language():
    replies, answer = agent_loop("открой https://shop.test, введи «кофе» в поле #q и нажми кнопку #go", TOOLS, run)
    assert replies == [
        [("open_page", {"url": "https://shop.test"})],
        [("type_text", {"selector": "#q", "text": "кофе"})],
        [("press", {"selector": "#go"})],
    ]
    assert "Ввёл «кофе» в поле #q" in answer and "done" not in answer


@pytest.mark.parametrize(
    ("question", "shot"),
    [
        ("take a screenshot of https://shop.test and call it cart", {"name": "cart"}),
        (
            "zrób zrzut ekranu https://shop.test 1024x768 o nazwie koszyk",
            {"name": "koszyk", "width": 1024, "height": 768},
        ),
        (
            "сделай скриншот https://shop.test 640 на 480 под названием корзина",
            {"name": "корзина", "width": 640, "height": 480},
        ),
    ],
)
def test_a_screenshot_of_an_address_opens_it_first(question, shot):
    assert steps(question) == [[("open_page", {"url": "https://shop.test"})], [("capture", shot)]]


def test_the_page_title_is_read_by_a_script_on_the_opened_page():
    replies, answer = agent_loop("what's the page title of https://shop.test?", TOOLS, run)
    assert replies == [[("open_page", {"url": "https://shop.test"})], [("run_js", {"code": "document.title"})]]
    assert "Shop" in answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("click #buy on https://example.com/#top", "#buy"),
        ("press the .btn-primary button", ".btn-primary"),
        ("fill input#email with it", "input#email"),
        ("see issue #42 on example.com", None),
    ],
)
def test_a_css_selector_is_read_as_written(text, expected):
    assert selector(text) == expected
