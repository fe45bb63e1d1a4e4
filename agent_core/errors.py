"""Plain-words explanations of failed model calls (status errors, timeouts, refused connections)."""

from __future__ import annotations

import json

import anthropic
import httpx2

from agent_core.model import ApiError
from agent_core.providers import NoAnswer
from agent_core.secrets import scrub_secrets

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


def describe_api_error(exc: Exception) -> ApiError:
    """Turn an SDK exception into an ApiError with a plain message and the raw (scrubbed) error JSON."""
    if isinstance(exc, anthropic.APIStatusError):
        body = scrub_secrets(exc.response.text or "")
        error_type, detail = None, ""
        try:
            error = json.loads(body).get("error", {})
            error_type, detail = error.get("type"), error.get("message", "")
        except (ValueError, AttributeError):
            pass
        plain = PLAIN.get(exc.status_code, f"The server answered with HTTP {exc.status_code}.")
        message = f'{plain} The server said: "{detail}"' if detail else plain
        return ApiError("status", message, exc.status_code, error_type, body)
    if isinstance(exc, NoAnswer):
        return _timed_out(exc.request, exc.connecting)
    if isinstance(exc, anthropic.APITimeoutError):
        return _timed_out(exc.request, isinstance(exc.__cause__, httpx2.ConnectTimeout))
    if isinstance(exc, anthropic.APIConnectionError):
        return ApiError("connection", f"{_connection_words(exc.__cause__)} ({type(exc.__cause__ or exc).__name__})")
    if isinstance(exc, UnicodeEncodeError):
        return ApiError("invalid_config", NOT_UTF8)
    return ApiError("invalid_config", scrub_secrets(str(exc)))


def _timed_out(request: httpx2.Request | None, connecting: bool) -> ApiError:
    """Which server did not answer, and within how many seconds (the attempt's own timeout)."""
    limits = request.extensions.get("timeout", {}) if request is not None else {}
    seconds = limits.get("connect" if connecting else "read")
    if request is None or not isinstance(seconds, (int, float)):
        return ApiError("timeout", TIMEOUT)
    url = request.url
    # Scheme, host and port only: a path says nothing here, and user:password@ in a URL must not be shown.
    origin = f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")
    params = {"url": origin, "seconds": f"{seconds:g}", "connecting": connecting}
    template = NO_CONNECTION_IN if connecting else NO_ANSWER_IN
    return ApiError("timeout", template.format(**params), params=params)


def _connection_words(cause: BaseException | None) -> str:
    # A refused connection and a dropped one need different fixes: start the server vs. just retry.
    if isinstance(cause, httpx2.ConnectError):
        return REFUSED
    if isinstance(cause, (httpx2.RemoteProtocolError, httpx2.ReadError)):
        return DROPPED
    return UNREACHABLE
