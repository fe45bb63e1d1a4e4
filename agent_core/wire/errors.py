"""Failed model calls as facts (a kind, a reason and parameters) and their plain-words explanation.

The English sentences below are also the translation catalogue's keys: lab_ui.words.catalogue passes `explain` the tab's
translate function (and lists these texts for tests/test_i18n.py); the command line uses the English. A record holds
the facts only (ApiError.params)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2

from agent_core.model import ApiError
from agent_core.secrets import scrub_secrets
from agent_core.serving.url_guard import AddressRefused
from agent_core.vocab import ApiErrorKind, ErrorReason
from agent_core.wire.providers import NOT_SET_UP, NoAnswer, ProviderError

PLAIN = {
    400: "The API rejected the request as invalid (400): it breaks one of the API's rules.",
    401: "The API key was not accepted (401). Check the key on the Settings page.",
    402: "Billing problem (402): the account cannot pay for this request.",
    403: "This key is not allowed to do that (403): it has no permission for this model or feature.",
    404: "Not found (404): usually an unknown model name or a wrong base URL. Check both on the Settings page.",
    409: "Conflict (409): try again.",
    413: "The request is too large (413): the history or a tool result is too big. Start a shorter run, "
    "or clear old tool results with a context policy.",
    429: "Rate limited (429): too many requests; wait a moment and retry this step.",
    500: "The server had an internal error (500). It is not your fault; retry this step.",
    504: "The server timed out (504); retry this step.",
    529: "The API is overloaded (529): too many requests everywhere right now; wait a moment and retry this step.",
}
OTHER_STATUS = "The server answered with HTTP {status}."
SERVER_SAID = "The server said: {detail}"
TIMEOUT = "The request timed out: no answer from the server in time. Retry this step."
# A timeout with the facts it happened with (ApiError.params: url, seconds); lab_ui words them in the tab's language.
NO_CONNECTION_IN = (
    "The server at {url} did not accept a connection within {seconds} s. Is the base URL right, "
    "and is the server running on a machine this one can reach?"
)
NO_ANSWER_IN = (
    "The server at {url} did not answer within {seconds} s. It accepted the connection, so something listens "
    "there, but no reply came: the server is stuck, or its model needs longer (a smaller max_tokens helps)."
)
REFUSED = (
    "Could not connect: nothing answered at the base URL (connection refused). Is the server running, "
    "and is the base URL right?"
)
DROPPED = "The server closed the connection without answering (connection dropped). Retry this step."
UNREACHABLE = "Could not reach the server. Is it running, and is the base URL right?"
NOT_UTF8 = (
    "The request holds text that is not valid Unicode (a lone surrogate: half of an emoji, such as \\ud83d), "
    "so it cannot be sent as UTF-8. Nothing was sent; edit the task or the text that carried it."
)
OTHER = "The request could not be made: {detail}"
# A class server's refusals (agent_core/serving/url_guard.py): the reason is a fact, its words are here.
ADDRESS_REFUSED = "This class server does not connect to {host}: {why}. Nothing was sent."
WHY = {
    "loopback": "it is the server itself (loopback)",
    "link_local": "it is a link-local address, where cloud metadata services live",
    "not_a_server": "it is not the address of a server",
    "private": "it is on a private network; your teacher can allowlist the school's own server",
    "server_key": "the server's own key is sent to Anthropic's API only",
}
NOT_API = (
    "The server at {url} answered ({what}), but not with a Messages API reply. Is the base URL the server's "
    "root (the SDK adds /v1/messages itself), and does the server speak the Anthropic format?"
)
# The Anthropic provider has no base URL to blame: the learner never set one.
ANTHROPIC_OFFLINE = (
    "Could not reach Anthropic's API at {host}. Is this machine online (no proxy or firewall in the way)? "
    "The simulated model works with no network at all: pick it on the Settings page."
)
ANTHROPIC_HOST = "api.anthropic.com"
CONNECTION = {ErrorReason.REFUSED: REFUSED, ErrorReason.DROPPED: DROPPED, ErrorReason.UNREACHABLE: UNREACHABLE}
FIXED = {ErrorReason.TIMEOUT: TIMEOUT, ErrorReason.NOT_UTF8: NOT_UTF8}
# Every sentence above, for the catalogue's check that each has a Russian and a Polish translation.
TEXTS = (
    *PLAIN.values(),
    OTHER_STATUS,
    SERVER_SAID,
    NO_CONNECTION_IN,
    NO_ANSWER_IN,
    *CONNECTION.values(),
    ANTHROPIC_OFFLINE,
    *FIXED.values(),
    OTHER,
    *NOT_SET_UP,
    ADDRESS_REFUSED,
    *WHY.values(),
    NOT_API,
)

Translate = Callable[..., str]


def _english(text: str, **values: Any) -> str:
    return text.format(**values) if values else text


def _quoted(detail: str) -> str:
    return f'"{detail}"'


def explain(error: ApiError, tr: Translate = _english, quote: Callable[[str], str] = _quoted) -> str:
    """The error in plain words through `tr`; `quote` marks the server's (or the exception's) own words."""
    p = error.params
    reason = p.get("reason")
    if error.kind == ApiErrorKind.TIMEOUT and "url" in p and "seconds" in p:
        template = NO_CONNECTION_IN if p.get("connecting") else NO_ANSWER_IN
        return tr(template, url=p["url"], seconds=p["seconds"])
    if reason == ErrorReason.STATUS:
        plain = PLAIN.get(error.status or 0)
        words = tr(plain) if plain else tr(OTHER_STATUS, status=error.status)
        detail = p.get("detail")
        return f"{words} {tr(SERVER_SAID, detail=quote(str(detail)))}" if detail else words
    if reason in CONNECTION and p.get("host") == ANTHROPIC_HOST and reason != ErrorReason.DROPPED:
        return f"{tr(ANTHROPIC_OFFLINE, host=ANTHROPIC_HOST)} ({p.get('exception', '')})"
    if reason in CONNECTION:
        return f"{tr(CONNECTION[reason])} ({p.get('exception', '')})"
    if reason in FIXED:
        return tr(FIXED[reason])
    if reason == ErrorReason.OTHER:
        return tr(OTHER, detail=quote(str(p.get("detail", ""))))
    if reason == ErrorReason.NOT_SET_UP and p.get("why") in NOT_SET_UP:
        return tr(p["why"])
    if reason == ErrorReason.ADDRESS_REFUSED and p.get("why") in WHY:
        return tr(ADDRESS_REFUSED, host=quote(str(p.get("host", ""))), why=tr(WHY[p["why"]]))
    if reason == ErrorReason.NOT_API:
        return tr(NOT_API, url=p.get("url", ""), what=p.get("what", ""))
    return str(p.get("text", ""))  # a run file from before errors were kept as facts: its English sentence


def _error(
    kind: ApiErrorKind, reason: str, status: int | None = None, body: str | None = None, **params: Any
) -> ApiError:
    error_type = params.pop("error_type", None)
    return ApiError(kind, {"reason": reason, **params}, status=status, error_type=error_type, body=body)


def describe_api_error(exc: Exception) -> ApiError:
    """Turn an SDK exception into an ApiError: its facts, an English explanation and the raw (scrubbed) error JSON."""
    if isinstance(exc, anthropic.APIStatusError):
        body = scrub_secrets(exc.response.text or "")
        error_type, detail = None, ""
        try:
            error = json.loads(body).get("error", {})
            error_type, detail = error.get("type"), error.get("message", "")
        except (ValueError, AttributeError):
            pass
        extra = {"detail": str(detail)} if detail else {}
        return _error(ApiErrorKind.STATUS, ErrorReason.STATUS, exc.status_code, body, error_type=error_type, **extra)
    if isinstance(exc, NoAnswer):
        return _timed_out(exc.request, exc.connecting)
    if isinstance(exc, AddressRefused):
        return _error(ApiErrorKind.INVALID_CONFIG, ErrorReason.ADDRESS_REFUSED, host=exc.host, why=exc.reason)
    if isinstance(exc, NotMessagesApi):
        return _error(ApiErrorKind.STATUS, ErrorReason.NOT_API, exc.status, url=_origin(exc.request), what=exc.what)
    if isinstance(exc, anthropic.APITimeoutError):
        return _timed_out(exc.request, isinstance(exc.__cause__, httpx2.ConnectTimeout))
    if isinstance(exc, anthropic.APIConnectionError):
        exception = type(exc.__cause__ or exc).__name__
        host = getattr(getattr(exc, "request", None), "url", None)
        where = {"host": host.host} if host is not None and host.host == ANTHROPIC_HOST else {}
        return _error(ApiErrorKind.CONNECTION, _connection_reason(exc.__cause__), exception=exception, **where)
    if isinstance(exc, ProviderError) and str(exc) in NOT_SET_UP:
        return _error(ApiErrorKind.INVALID_CONFIG, ErrorReason.NOT_SET_UP, why=str(exc))
    if isinstance(exc, UnicodeEncodeError):
        return _error(ApiErrorKind.INVALID_CONFIG, ErrorReason.NOT_UTF8)
    return _error(ApiErrorKind.INVALID_CONFIG, ErrorReason.OTHER, detail=scrub_secrets(str(exc)))


def _timed_out(request: httpx2.Request | None, connecting: bool) -> ApiError:
    """Which server did not answer, and within how many seconds (the attempt's own timeout)."""
    limits = request.extensions.get("timeout", {}) if request is not None else {}
    seconds = limits.get("connect" if connecting else "read")
    if request is None or not isinstance(seconds, (int, float)):
        return _error(ApiErrorKind.TIMEOUT, ErrorReason.TIMEOUT)
    return _error(
        ApiErrorKind.TIMEOUT, ErrorReason.TIMEOUT, url=_origin(request), seconds=f"{seconds:g}", connecting=connecting
    )


def _origin(request: httpx2.Request) -> str:
    # Scheme, host and port only: a path says nothing here, and user:password@ in a URL must not be shown.
    url = request.url
    return f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")


class NotMessagesApi(anthropic.APIError):
    """A 2xx answer that is not a Messages API reply (an HTML page, some other JSON): said plainly, never parsed."""

    def __init__(self, request: httpx2.Request, status: int, what: str) -> None:
        super().__init__("The server's answer is not a Messages API reply.", request, body=None)
        self.status, self.what = status, what


def check_message(message: Any, response: httpx2.Response) -> None:
    """Raise NotMessagesApi unless the SDK parsed a real message (it hands back text for a non-JSON body, and
    builds a Message from any JSON object without checking it)."""
    if (
        isinstance(message, anthropic.types.Message)
        and getattr(message, "type", None) == "message"
        and getattr(message, "role", None) == "assistant"
        and isinstance(getattr(message, "content", None), list)
    ):
        return
    kind = (response.headers.get("content-type") or "no content type").split(";")[0].strip()[:60]
    what = f"HTTP {response.status_code}, {kind}, {len(response.content)} bytes"
    raise NotMessagesApi(response.request, response.status_code, what)


def _connection_reason(cause: BaseException | None) -> ErrorReason:
    # A refused connection and a dropped one need different fixes: start the server vs. just retry.
    if isinstance(cause, httpx2.ConnectError):
        return ErrorReason.REFUSED
    if isinstance(cause, (httpx2.RemoteProtocolError, httpx2.ReadError)):
        return ErrorReason.DROPPED
    return ErrorReason.UNREACHABLE
