"""The class server's pages as learners use them (AppTest): each learner is their identity cookie, never the URL;
runs are their owner's; budgets hold across reloads and tabs; the teacher key leaves the address bar.

A browser's identity cookie is stood in for by the id `who.from_cookie` returns (the real cookie, set by the
server and read back from the websocket, is driven in tests/test_browser_class_server.py): two ids are two
browsers, the same id in a new AppTest is a reload or a second tab of the same browser."""

from __future__ import annotations

import pytest
from keys import NEXT_STEP, RUN_TO_END
from lab_app import APP, LAB_KEY, everything_shown, ok, texts
from streamlit.testing.v1 import AppTest

from agent_core.model import SimSettings
from agent_core.serving import mode as serving
from agent_core.serving.budgets import SpendLedger
from agent_core.sim import start_server
from agent_core.storage.store import RunStore
from agent_core.teaching.classes import ClassStore
from agent_core.teaching.progress import ProgressStore
from agent_core.vocab import Provider, StopKind
from lab_ui.serving import who

ADA, BORIS, TEACHER = "ada0000000000000", "b0r1500000000000", "7eac4e7000000000"


class Browsers:
    """AppTests as browsers: each page load runs as the learner its cookie names."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._patch = monkeypatch

    def run(self, at: AppTest, me: str) -> AppTest:
        self._patch.setattr(who, "from_cookie", lambda: me)
        at.run()
        ok(at)
        return at

    def open(self, me: str, page: str, **params: str) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=90)
        for name, value in params.items():
            at.query_params[name] = value
        self.run(at, me)
        at.switch_page(page)
        return self.run(at, me)


@pytest.fixture
def browsers(class_mode, monkeypatch) -> Browsers:
    return Browsers(monkeypatch)


def _param(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def _step(browsers: Browsers, learner: str) -> AppTest:
    at = browsers.open(learner, "pages/playground.py")
    at.button(key=NEXT_STEP).click()
    return browsers.run(at, learner)


def test_two_learners_each_list_continue_and_delete_only_their_own_runs(browsers):
    ada = _step(browsers, ADA)
    ada_run = at_run_id(ada)
    boris = browsers.open(BORIS, "pages/runs.py")
    assert ada_run not in everything_shown(boris) and any("No saved runs yet" in i.value for i in boris.info)
    assert [r.id for r in RunStore(owner=ADA).list_runs()] == [ada_run]
    # Boris opens Ada's run by its id: not shown, and nothing of it is adopted into his tab.
    peek = browsers.open(BORIS, "pages/playground.py", run=ada_run)
    assert f"Run {ada_run} is not shared with you." in texts(peek.warning)
    assert peek.session_state[LAB_KEY].run is None or peek.session_state[LAB_KEY].run.id != ada_run
    # Nor with view=shared in the link: only Ada's Share opens it.
    peek = browsers.open(BORIS, "pages/playground.py", run=ada_run, view="shared")
    assert "not shared with you" in texts(peek.warning)


def test_a_shared_run_opens_read_only_and_make_my_copy_forks_it(browsers):
    ada = _step(browsers, ADA)
    ada_run = at_run_id(ada)
    RunStore(owner=ADA).share(ada_run)  # what Ada's "Share this run" button does (the browser test clicks it)
    boris = browsers.open(BORIS, "pages/playground.py", run=ada_run, view="shared")
    assert any("shared with you" in i.value for i in boris.info)
    assert boris.button(key=NEXT_STEP).disabled, "read-only: nothing of Ada's calls the model"
    boris.button(key="share:copy").click()
    browsers.run(boris, BORIS)
    copy_id = _param(boris, "run")
    assert copy_id != ada_run and RunStore(owner=BORIS).access(copy_id) == "own"
    assert [r.id for r in RunStore(owner=ADA).list_runs()] == [ada_run], "Ada's run is untouched, and still hers"


def test_a_copied_learner_link_does_not_act_as_its_owner(browsers):
    code = ClassStore().create("Group B").code
    ClassStore().join(code, ADA, "Ada")
    ProgressStore().mark(ADA, "what-is-an-agent", "exercise:x")
    boris = browsers.open(BORIS, "pages/lessons.py", learner=ADA, **{"class": code})
    assert "learner" not in boris.query_params, "a ?learner= in a link is dropped unread"
    assert not any("you are **Ada**" in c.value for c in boris.caption)
    assert any("Join class" in i.value for i in boris.info), "Boris is offered to join as himself"


def test_a_reload_and_a_second_tab_are_the_same_learner_with_their_progress(browsers):
    code = ClassStore().create("Group B").code
    first = browsers.open(ADA, "pages/lessons.py", **{"class": code})
    first.text_input(key="class:learner-name").input("Ada")
    first.button(key="class:join-button").click()
    browsers.run(first, ADA)
    again = browsers.open(ADA, "pages/lessons.py")  # a reload, or a new tab with no parameters at all
    assert any("you are **Ada**" in c.value for c in again.caption)
    assert [m.name for m in ClassStore().members(code)] == ["Ada"], "one learner, one row on the board"
    resume = ClassStore().resume_code(ADA)
    assert any(f"{resume[:4]}-{resume[4:]}" in c.value for c in again.caption), "the resume code is shown"


def test_the_same_learner_joining_from_two_tabs_is_one_row_on_the_teachers_board(browsers):
    made = ClassStore().create("Group B")
    # Two tabs of Boris's browser (one cookie), both opened on the join link before he joined in either.
    tabs = [browsers.open(BORIS, "pages/lessons.py", **{"class": made.code}) for _ in range(2)]
    for tab, name in zip(tabs, ("Boris", "Boris K"), strict=True):
        if [w for w in tab.text_input if w.key == "class:learner-name"]:
            tab.text_input(key="class:learner-name").input(name)
            tab.button(key="class:join-button").click()
        browsers.run(tab, BORIS)
        assert any("you are **Boris" in c.value for c in tab.caption), "each tab knows who it is"
    ProgressStore().mark(BORIS, "what-is-an-agent", "exercise:x")
    board = browsers.open(TEACHER, "pages/teacher.py", **{"class": made.code, "teacher": made.teacher_key})
    assert [m.value for m in board.metric][0] == "1", "one learner, however many tabs joined"
    rows = board.dataframe[0].value
    assert len(rows) == 1 and rows.iloc[0, 0].startswith("Boris")


def test_the_teacher_key_leaves_the_address_bar_and_the_browser_stays_the_teacher(browsers):
    made = ClassStore().create("Group B")
    first = browsers.open(TEACHER, "pages/teacher.py", **{"class": made.code, "teacher": made.teacher_key})
    assert first.subheader[0].value == "Group B" and "teacher" not in first.query_params
    assert made.teacher_key not in everything_shown(first).split("teacher link")[0]
    later = browsers.open(TEACHER, "pages/teacher.py", **{"class": made.code})  # a reload or a bookmark
    assert later.subheader[0].value == "Group B" and later.metric
    stranger = browsers.open(BORIS, "pages/teacher.py", **{"class": made.code})
    assert not stranger.metric and any("teacher only" in i.value for i in stranger.info)


@pytest.fixture
def anthropic_at_sim(monkeypatch):
    """The admin's Anthropic endpoint is the offline model on loopback (no network): billed at list prices."""
    server, url = start_server(SimSettings())
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    yield server
    server.shutdown()


