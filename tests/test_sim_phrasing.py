"""Short English phrases of tool results said in Russian and Polish (agent_core/sim/phrasing.py), and the answers
that use them: a plan's price from a page, a menu in an output tool's field."""

from __future__ import annotations

from agent_core.sim.phrasing import render
from agent_core.sim.words import translate, value


def test_a_price_per_seat_and_month_is_said_in_the_users_words() -> None:
    assert render("$25 per seat a month, up to 40 seats", "ru") == "$25 за место в месяц, до 40 мест"
    assert render("€9 per user per year, up to 3 projects", "pl") == "€9 za użytkownika rocznie, do 3 projektów"


def test_counted_nouns_take_the_form_their_number_asks_for() -> None:
    assert render("1 project", "ru") == "1 проект"
    assert render("3 projects", "ru") == "3 проекта"
    assert render("21 days", "ru") == "21 день"
    assert render("up to 1 seat", "pl") == "do 1 miejsca"
    assert render("up to 22 seats", "pl") == "do 22 miejsc"
    assert render("500 GB storage", "ru") == "500 ГБ хранилища"


def test_a_dish_list_agrees_adjectives_with_their_noun() -> None:
    assert render("Fresh and vegetarian salad with tea.", "ru") == "Свежий и вегетарианский салат, чай."
    assert render("4-course lunch with red wine", "pl") == "obiad z 4 dań, czerwone wino"
    assert render("Sandwiches, cake, and coffee", "ru") == "Бутерброды, торт и кофе"


def test_a_retention_rule_is_told_with_its_duration() -> None:
    assert render("Backups are kept for 14 days, then deleted.", "pl") == (
        "Kopie zapasowe są przechowywane przez 14 dni, potem są usuwane."
    )
    assert render("Returns are accepted within 3 days of purchase", "ru") == (
        "Возвраты принимаются в течение 3 дней после покупки"
    )


def test_a_phrase_with_an_unknown_word_is_not_half_translated() -> None:
    assert render("$25 per seat a month, priority onboarding", "ru") is None
    assert render("Custom menu for the butler.", "pl") is None
    assert render("$25 per seat a month", "en") is None


def test_values_and_translations_use_the_rendering() -> None:
    assert value("$5 a month, one seat", "ru") == "$5 в месяц, 1 место"
    assert translate("Pizza and drinks", "pl") == "Pizza i napoje"
    assert translate("Pizza and drinks", "pl", keep=True) == "Pizza i napoje („Pizza and drinks”)"
    assert value("light rain", "ru").startswith("небольшой дождь")  # the values table still answers first


_FETCH = {
    "name": "fetch",
    "description": "Fetches a URL from the internet and extracts its contents as markdown.",
    "input_schema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
}


def test_a_plans_price_from_a_page_is_told_in_the_question_language() -> None:
    from sim_loop import agent_loop

    page = "Contents of https://plans.example.io:\n# Plans\n\n- Basic: $4 a month, 2 projects\n- Growth: $11 per user a month"
    _, answer = agent_loop(
        "Сколько стоит тариф Growth на https://plans.example.io?", [_FETCH], lambda name, args: (page, False)
    )
    assert "Тариф Growth" in answer and "$11 за пользователя в месяц" in answer
    assert "per user" not in answer
