"""Words translated without tools from the small word table (sim/wordbook.py), HTML pages read for their facts
(sim/markup.py), and the count of results a careful model sends itself (sim/counts.py)."""

from __future__ import annotations

from agent_core.sim.counts import result_count
from agent_core.sim.markup import facts
from agent_core.sim.wordbook import translation


def test_a_word_is_translated_from_the_table_in_the_users_language() -> None:
    assert translation("Как по-английски «град»?", "ru") == "«град» по-английски — «hail»."
    assert translation("jak jest po angielsku mróz", "pl") == "„mróz” po angielsku to „frost”."
    assert translation("How do you say 'flood' in Russian?", "en") == "“flood” in Russian is наводнение, паводок."


def test_a_word_outside_the_table_gets_an_honest_note_not_a_guess() -> None:
    said = translation("Jak jest po angielsku „żyrafa”?", "pl")
    assert said is not None and "żyrafa" in said and "nie ma" in said


def test_a_question_that_asks_no_translation_is_left_alone() -> None:
    assert translation("Какая погода в Осло?", "ru") is None
    assert translation("Как по-русски «снег»?", "ru") is None  # asked in the language it names


def test_an_html_page_is_read_for_its_title_heading_and_classed_values() -> None:
    page = (
        "<!DOCTYPE html><html><head><title>Build farm</title><style>p{color:red}</style></head>"
        "<body><h1>3 builds queued</h1><span class='queue-time'>12 min</span><p>Footer text</p></body></html>"
    )
    assert facts(page) == "Title: Build farm\nHeadline: 3 builds queued\nQueue time: 12 min"
    assert facts("# Build farm\n\nPlain markdown") is None


def test_a_required_count_of_results_is_a_handful_within_the_bounds() -> None:
    assert result_count("top_k", {"type": "integer", "description": "Number of results to return", "maximum": 3}) == 3
    assert result_count("limit", {"type": "integer", "description": "Max hits", "default": 20}) == 20
    assert result_count("year", {"type": "integer", "description": "The year of the report"}) is None
    assert result_count("num_results", {"type": "string", "description": "How many results"}) is None


_KB = {
    "name": "search_knowledge_base",
    "description": "Queries a knowledge base to retrieve relevant information on a topic.",
    "input_schema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The user question or search query."},
            "options": {
                "type": "object",
                "properties": {
                    "num_results": {"type": "number", "description": "How many top results to return"},
                    "sort_by": {"type": ["string", "null"], "enum": ["relevance", "date", None]},
                },
                "required": ["num_results", "sort_by"],
            },
        },
        "required": ["query", "options"],
    },
}
_MAIL = {
    "name": "send_email",
    "description": "Sends an email to a given recipient with a subject and a message.",
    "input_schema": {
        "type": "object",
        "properties": {"to": {"type": "string"}, "subject": {"type": "string"}, "body": {"type": "string"}},
        "required": ["to", "subject", "body"],
    },
}


def test_a_topic_question_naming_logs_searches_the_knowledge_base_with_a_handful_of_results() -> None:
    from sim_loop import agent_loop

    snippet = '[{"title": "Logs", "snippet": "Audit logs are kept for 45 days, then deleted."}]'
    replies, answer = agent_loop("Как долго хранятся логи аудита?", [_KB, _MAIL], lambda n, a: (snippet, False))
    name, sent = replies[0][0]
    assert name == "search_knowledge_base" and sent["options"] == {"num_results": 5, "sort_by": None}
    # 'audit' is unknown: the sentence is told by its figure and the terms the vocabulary knows, never copied
    assert "45 дней" in answer and "лог" in answer and "kept" not in answer


def test_a_mail_without_recipient_is_asked_for_not_searched() -> None:
    from sim_loop import agent_loop

    replies, answer = agent_loop(
        "Wyślij maila, że spotkanie jest w czwartek.", [_KB, _MAIL], lambda n, a: ("[]", False)
    )
    assert replies == [] and "?" in answer


def test_a_site_written_without_its_scheme_is_fetched_over_https_and_raw_html_is_told() -> None:
    from sim_loop import agent_loop

    fetch = {
        "name": "fetch",
        "description": "Fetches a URL from the internet.",
        "input_schema": {
            "type": "object",
            "properties": {"url": {"type": "string", "format": "uri"}},
            "required": ["url"],
        },
    }
    page = '<html><head><title>Mirror</title></head><body><h1>Sync done</h1><p class="lag">4 min</p></body></html>'
    replies, answer = agent_loop(
        "Jakie jest opóźnienie na mirror.example.org/state?", [fetch], lambda n, a: (page, False)
    )
    assert replies[0] == [("fetch", {"url": "https://mirror.example.org/state"})]
    assert "4 min" in answer and "<" not in answer


def test_a_fact_asked_of_a_page_read_before_is_no_new_thing_to_fetch() -> None:
    from agent_core.sim.text import referents

    said = ("Fetch the raw HTML of https://ci.example.com/board", "and tell me the queue length")
    assert referents.resolve(said, (), "en") == said
    said_pl = ("Pobierz https://ci.example.com/board", "i powiedz, jaka jest kolejka")
    assert referents.resolve(said_pl, (), "pl") == said_pl