def _on_anthropic(browsers: Browsers, learner: str, own_key: str | None = None, **params: str) -> AppTest:
    at = browsers.open(learner, "pages/settings.py", **params)
    if own_key:  # typed into Settings' key box, as a learner pastes theirs
        at.text_input(key="settings:key").input(own_key)
        at.button(key="settings:use-key").click()
        browsers.run(at, learner)
    at.radio(key="settings:provider").set_value(Provider.ANTHROPIC)
    browsers.run(at, learner)
    at.selectbox(key="settings:model:anthropic").set_value("claude-sonnet-4-6")  # a priced model
    browsers.run(at, learner)
    at.switch_page("pages/playground.py")
    return browsers.run(at, learner)


def test_the_servers_daily_cap_holds_across_reloads_tabs_and_a_raised_cap(browsers, anthropic_at_sim, monkeypatch):
    monkeypatch.setenv(serving.ENV_LEARNER_USD, "0.002")  # about one call of the default task
    code = ClassStore().create("Group B").code
    ClassStore().join(code, ADA, "Ada")
    at = _on_anthropic(browsers, ADA)
    at.button(key=RUN_TO_END).click()
    browsers.run(at, ADA)
    run = at.session_state[LAB_KEY].run
    assert run.stop.kind == StopKind.SPEND_CAP and run.stop.params.get("daily") == "learner"
    spent = SpendLedger().spent("learner", ADA)
    assert 0.002 <= spent < 0.01 and len(run.turns) < 4, "every call counted, and the cap stopped the run"
    assert "your limit for today" in everything_shown(at)
    calls = _model_calls(anthropic_at_sim)
    # A reload, a second tab, a cap raised on Settings: nothing more is spent.
    settings = browsers.open(ADA, "pages/settings.py")
    settings.number_input(key="settings:daily-cap").set_value(0.002)  # the most the input takes: the limit
    browsers.run(settings, ADA)
    assert SpendLedger().own_cap(ADA) <= 0.002
    again = _on_anthropic(browsers, ADA)
    again.button(key=NEXT_STEP).click()
    browsers.run(again, ADA)
    stopped = again.session_state[LAB_KEY].run.stop
    assert stopped is not None and stopped.kind == StopKind.SPEND_CAP
    assert SpendLedger().spent("learner", ADA) == spent, "no call was made past the cap"
    assert _model_calls(anthropic_at_sim) == calls


