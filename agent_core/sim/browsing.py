"""Browser tools (Puppeteer's navigate, click, fill, screenshot): a CSS selector, the text to type and a screenshot's
name are taken from the request as written, and steps on one page go in the order asked, the page opened first."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from agent_core.sim.text import entities
from agent_core.sim.text import language as lx

# '#buy', '#search-btn', '.nav a', 'input#search', "button[type='submit']": never '.com' of a URL, never '#42'
_SELECTOR = re.compile(
    r"(?<![\w#./:-])(?:[a-z][\w-]*#[A-Za-z_][\w-]*|[#.][A-Za-z_][\w-]*)(?:[#.][A-Za-z_][\w-]*)*(?:\[[^\]\s]+\])?(?![\w/])"
    r"|(?<![\w#./:-])[a-z]+\[[^\]\s]+\]"
)
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|„([^”]+)”|«([^»]+)»|\'([^\']+)\'')


def kind(pname: str, prop: dict[str, Any], tool_json: str) -> str | None:
    """The browser kinds of a string parameter: a CSS selector; the text typed into a field (the 'value' of a tool
    that also takes a selector); the name a screenshot is saved under (a 'name' described as a name for a thing)."""
    if prop.get("type", "string") != "string":
        return None
    described = str(prop.get("description") or "").lower()
    if _is_selector(pname, described):
        return "selector"
    props = (json.loads(tool_json).get("input_schema") or {}).get("properties") or {}
    if pname.lower() in ("value", "text") and "selector" in props:
        return "typed_text"
    if pname.lower() in ("script", "code", "js") or "javascript" in described:
        return "script"
    if pname.lower() == "name" and re.match(r"an? name for (?:the|a|an) ", described):
        return "label"
    return None


def _is_selector(pname: str, described: str) -> bool:
    return pname.lower() == "selector" or "css selector" in described


def selector(text: str, taken: tuple[str, ...] = ()) -> str | None:
    """The first CSS selector written in the text that no other parameter took."""
    for match in _SELECTOR.finditer(_without_urls(text)):
        if match.group() not in taken:
            return match.group()
    return None


def _without_urls(text: str) -> str:
    return re.sub(r"\b\w+://\S+|\b[\w-]+(?:\.[\w-]+)+/\S*", " ", text)


def typed_text(text: str) -> str | None:
    """What to type into a field: the text the request quotes («наушники», 'hello')."""
    for match in _QUOTED.finditer(text):
        found = str(next(g for g in match.groups() if g))
        if not _SELECTOR.fullmatch(found):
            return found
    return None


def label(text: str) -> str | None:
    """The name a thing is to be saved under: the word after 'call it', 'named', 'под названием', 'o nazwie'."""
    tokens: list[str] = re.findall(r"[\w.-]+", text)
    folded = [lx.fold(t) for t in tokens]
    for phrase in _naming_words():
        words = phrase.split()
        for n in range(len(folded) - len(words)):
            if folded[n : n + len(words)] == words:
                return tokens[n + len(words)].strip(".")
    return typed_text(text)


@lru_cache(maxsize=1)
def _naming_words() -> tuple[str, ...]:
    return tuple(" ".join(lx.words(w)) for w in lx.lexicon()["naming_words"])


def page_tool(tool: dict[str, Any]) -> bool:
    """A tool that works on the browser's page: it opens one (a URL) in a browser, or it takes a CSS selector, or its
    description speaks of the page ('Screenshot the current page')."""
    props = (tool.get("input_schema") or {}).get("properties") or {}
    for name, prop in props.items():  # kind()'s selector rule, without the tool's JSON (a hot spot when made per call)
        if isinstance(prop, dict) and prop.get("type", "string") == "string":
            if _is_selector(name, str(prop.get("description") or "").lower()):
                return True
    return _speaks_of_page(str(tool.get("description") or ""))


@lru_cache(maxsize=1024)
def _speaks_of_page(description: str) -> bool:
    return bool(lx.hits(lx.words(description), lx.lexicon()["page_words"]))


def opens_page(tool: dict[str, Any]) -> bool:
    """The page tool that opens an address: it takes a URL."""
    props = (tool.get("input_schema") or {}).get("properties") or {}
    return page_tool(tool) and "url" in {n.lower() for n in props}


def in_order(previous: Any, need: Any) -> bool:
    """'go to https://example.com and click the #buy button': steps on one page are made in the order asked, each
    once the one before has answered (the click needs the page open); a careful model does not race them."""
    if previous is None or previous.tool is None or need.tool is None or previous.tool is need.tool:
        return False
    return page_tool(previous.tool) and page_tool(need.tool)


def opened_first(view: Any, needs: list[Any], fill: Any, make: Any) -> list[Any]:
    """'take a screenshot of https://example.com': a page step whose tool takes no URL, in a clause that names one,
    needs that page open first: the tool that opens a URL goes before it (unless a step before opens it already)."""
    opener = next((t for t in view.tools if opens_page(t)), None)
    if opener is None:
        return needs
    out: list[Any] = []
    for need in needs:
        urls = entities.of_kind(need.clause, "url") if need.tool is not None else []
        takes_url = need.tool is not None and opens_page(need.tool)
        if urls and not takes_url and page_tool(need.tool) and not any(n.tool is opener for n in out):
            step = make("tool", need.clause, None, tool=opener)
            fill(view, step, results=False)
            out.append(step)
            need.waits_for = step
            view.notes.append(f"{need.tool.get('name')} works on the open page; {opener.get('name')} opens it first.")
        out.append(need)
    return out


_BY = r"\s*(?:x|×|by|на|na|\*)\s*"
_SIZES = re.compile(rf"(?<![\d.])\d{{2,5}}(?:{_BY}\d{{2,5}})+(?![\d.])", re.I)


def size(text: str, pname: str) -> int | None:
    """A width or a height from a size written as a pair ('1280x720', '1280 by 720', '1280 на 720', '1280 na 720'):
    the first is the width, the second the height."""
    side = {"width": 1, "w": 1, "height": 2, "h": 2}.get(pname.lower())
    if not side:
        return None
    for chain in _SIZES.finditer(text):
        numbers = re.findall(r"\d+", chain.group())
        if len(numbers) == 2:  # a pair, not a box's three sides (10x20x30)
            return int(numbers[side - 1])
    return None


def script(text: str) -> str | None:
    """The script that tells the page fact a question asks ('the page title' -> document.title)."""
    tokens = lx.words(text)
    return next((s for s, said in _scripts().items() if lx.hits(tokens, said)), None)


@lru_cache(maxsize=1)
def _scripts() -> dict[str, list[str]]:
    return {k: v for k, v in lx.lexicon()["page_scripts"].items() if not k.startswith("_")}


def scripted(view: Any, need: Any) -> None:
    """A question about a page that a script answers ('what's the page title of https://example.com?') goes to the
    page tool that runs JavaScript, whatever else shares its words: the page is opened first (opened_first)."""
    if need.tool is None or not page_tool(need.tool) or script(need.clause) is None:
        return
    runner = next((t for t in view.tools if page_tool(t) and _runs_scripts(t)), None)
    if runner is not None and runner is not need.tool:
        need.tool, need.intent = runner, "tool"
        view.notes.append(f"A script tells this of the page, so {runner.get('name')} runs it.")


def _runs_scripts(tool: dict[str, Any]) -> bool:
    props = (tool.get("input_schema") or {}).get("properties") or {}
    tool_json = json.dumps(tool)  # once, not once per parameter
    return any(isinstance(p, dict) and kind(n, p, tool_json) == "script" for n, p in props.items())


def told(view: Any, need: Any) -> str | None:
    """A page step that answered is told as what was done, in the user's language ('Otworzyłem https://example.com.',
    «Ввёл «наушники» в поле #search.»), not as the tool's English status line; a script's result is told as usual."""
    if need.tool is None or need.result is None or not page_tool(need.tool):
        return None
    props = (need.tool.get("input_schema") or {}).get("properties") or {}
    tool_json = json.dumps(need.tool)  # once, not once per parameter
    kinds = {kind(n, p, tool_json): n for n, p in props.items() if isinstance(p, dict)}
    args = need.result.input
    if "script" in kinds:
        return None
    if "label" in kinds and args.get(kinds["label"]):
        return lx.say("result.page_shot", view.lang, name=args[kinds["label"]])
    if "selector" in kinds and "typed_text" in kinds and args.get(kinds["typed_text"]):
        text, where = args[kinds["typed_text"]], args.get(kinds["selector"], "")
        return lx.say("result.page_filled", view.lang, text=text, selector=where)
    if "selector" in kinds and args.get(kinds["selector"]):
        return lx.say("result.page_clicked", view.lang, selector=args[kinds["selector"]])
    if opens_page(need.tool) and args.get("url"):
        return lx.say("result.page_opened", view.lang, url=args["url"])
    return None
