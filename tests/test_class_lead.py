"""A teacher who leads: the join screen (code, LAN address, QR, no key when projected), "send the class to lesson N,
step M" (a learner who follows gets there; the board says who is where), and the 90-minute plan."""

from __future__ import annotations

import pytest
from lab_app import APP, click, everything_shown, widget
from streamlit.testing.v1 import AppTest

from agent_core.teaching.class_lead import ClassLead
from agent_core.teaching.classes import ClassStore
from agent_core.teaching.lessons import load_lessons
from agent_core.teaching.plans import load_plans
from lab_ui.teacher import lead


@pytest.fixture(autouse=True)
def _own_db(app_env, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)


def _page(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_projected_join_screen_has_the_code_the_join_link_and_a_qr_code_but_no_key():
    made = ClassStore().create("Group B")
    at = _page("pages/teacher.py", **{"class": made.code, "teacher": made.teacher_key, "present": "1"})
    shown = everything_shown(at)
    assert f'lab-join-code\\">{made.code}</div>' in shown  # the big code (quotes escaped in the proto text)
    assert f"/lessons?class={made.code}</div>" in shown
    assert "QR code of http" in shown and f"class={made.code}" in shown, "the QR code, its caption naming the link"
    assert made.teacher_key not in shown, "a projected Teacher page shows the key nowhere"
    assert "teacher" not in at.query_params, "nor in its address bar"


def test_a_server_opened_as_localhost_is_joined_at_its_lan_address(monkeypatch):
    monkeypatch.setattr(lead, "app_link", lambda page, **_: f"http://localhost:8501/{page}")
    monkeypatch.setattr(lead, "lan_address", lambda: "192.168.7.21")
    assert lead.join_link(lead.detected_base(), "ABC234") == "http://192.168.7.21:8501/lessons?class=ABC234"


def test_a_public_address_wins_over_the_detected_one(monkeypatch):
    monkeypatch.setenv(lead.PUBLIC_URL_ENV, "https://lab.school.example/")
    assert lead.join_link(lead.detected_base(), "ABC234") == "https://lab.school.example/lessons?class=ABC234"


def test_the_qr_code_is_a_png():
    assert lead.qr_png("http://192.168.1.5:8501/lessons?class=ABC234").startswith(b"\x89PNG\r\n\x1a\n")


def test_send_the_class_a_following_learner_gets_there_and_the_board_says_where():
    lessons = load_lessons()
    made = ClassStore().create("Group C")
    ClassStore().join(made.code, "learner-a", "Ada")
    learner = _page("pages/lessons.py", **{"class": made.code, "learner": "learner-a"})
    teacher = _page("pages/teacher.py", **{"class": made.code, "teacher": made.teacher_key})
    third = lessons[2]
    widget(teacher, "send:lesson").set_value(2).run()
    widget(teacher, f"send:step:{third.id}").set_value(2).run()
    click(teacher, "send:go")
    assert ClassLead().focus(made.code).lesson == third.id
    learner.run()  # the learner's next look (the page checks every few seconds)
    assert not learner.exception, [e.value for e in learner.exception]
    assert learner.session_state["lessons:lesson"] == third.id
    assert learner.session_state[f"step:{third.id}"] == 1, "step 2, shown 0-based"
    assert any(h.value == third.text("en")[1].title for h in learner.subheader), "the step on screen is step 2"
    teacher.run()
    board = teacher.dataframe[0].value
    assert board["Now at"].iloc[0] == f"L{third.order} · step 2"


def test_a_learner_who_does_not_follow_stays_and_can_go_there():
    lessons = load_lessons()
    made = ClassStore().create("Group D")
    ClassStore().join(made.code, "learner-b", "Bo")
    ClassLead().send(made.code, lessons[0].id, 1)  # the class is on lesson 1: the banner and its switch show
    learner = _page("pages/lessons.py", **{"class": made.code, "learner": "learner-b"})
    widget(learner, "follow:on").set_value(False).run()
    ClassLead().send(made.code, lessons[4].id, 1)
    learner.run()
    assert learner.session_state["lessons:lesson"] == lessons[0].id
    click(learner, "follow-go")
    assert learner.session_state["lessons:lesson"] == lessons[4].id


def test_the_90_minute_plan_fills_90_minutes_with_lessons_that_exist():
    lessons = load_lessons()
    plans = load_plans({x.id for x in lessons})
    ninety = next(p for p in plans if p.id == "90-minutes")
    assert ninety.minutes == 90 and ninety.starts()[0] == 0
    assert sum(1 for b in ninety.blocks if b.lesson) >= 4
    for block in ninety.blocks:
        assert block.what["ru"] != block.what["en"] and block.what["pl"] != block.what["en"]