def _model_calls(server) -> int:
    return sum(1 for seen in server.sim.seen if seen.method == "POST" and seen.path == "/v1/messages")


def _said(at: AppTest) -> str:
    """The page's messages as the learner reads them (everything_shown escapes non-Latin letters)."""
    return texts([*at.error, *at.warning, *at.info, *at.caption])


def test_a_budget_of_zero_keeps_learners_off_the_servers_key_and_says_so_in_their_language(
    browsers, anthropic_at_sim, monkeypatch
):
    monkeypatch.setenv(serving.ENV_LEARNER_USD, "0")  # the server's configuration: learners get none of its key
    code = ClassStore().create("Group B").code
    ClassStore().join(code, ADA, "Ada")
    settings = browsers.open(ADA, "pages/settings.py", lang="ru")
    assert "не выделяет ученикам бюджета" in _said(settings) and "0 USD" in _said(settings)
    assert not [n for n in settings.number_input if n.key == "settings:daily-cap"], "no cap to pick from nothing"
    assert "дойдёт только ключ, вставленный здесь" in _said(settings) and "учитель разрешил" not in _said(settings)
    at = _on_anthropic(browsers, ADA, lang="ru")
    at.button(key=NEXT_STEP).click()
    browsers.run(at, ADA)
    stop = at.session_state[LAB_KEY].run.stop
    assert stop.kind == StopKind.SPEND_CAP and stop.params.get("no_budget")
    said = _said(at)
    assert "не выделяет ученикам бюджета" in said and "офлайн" in said.lower(), said
    assert "исчерпан" not in said, "no 'limit reached' for a limit that never was"
    assert _model_calls(anthropic_at_sim) == 0 and SpendLedger().spent("learner", ADA) == 0.0
    # The offline model still works, and so does a key of the learner's own (their money: not counted).
    offline = browsers.open(ADA, "pages/playground.py")
    offline.button(key=NEXT_STEP).click()
    browsers.run(offline, ADA)
    assert offline.session_state[LAB_KEY].run.turns[0].response is not None
    own = _on_anthropic(browsers, ADA, own_key="learner-own-key-" + ADA)
    own.button(key=NEXT_STEP).click()
    browsers.run(own, ADA)
    run = own.session_state[LAB_KEY].run
    assert run.stop is None and run.turns[0].response is not None and _model_calls(anthropic_at_sim) == 1
    assert SpendLedger().spent("learner", ADA) == 0.0


