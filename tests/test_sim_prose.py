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


GUESTS = {
    "name": "guest_info_retriever",
    "description": "Retrieves detailed information about gala guests by their name or relation.",
    "input_schema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "The name or relation of the guest."}},
        "required": ["query"],
    },
}
TESLA = (
    "Name: Dr. Nikola Tesla\nRelation: old friend from university days\nDescription: Dr. Nikola Tesla, an old friend "
    "from university, has just patented a new wireless energy transmission system and loves discussing pigeons.\n"
    "Email: nikola.tesla@gmail.com"
)


def _answer(question: str, result: str) -> str:
    """The final answer after one call of the guest tool that returned result (the HF agents course's Alfred)."""
    from agent_core.model import SimSettings
    from agent_core.sim.brain import think

    messages: list[dict] = [{"role": "user", "content": question}]
    body = {"model": "claude-sonnet-4-6", "max_tokens": 512, "messages": messages, "tools": [GUESTS]}
    first = think(body, SimSettings())
    use = next(b for b in first.content if b["type"] == "tool_use")
    messages.append({"role": "assistant", "content": [dict(use, id="toolu_1")]})
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": result}]})
    return " ".join(b["text"] for b in think(body, SimSettings()).content if b["type"] == "text")


def test_one_field_of_a_record_is_a_sentence_about_its_owner_in_polish() -> None:
    said = _answer("Jaki adres e-mail ma dr Nikola Tesla z listy gości?", TESLA)
    assert said == "Dr. Nikola Tesla ma adres e-mail: nikola.tesla@gmail.com."


def test_a_paragraph_in_a_field_is_cut_at_a_clause_not_pasted() -> None:
    ada = (
        "Name: Ada Lovelace\nRelation: best friend\nDescription: Lady Ada Lovelace is my best friend, a celebrated "
        "mathematician known for her notes on the Analytical Engine, often called the first computer programme.\n"
        "Email: ada.lovelace@example.com"
    )
    said = _answer("Tell me about our guest named 'Lady Ada Lovelace'.", ada)
    assert "Analytical Engine" in said and "first computer programme" not in said


def test_a_weather_sentence_is_told_by_its_conditions_in_russian() -> None:
    from agent_core.sim import words

    assert words.weather_said("It's always sunny in Florida!", "ru") == "солнечно"
    assert words.weather_said("Weather in Oslo: 4°C, light rain", "ru") is None  # a report, translated word by word
    assert words.weather_said("It's always sunny in Florida!", "en") is None


def test_an_english_sentence_in_a_result_is_quoted_whole_never_half_translated() -> None:
    from agent_core.sim import words

    said = words.value("Heavy rain of 3 to 5 inches may cause flash flooding.", "ru")
    assert said == "«Heavy rain of 3 to 5 inches may cause flash flooding.»", said
    assert words.value("heavy rain", "pl") == "ulewny deszcz"  # a known phrase alone is translated, no gloss


def test_a_question_of_two_parts_is_answered_part_by_part_from_one_text() -> None:
    said = prose.answer("Who stars in the movie Challengers, and who wrote its score?", "en", FILM)
    assert said is not None and "Zendaya" in said and "Reznor" in said


def test_a_clause_about_the_same_thing_is_no_call_of_its_own() -> None:
    from agent_core.sim.text import backrefs as reader

    assert reader.refers_back("and who wrote its score?")
    assert reader.refers_back("Подходит ли она для фейерверка?")
    assert not reader.refers_back("но не знаю его номер")
    assert not reader.refers_back("and what is its price in Paris?")
    assert not reader.refers_back("and email it to bob@example.com")
    assert not reader.refers_back("and save it")


def test_a_confirmation_in_another_tense_is_the_action_done() -> None:
    from agent_core.sim import acks

    assert acks.confirms("send", "Email sent to ivan@example.com.")
    assert acks.confirms("cancel", "Cancelled the order")
    assert not acks.confirms("send", "Could not send the email")
