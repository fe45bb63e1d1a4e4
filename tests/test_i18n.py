"""The UI follows the language switch: every string the code translates has a Russian and a Polish entry with the
same placeholders, no entry is left over, every page opens in every language with its translated title, and the
API terms stay in English while the step buttons and turn tabs are translated."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import keys
import pytest
from lab_app import LAB_KEY, click, widget
from streamlit.testing.v1 import AppTest

from agent_core.cost import accounting
from agent_core.examples import load_example
from agent_core.model import RunConfig
from agent_core.report import charts, compare
from agent_core.storage.store import RunStore
from lab_ui.controller import session
from lab_ui.playground import loop_code
from lab_ui.playground.controls import tool_from_editor
from lab_ui.words import catalogue
from lab_ui.words.i18n import LANGUAGES, catalog_files, t, translate

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
CONTENT = ROOT / "lab_ui" / "content"
OTHER = [lang for lang in LANGUAGES if lang != "en"]
CHART_MODULES = [
    ROOT / "agent_core" / "report" / "charts.py",
    ROOT / "agent_core" / "report" / "compare.py",
    ROOT / "agent_core" / "report" / "explain.py",
]
STEP_BAR = {
    keys.NEXT_PHASE: "Next phase",
    keys.NEXT_STEP: "Next step",
    keys.RUN_TO_END: "Run to end",
    keys.RESET: "Reset",
}
TURN_TABS = ["Request", "Response", "Raw JSON", "HTTP attempts", "Tools", "Diff", "OpenAI form"]
# API terms: where an English string holds one, its translations hold it too.
KEPT = [
    "stop_reason",
    "tool_use",
    "tool_result",
    "finish_reason",
    "tool_calls",
    "max_tokens",
    "tool_choice",
    "cache_control",
    "input_schema",
    "JSON Schema",
    "ANTHROPIC_API_KEY",
    "GET /v1/models",
]
PAGE_TITLES = {
    "pages/home.py": ":material/replay: Agent Loop Lab",
    "pages/playground.py": "Playground",
    "pages/lessons.py": "Lessons",
    "pages/runs.py": "Runs",
    "pages/settings.py": "Settings",
}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")  # {name}; JSON examples like {"city": "Oslo"} are not placeholders


def used_keys() -> dict[str, str]:
    """Literal first arguments of t(...), mark(...) and translate(lang, ...) in app.py, lab_ui/ and pages/, plus the
    chart texts agent_core's figures pass through their `label` (see chart_keys)."""
    found: dict[str, str] = {}
    for path in [ROOT / "app.py", *sorted(ROOT.glob("lab_ui/**/*.py")), *sorted(ROOT.glob("pages/**/*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            args = node.args[1:] if name == "translate" else node.args
            literal = args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)
            if name in ("t", "mark", "translate") and literal:
                found.setdefault(args[0].value, f"{path.relative_to(ROOT)}:{node.lineno}")
    for text in catalogue.BORROWED_TEXTS:  # agent_core's tables' texts the UI renders (provider names, stop causes)
        found.setdefault(text, "lab_ui/words/catalogue.py: BORROWED_TEXTS")
    for text in loop_code.comments():  # the loop code panel's comments, written in its data files
        found.setdefault(text, "lab_ui/playground/data/loop_code.*.txt: a comment")
    return {**chart_keys(), **found}


def chart_keys() -> dict[str, str]:
    """The chart texts: literal label(...) and label_text(...) arguments in the figure modules, and the texts the
    figures borrow from other modules (component names, accounting notes)."""
    found: dict[str, str] = {}
    for path in CHART_MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) in ("label", "label_text")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{path.relative_to(ROOT)}:{node.lineno}")
    for text in charts.BORROWED_TEXTS:
        found.setdefault(text, "agent_core/report/charts.py: BORROWED_TEXTS")
    return found


def table(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in catalog_files(lang):
        entries = json.loads(path.read_text(encoding="utf-8"))
        twice = sorted(set(entries) & set(merged))
        assert not twice, f"{path} repeats entries another {lang} catalogue file has: {twice}"
        merged.update(entries)
    return merged


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


# -- the tables ---------------------------------------------------------------------------------------
def test_the_code_translates_a_good_number_of_strings():
    assert len(used_keys()) > 200  # guards the collector itself: a broken walk would make the checks below vacuous


@pytest.mark.parametrize("lang", OTHER)
def test_every_used_key_has_an_entry_with_the_same_placeholders(lang):
    entries = table(lang)
    missing = [f"{where}: {key!r}" for key, where in used_keys().items() if not entries.get(key, "").strip()]
    assert not missing, "no translation for:\n" + "\n".join(missing)
    wrong = [key for key in used_keys() if placeholders(entries[key]) != placeholders(key)]
    assert not wrong, f"placeholders differ from the English in: {wrong}"


@pytest.mark.parametrize("lang", OTHER)
def test_every_entry_formats_with_its_placeholders(lang):
    """A stray brace in a translation would raise at the moment a learner reaches that message."""
    for key in table(lang):
        values = {name: "x" for name in placeholders(key)}
        if values:
            translate(lang, key, **values)


@pytest.mark.parametrize("lang", OTHER)
def test_no_entry_is_left_over(lang):
    unused = sorted(set(table(lang)) - set(used_keys()))
    assert not unused, f"{lang}.json has entries no code uses: {unused}"


@pytest.mark.parametrize("lang", OTHER)
def test_names_the_lessons_use_and_api_terms_stay_in_english(lang):
    entries = table(lang)
    lost = [(term, key) for key, text in entries.items() for term in KEPT if term in key and term not in text]
    assert not lost, lost


@pytest.mark.parametrize("lang", OTHER)
def test_translations_are_not_left_in_english(lang):
    """Longer texts are really translated (short ones such as "Model" or "Anthropic API" may rightly stay)."""
    same = [key for key, text in table(lang).items() if text == key and len(key.split()) > 2]
    assert not same, same


def test_outside_a_streamlit_run_the_texts_are_english():
    """Scripts and tests call lab_ui's helpers without a browser tab: they get English, not an error."""
    assert t("Turn {n}", n=3) == "Turn 3"
    with pytest.raises(ValueError, match="A tool name must be"):
        tool_from_editor("bad name!", "d", '{"type": "object"}', "calculate", False)


def test_the_scanner_finds_every_text_the_charts_translate():
    """Every figure, on every branch that adds a text, passes only texts the tables are checked for."""
    from test_accounting import PRICING, SONNET, three_turn_run

    seen: set[str] = set()

    def label(text: str) -> str:
        seen.add(text)
        return text

    df = accounting.run_table(three_turn_run(model="llama3.2"), PRICING)  # no price known: the notes show
    df.attrs["context_window"] = 1500
    figures = [
        charts.context_by_component(df, 200_000, label),
        charts.context_by_component(df, 2000, label),
        charts.cost_per_turn(df, label),
        charts.peak_vs_billed(df, label),
        charts.projection(df, 30, label),
        charts.price_comparison(three_turn_run(), PRICING, label),
        charts.cache_savings(df, PRICING, SONNET, label),
        charts.cache_savings(df, PRICING, "mistral", label),
    ]
    a, b = load_example("weather_and_calculator"), load_example("stubborn_runaway")
    b.parent_id, b.parent_turn = a.id, 1  # a fork, so the fork marker is drawn too
    pair = compare.compare(a, b)
    figures += [
        compare.context_figure(pair, label),
        compare.cost_figure(pair, label),
        compare.messages_figure(pair, label),
    ]
    assert figures and len(seen) > 40
    missing = sorted(seen - set(chart_keys()))
    assert not missing, f"texts the charts translate but the scanner cannot see: {missing}"


# -- the Home page content ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_content_exists_in_every_language_with_the_same_tour(lang):
    text = (CONTENT / f"home.{lang}.md").read_text(encoding="utf-8")
    english = (CONTENT / "home.en.md").read_text(encoding="utf-8")
    steps = re.compile(r"^\d+\. ", re.MULTILINE)
    assert len(steps.findall(text)) == len(steps.findall(english)) == 5
    for name in ("Next phase", "Next step", "Raw JSON", "Diff", "Context & cost"):
        assert f"**{{ui:{name}}}**" in text, f"{name}: the tour names it through the catalogue (lab_ui/ui_names.py)"
    if lang != "en":
        assert not set(text.split("\n")) & set(english.split("\n")) - {""}, "a line is still the English one"


# -- the pages in every language ----------------------------------------------------------------------
@pytest.fixture
def app_env(app_env: Path) -> Path:
    """conftest's own runs database and no key, with two saved runs, so Compare has something to show."""
    with RunStore(app_env) as store:
        for name in ("weather_and_calculator", "stubborn_runaway"):
            store.save_run(load_example(name))
    return app_env


def app_in(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    # AppTest's first run draws the sidebar before any page is known, so the switch's widget id changes once;
    # a second run settles it (a browser does not see this: there the first pick works).
    at.run().run()
    widget(at, keys.LANGUAGE).set_value(lang).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("page", PAGE_TITLES)
def test_every_page_opens_with_its_translated_title(app_env, page, lang):
    at = open_page(app_in(lang), page)
    assert [x.value for x in at.title] == [translate(lang, PAGE_TITLES[page])]
    if page != "pages/home.py":
        assert translate(lang, PAGE_TITLES[page]) != PAGE_TITLES[page]


@pytest.mark.parametrize("lang", OTHER)
def test_playground_step_buttons_and_tabs_are_in_the_language(app_env, lang):
    at = open_page(app_in(lang), "pages/playground.py")
    translated = [translate(lang, name) for name in STEP_BAR.values()]
    assert [widget(at, key).label for key in STEP_BAR] == translated
    assert not set(translated) & set(STEP_BAR.values())
    click(at, keys.RUN_TO_END)
    stopped = translate(lang, "**Loop stopped** ({kind}): {message}", kind="end_turn", message="")
    assert any(s.value.startswith(stopped) for s in at.success), [s.value for s in at.success]
    assert any(translate(lang, "Simulated model (offline)") in m.value for m in at.markdown)
    tabs = [tab.label for tab in at.tabs]
    assert tabs[:7] == [translate(lang, name) for name in TURN_TABS]
    assert not set(tabs) & {*TURN_TABS, "Sequence", "Context & cost"}


@pytest.mark.parametrize("lang", OTHER)
def test_the_playgrounds_default_system_prompt_is_in_the_language_and_an_edited_one_stays(app_env, lang):
    """As the default task (and every lesson's system prompt): an English one was left in a Russian run's request."""
    at = open_page(app_in(lang), "pages/playground.py")
    lab = at.session_state[LAB_KEY]
    assert RunConfig(task="").system == session.DEFAULT_SYSTEM, "the catalogue's key is RunConfig's default"
    assert lab.config.system == translate(lang, session.DEFAULT_SYSTEM) != session.DEFAULT_SYSTEM
    click(at, keys.NEXT_STEP)
    assert at.session_state[LAB_KEY].run.turns[0].request["system"] == translate(lang, session.DEFAULT_SYSTEM)

    at = open_page(app_in(lang), "pages/playground.py")
    widget(at, keys.LANGUAGE).set_value("en").run()
    assert at.session_state[LAB_KEY].config.system == session.DEFAULT_SYSTEM, "it follows a switch of language"

    at = open_page(app_in(lang), "pages/playground.py")
    prompt = next(box for box in at.text_area if box.label == translate(lang, "System prompt"))
    prompt.set_value("Answer in one word.").run()
    widget(at, keys.LANGUAGE).set_value("en").run()
    assert at.session_state[LAB_KEY].config.system == "Answer in one word.", "the learner's own prompt is kept"


@pytest.mark.parametrize("lang", OTHER)
def test_runs_page_views_open_in_the_language(app_env, lang):
    at = open_page(app_in(lang), "pages/runs.py")
    for name in ("Compare", "Import & examples", "Saved runs"):
        at.segmented_control(key="runs:view").set_value(name).run()
        assert not at.exception, (name, [e.value for e in at.exception])
    assert widget(at, "runs:replay").label == translate(lang, "Open as replay")


@pytest.mark.parametrize("lang", OTHER)
def test_settings_page_for_a_local_server_opens_in_the_language(app_env, lang):
    at = open_page(app_in(lang), "pages/settings.py")
    at.radio(key=keys.PROVIDER).set_value("compatible").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key=keys.PROVIDER).label == translate(lang, "Provider")
    assert at.selectbox(key="settings:preset").label == translate(lang, "Server")


def test_a_value_may_be_called_text_or_lang():
    """A goal's missing text is passed as `text`: it must not collide with t()'s own first argument."""
    from agent_core.teaching.lessons.goals import Miss
    from lab_ui.lessons.goal_feedback import sentence

    assert sentence(Miss("text_present", {"text": "ACME"})) == "The final answer still mentions ACME."
    assert "ACME" in translate("ru", "The final answer still mentions {text}.", text="ACME", lang="x")


def test_numbers_are_written_as_each_language_writes_them():
    from agent_core.report.numbers import number_text

    assert [number_text(v, "en") for v in (1360, 12345, 0.5)] == ["1,360", "12,345", "0.5"]
    for lang in ("ru", "pl"):
        assert [number_text(v, lang) for v in (1360, 12345, 0.5)] == ["1360", "12\u00a0345", "0,5"]
    assert number_text(1234.5, "pl", 2) == "1\u00a0234,50"


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_the_playgrounds_token_figures_are_written_in_the_tabs_language(app_env, lang):
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=90)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/playground.py").run()
    click(at, keys.RUN_TO_END)
    run = at.session_state[LAB_KEY].run
    billed = sum(turn.usage.whole_input for turn in run.turns)
    assert billed >= 1000, "a run big enough to need a thousands separator"
    shown = [m.value for m in at.metric]
    expected = (
        f"{billed:,}" if lang == "en" else (f"{billed:,}".replace(",", "\u00a0") if billed >= 10_000 else str(billed))
    )
    assert expected in shown, f"{expected!r} not among {shown}"
    at.session_state["insights"] = translate(lang, "Context & cost")  # the charts' tab (drawn only when open)
    at.run()
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert charts, "the run's charts are on the page"
    separators = {c["layout"].get("separators") for c in charts}
    assert separators == {".," if lang == "en" else ", "}, "the charts' ticks and hovers group digits the same way"
