"""Answers to questions of fact from a prose result (sim/prose.py): the sentence that answers, and in Russian or
Polish the values it holds in the user's words, never the English sentence quoted whole."""

from __future__ import annotations

from agent_core.sim import prose

ARTICLE = (
    "The 2024 Australian Grand Prix was held on 24 March 2024 at the Albert Park Circuit in Melbourne. "
    "Carlos Sainz Jr. won for Ferrari, ahead of teammate Charles Leclerc and Lando Norris."
)
FILM = (
    "Challengers is a 2024 American sports romantic drama film directed by Luca Guadagnino. "
    "It stars Zendaya, Josh O'Connor and Mike Faist. The score was composed by Trent Reznor and Atticus Ross."
)


def test_sentences_keep_abbreviations_whole() -> None:
    assert prose.sentences(ARTICLE)[1].startswith("Carlos Sainz Jr. won")


def test_the_question_word_picks_the_sentence_not_the_topic() -> None:
    assert prose.answer("Who won the 2024 F1 Australian Grand Prix", "en", ARTICLE).startswith("Carlos Sainz Jr.")
    assert "Zendaya" in prose.answer("Who stars in the movie Challengers?", "en", FILM)


def test_russian_question_gets_the_names_in_russian_words() -> None:
    said = prose.answer("Кто написал музыку к фильму «Претенденты»?", "ru", FILM)
    assert said is not None and "Trent Reznor и Atticus Ross" in said and said.startswith("На вопрос")
    assert "composed" not in said


def test_polish_count_and_yes_no() -> None:
    faq = "There are 120 seats on the plane. There are 22 business class seats and 98 economy seats."
    assert "98" in prose.answer("Ile jest miejsc w klasie ekonomicznej?", "pl", faq)
    said = prose.answer("Czy w samolocie jest wifi?", "pl", "We have free wifi on the plane, join Airline-Wifi")
    assert said is not None and said.startswith("Tak.") and "Airline-Wifi" in said


def test_nothing_found_is_said_in_the_users_language() -> None:
    said = prose.answer("Сколько ног у осьминога?", "ru", "No Wikipedia article found.")
    assert said is not None and "ничего не нашёл" in said and "found" not in said
    assert prose.answer("How many legs?", "en", "No Wikipedia article found.") is None


def test_a_record_is_no_prose() -> None:
    assert (
        prose.answer("Где мой заказ номер 12345?", "ru", "Order 12345: Desk lamp x1, $35.00, status: Delivered") is None
    )
