"""A failed model call is kept as facts (kind, reason, parameters) and explained in the learner's language.

The server's own words are data: kept redacted, shown as inline code in the UI, never as Markdown."""

from __future__ import annotations

import json

import anthropic
import httpx2
import pytest

from agent_core.model import ApiError, Run, RunConfig, StopCause, Turn
from agent_core.vocab import ErrorReason
from agent_core.wire import errors
from lab_ui.words.catalogue import error_markdown, error_text, stop_text
from lab_ui.words.i18n import translate

REQUEST = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")
KEY = "sk-ant-" + "api03-" + "Q" * 40  # split: no key-shaped literal in the repository


def status_error(status: int, message: str) -> anthropic.APIStatusError:
    body = json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": message}})
    response = httpx2.Response(status, request=REQUEST, text=body)
    return anthropic.APIStatusError("failed", response=response, body=None)


def ru(text: str, **values) -> str:
    return translate("ru", text, **values)


def pl(text: str, **values) -> str:
    return translate("pl", text, **values)


def test_a_status_error_is_kept_as_facts_and_its_english_explanation_is_unchanged():
    error = errors.describe_api_error(status_error(529, "Overloaded [see](http://x.example/i.png)"))
    assert error.kind == "status" and error.status == 529 and error.error_type == "overloaded_error"
    assert error.params == {"reason": ErrorReason.STATUS, "detail": "Overloaded [see](http://x.example/i.png)"}
    assert errors.explain(error) == f'{errors.PLAIN[529]} The server said: "Overloaded [see](http://x.example/i.png)"'
    assert errors.PLAIN[529] not in json.dumps(vars(error)), "the record holds the facts, not the sentence"


@pytest.mark.parametrize("tr", [ru, pl])
def test_the_explanation_is_in_the_learners_language_with_the_servers_words_as_data(tr):
    error = errors.describe_api_error(status_error(529, "Overloaded <b>now</b>"))
    words = error_text(error, tr)
    assert errors.PLAIN[529] not in words and tr(errors.PLAIN[529]) in words
    assert "Overloaded <b>now</b>" in words
    shown = error_markdown(error, tr)
    assert "` Overloaded <b>now</b> `" in shown, "the server's words are inline code: no HTML, no link, no image"


@pytest.mark.parametrize(
    ("exc", "reason", "english"),
    [
        (anthropic.APITimeoutError(REQUEST), ErrorReason.TIMEOUT, errors.TIMEOUT),
        (anthropic.APIConnectionError(request=REQUEST), ErrorReason.UNREACHABLE, errors.UNREACHABLE),
    ],
)
def test_timeouts_and_connections_are_explained_in_russian(exc, reason, english):
    error = errors.describe_api_error(exc)
    assert error.params["reason"] == reason and errors.explain(error).startswith(english)
    assert error_text(error, ru).startswith(ru(english)) and ru(english) != english


def test_a_refused_connection_names_its_cause_and_a_key_in_an_exception_is_scrubbed():
    try:
        raise anthropic.APIConnectionError(request=REQUEST) from httpx2.ConnectError("refused", request=REQUEST)
    except anthropic.APIConnectionError as exc:
        error = errors.describe_api_error(exc)
    assert error.params == {"reason": ErrorReason.REFUSED, "exception": "ConnectError"}
    assert error_text(error, pl) == f"{pl(errors.REFUSED)} (ConnectError)"
    other = errors.describe_api_error(ValueError(f"bad header x-api-key: {KEY}"))
    assert other.params["reason"] == ErrorReason.OTHER and KEY not in json.dumps(other.params) + errors.explain(other)
    assert error_text(other, ru).startswith("Запрос не удалось выполнить")


def test_a_run_file_keeps_the_facts_and_an_old_file_keeps_its_sentence():
    run = Run(RunConfig(task="x"))
    run.turns = [Turn(index=1, error=errors.describe_api_error(status_error(404, "model: nope")))]
    loaded = Run.from_dict(json.loads(json.dumps(run.to_dict())))
    assert loaded.turns[0].error == run.turns[0].error
    document = run.to_dict()  # as a v2 file wrote an error from before errors were facts: an English sentence
    document["schema_version"] = 2
    document["run"]["turns"][0]["error"] = {
        "kind": "status",
        "message": "Overloaded, as a v1 file wrote it",
        "status": 529,
    }
    old = Run.from_dict(document).turns[0].error
    assert old is not None and old.params == {"text": "Overloaded, as a v1 file wrote it"}
    assert error_text(old, ru) == "Overloaded, as a v1 file wrote it"
    assert error_markdown(ApiError("status", {"text": "see [x](http://y)"}, status=529), ru) == "see \\[x](http://y)"


def test_the_stop_cause_of_a_failed_run_is_worded_through_the_catalogue():
    run = Run(RunConfig(task="x"))
    run.turns = [Turn(index=1, error=errors.describe_api_error(status_error(529, "busy")))]

    run.stop = StopCause("api_error", {})
    assert stop_text(run, ru) == f"{ru(errors.PLAIN[529])} {ru(errors.SERVER_SAID, detail='«busy»')}"


def test_anthropic_unreachable_speaks_of_the_network_not_of_a_base_url_nobody_set():
    anthropic_request = httpx2.Request("POST", "https://api.anthropic.com/v1/messages")
    try:
        raise anthropic.APIConnectionError(request=anthropic_request) from httpx2.ConnectError(
            "name resolution failed", request=anthropic_request
        )
    except anthropic.APIConnectionError as exc:
        error = errors.describe_api_error(exc)
    english = errors.explain(error)
    assert "base URL" not in english and "api.anthropic.com" in english
    assert error_text(error, ru).startswith(ru(errors.ANTHROPIC_OFFLINE, host="api.anthropic.com"))
    assert "Anthropic" in error_text(error, pl) and "base" not in error_text(error, pl)