def test_with_the_teacher_switch_off_the_class_gets_no_server_key(browsers, anthropic_at_sim, class_mode):
    classes = ClassStore()
    code = classes.create("Group B").code
    classes.join(code, ADA, "Ada")
    classes.set_server_key(code, False)
    at = _on_anthropic(browsers, ADA)
    at.button(key=NEXT_STEP).click()
    browsers.run(at, ADA)
    assert "No API key" in everything_shown(at)
    assert SpendLedger().spent("learner", ADA) == 0.0
    stranger = _on_anthropic(browsers, BORIS, lang="pl")  # in no class: never the server's key
    stranger.button(key=NEXT_STEP).click()
    browsers.run(stranger, BORIS)
    assert "nie masz klucza API" in _said(stranger), "said in the learner's language, not quoted English"
    assert "No API key" not in _said(stranger) and class_mode not in everything_shown(stranger)


def test_settings_say_class_server_mode_and_test_connection_refuses_loopback(browsers, listener):
    at = browsers.open(ADA, "pages/settings.py")
    assert any("class-server mode" in i.value for i in at.info)
    at.radio(key="settings:provider").set_value(Provider.COMPATIBLE)
    browsers.run(at, ADA)
    at.selectbox(key="settings:preset").set_value("Custom URL")
    browsers.run(at, ADA)
    at.text_input(key="settings:base_url").set_value(listener.url + "/internal/admin")
    browsers.run(at, ADA)
    at.button(key="settings:test").click()
    browsers.run(at, ADA)
    assert "does not connect to" in texts(at.error) and listener.hits == []


def test_personal_mode_settings_say_personal_and_keep_the_learner_in_the_url(personal_mode):
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("pages/settings.py").run()
    assert any("personal mode" in c.value for c in at.caption)
    at.switch_page("pages/lessons.py").run()
    assert _param(at, "learner"), "personal mode: the learner id rides in the URL as before"


def at_run_id(at: AppTest) -> str:
    run = at.session_state[LAB_KEY].run
    assert run is not None and run.turns, "the click made a turn"
    return run.id


def test_a_learner_cannot_open_a_listening_port_on_the_class_server(browsers):
    # The Runs page's recorder listens on the server itself: on a class server a learner's could take any free
    # port (a restarting worker's too). It says how to record on one's own computer instead.
    at = browsers.open(ADA, "pages/runs.py")
    assert not any(b.key == "recorder:start" for b in at.button)
    assert "python -m agent_core serve --record" in everything_shown(at)


def test_a_browser_without_the_cookie_is_told_its_learner_lives_in_this_tab_only(class_mode):
    at = AppTest.from_file(APP, default_timeout=90)  # AppTest sends no cookie, as a browser refusing them
    at.run()
    at.switch_page("pages/lessons.py").run()
    ok(at)
    assert any("did not keep the class server's cookie" in w.value for w in at.warning)


def test_without_the_cookie_nobody_joins_a_class(class_mode):
    code = ClassStore().create("Group B").code
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["class"] = code
    at.run()
    at.switch_page("pages/lessons.py").run()
    ok(at)
    assert not any(b.key == "class:join-button" for b in at.button) and ClassStore().members(code) == []


def test_a_recorded_runs_model_title_and_task_load_nothing_in_another_learners_browser(browsers, listener):
    from agent_core.model import Run, RunConfig, Turn

    image = f"![x]({listener.url}/pixel.png)"
    config = RunConfig(task=f"task {image}", model=f"m {image}", provider="anthropic")
    run = Run(config=config, title=f"title {image}")
    run.turns = [Turn(index=1, request={"messages": []})]
    store = RunStore(owner=ADA)
    store.save_run(run)
    store.share(run.id)
    boris = browsers.open(BORIS, "pages/playground.py", run=run.id, view="shared")
    shown = "\n".join(m.value for m in boris.markdown) + texts(boris.caption)
    assert listener.url in shown and image not in shown, "the badge shows the model's text, escaped"
    assert "!\\[x](" in shown  # no "[" opens a link or an image: the text is shown, nothing is fetched
