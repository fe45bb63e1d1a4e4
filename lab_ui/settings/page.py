"""The Settings page: provider, base URL, the API key (this tab only), the model list, a connection test, the spend cap."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import anthropic
import streamlit as st

from agent_core.lineup import lineup
from agent_core.model import RunConfig
from agent_core.secrets import env_secrets, scrub_record
from agent_core.serving.mode import is_class_server, server_config
from agent_core.vocab import Provider
from agent_core.wire import errors
from agent_core.wire.errors import describe_api_error
from agent_core.wire.providers import LOCAL_PRESETS, NO_KEY, NO_KEY_HERE, ProviderError, make_client
from lab_ui.controller.click import Level, Notice, show
from lab_ui.controller.session import LabSession
from lab_ui.frame.draw_queue import QUEUE
from lab_ui.serving import classroom
from lab_ui.words.catalogue import error_markdown, provider_label
from lab_ui.words.i18n import mark, money_md, t

CUSTOM = mark("Custom URL")  # an option value, shown through t()
SOURCES = {
    "session": mark("typed on this page, for this tab only"),
    "secrets": ".streamlit/secrets.toml",
    "environment": mark("the ANTHROPIC_API_KEY environment variable"),
}
MAX_MODELS = 500  # a page of ids is plenty for a picker; a server listing more is not worth waiting for
CHECK_TIMEOUT_S = 5.0  # a test of a server that accepts but never answers ends in 5 s, not a minute
_MODELS = "settings:models"  # session_state: (where the list came from, ModelList)
_MODELS_WANTED = "settings:models-wanted"  # session_state: the learner asked for the server's list
_KEY_FIELD = "settings:key"
_CHECK = "settings:check"  # session_state: (where it was tested, ConnectionCheck)
SCOPES = {"learner": mark("yours"), "class": mark("your class's"), "server": mark("this server's")}


@dataclass
class ModelList:
    """Model ids to offer, and where they came from."""

    ids: list[str]
    from_server: bool
    note: str = ""  # why the server's own list is not used


@dataclass
class ConnectionCheck:
    """The plain result of 'Test connection'."""

    level: Level
    message: str
    raw: str | None = None  # the raw error JSON the server sent, scrubbed


# -- logic (no widgets) ------------------------------------------------------------------------
def fetch_model_ids(config: RunConfig, api_key: str | None) -> list[str]:
    """GET /v1/models through the official SDK; raises the SDK's errors or ProviderError."""
    client = make_client(config, lambda exchange: None, api_key=api_key, max_retries=0, timeout=CHECK_TIMEOUT_S)
    ids: list[str] = []
    with QUEUE.released():  # a wait for the network: the others draw meanwhile
        for model in client.models.list(limit=100):
            ids.append(model.id)
            if len(ids) >= MAX_MODELS:
                break
    return ids


def model_list(config: RunConfig, api_key: str | None) -> ModelList:
    """The server's model list where it has one, else the pricing file's models."""
    try:
        ids = fetch_model_ids(config, api_key)
        if ids:
            return ModelList(ids, True)
        note = t("the server lists no models")
    except (anthropic.APIError, ProviderError) as exc:
        note = error_markdown(scrub_record(describe_api_error(exc), [api_key or "", *env_secrets()]), here)
    return ModelList(lineup().served_ids, False, note)


def here(text: str, **values: Any) -> str:
    """An error's words as this page says them: a sentence that sends the learner to the Settings page points at the
    key box below instead (they are on that page already)."""
    if text == NO_KEY:
        return t(
            "No API key: set ANTHROPIC_API_KEY, add it to .streamlit/secrets.toml, or paste it in the API key box below."
        )
    if text == NO_KEY_HERE:
        return t(
            "No API key for you on this class server: its own key is for learners of a class whose teacher allows "
            "it, while the server gives learners a budget. Paste a key of your own in the API key box below, or use the "
            "offline model: it needs no key."
        )
    if text == errors.PLAIN[401]:
        return t("The API key was not accepted (401). Check the key in the API key box below.")
    if text == errors.PLAIN[404]:
        return t("Not found (404): usually an unknown model name or a wrong base URL. Check both on this page.")
    return t(text, **values)


def check_connection(config: RunConfig, api_key: str | None) -> ConnectionCheck:
    """Ask the server for its model list: the cheapest call that proves the URL and the key work."""
    try:
        count = len(fetch_model_ids(config, api_key))
    except anthropic.NotFoundError:
        return ConnectionCheck(
            Level.WARNING,
            t(
                "The server answered, but it has no model list (GET /v1/models: 404). "
                "Type the model name yourself; the key and URL may still be fine."
            ),
        )
    except (anthropic.APIError, ProviderError) as exc:
        # An upstream may echo the key in its error: scrubbed by value before the page shows it.
        error = scrub_record(describe_api_error(exc), [api_key or "", *env_secrets()])
        return ConnectionCheck(Level.ERROR, error_markdown(error, here), error.body)
    return ConnectionCheck(Level.SUCCESS, t("OK: the server answered and lists {n} model(s).", n=count))


# -- widgets ----------------------------------------------------------------------------------
def _provider(cfg: RunConfig) -> None:
    providers: list[Provider] = list(Provider)
    cfg.provider = st.radio(
        t("Provider"),
        providers,
        format_func={p: provider_label(p) for p in Provider}.__getitem__,  # worked out now, in this run's language
        horizontal=True,
        index=providers.index(cfg.provider),
        key="settings:provider",
    )
    if cfg.provider == Provider.OFFLINE:
        cfg.base_url = None
        st.caption(t("No key, no network, no cost: a simulated model that speaks the real Messages API over HTTP."))
    elif cfg.provider == Provider.ANTHROPIC:
        cfg.base_url = None
        st.caption(t("Real Claude at api.anthropic.com. Every step costs real money: set a spend cap below."))
    else:
        _compatible(cfg)


def _match_preset() -> None:
    """A typed URL picks the preset it belongs to, else Custom (a custom URL must not read as "Ollama")."""
    url = (st.session_state.get("settings:base_url") or "").strip().rstrip("/")
    st.session_state["settings:preset"] = next((n for n, (u, _) in LOCAL_PRESETS.items() if u == url), CUSTOM)


def _use_preset() -> None:
    preset = st.session_state["settings:preset"]
    if preset in LOCAL_PRESETS:
        st.session_state["settings:base_url"] = LOCAL_PRESETS[preset][0]


def _compatible(cfg: RunConfig) -> None:
    names = [*LOCAL_PRESETS, CUSTOM]
    start = cfg.base_url or next(iter(LOCAL_PRESETS.values()))[0]  # no URL yet: the first preset's
    current = next((n for n, (url, _) in LOCAL_PRESETS.items() if url == start), CUSTOM)
    preset = st.selectbox(
        t("Server"),
        names,
        index=names.index(current),
        key="settings:preset",
        on_change=_use_preset,
        format_func={**{n: n for n in LOCAL_PRESETS}, CUSTOM: t(CUSTOM)}.__getitem__,
    )
    url = st.text_input(
        t("Base URL"),
        value=start,
        key="settings:base_url",
        on_change=_match_preset,
        help=t("Where the server listens; the SDK adds /v1/messages itself."),
    )
    cfg.base_url = url.strip() or None
    if preset in LOCAL_PRESETS:
        st.info(
            t(
                "**{server}** speaks the Anthropic format, with gaps: {gaps}.",
                server=preset,
                gaps=LOCAL_PRESETS[preset][1],
            )
        )
    with st.expander(t("What each local server leaves out")):
        st.table([{t("server"): n, t("default URL"): url, t("gaps"): gaps} for n, (url, gaps) in LOCAL_PRESETS.items()])


def _use_key(lab: LabSession) -> None:
    typed = (st.session_state.get(_KEY_FIELD) or "").strip()
    st.session_state[_KEY_FIELD] = ""  # the server keeps no copy in the widget either
    if typed:
        lab.api_key = typed
        _forget_results()  # another key may see other models, or fail where the old one worked


def _forget_key(lab: LabSession) -> None:
    lab.api_key = None
    _forget_results()


def _forget_results() -> None:
    st.session_state.pop(_MODELS, None)
    st.session_state.pop(_CHECK, None)


def _key(lab: LabSession) -> None:
    st.subheader(t("API key"))
    source = lab.key_source()
    if source:
        st.success(t("A key is set (from: {source} — {where}).", source=source, where=t(SOURCES[source])))
    elif is_class_server() and classroom.no_budget():
        # "if your teacher allows it" would promise what a 0 USD server never gives.
        st.info(
            t(
                "No key is set for this provider. This class server gives learners none of its own key, so only a "
                "key you paste here reaches a paid model; the offline model needs none."
            )
        )
    elif is_class_server():
        st.info(
            t(
                "No key is set for this provider. This server's own key is used for the Anthropic API only, "
                "and only if your teacher allows it for your class; a key you paste here is yours to use."
            )
        )
    else:
        st.info(t("No key is set. The offline model needs none; local servers usually accept any key."))
    # clear_on_submit: the typed key leaves the widget (and the page) as soon as it is stored in the session.
    with st.form("settings:key-form", clear_on_submit=True, border=False):
        st.text_input(
            t("Paste an API key for this tab only"),
            type="password",
            key=_KEY_FIELD,
            placeholder="sk-ant-…",
            help=t(
                "Kept in this browser tab's session only: never saved to disk, "
                "never logged, never shown again. Closing the tab forgets it."
            ),
        )
        st.form_submit_button(t("Use this key"), key="settings:use-key", on_click=_use_key, args=(lab,))
    if lab.api_key:
        st.button(t("Forget the key typed here"), key="settings:forget-key", on_click=_forget_key, args=(lab,))
    st.caption(t("Order: a key typed here, else ANTHROPIC_API_KEY in .streamlit/secrets.toml, else the environment."))


def _where(lab: LabSession) -> tuple:
    """What a model list or a connection test depends on (the key's source, never the key)."""
    return lab.config.provider, lab.config.base_url, lab.key_source()


def _ask_for_models() -> None:
    st.session_state.pop(_MODELS, None)
    st.session_state[_MODELS_WANTED] = True


def _models(lab: LabSession) -> None:
    cfg = lab.config
    where = _where(lab)
    cached = st.session_state.get(_MODELS)
    wanted = st.session_state.pop(_MODELS_WANTED, False)
    if (cached is None or cached[0] != where) and cfg.provider == Provider.COMPATIBLE and not wanted:
        # A server of the learner's own is asked only on demand: each edit of its URL must not block on it.
        cached = (where, ModelList(lineup().served_ids, False, t("press “Reload the model list” to ask the server")))
    elif cached is None or cached[0] != where:
        with st.spinner(t("Asking the server for its models…")):
            cached = (where, model_list(cfg, lab.resolved_key()))
        st.session_state[_MODELS] = cached
    models = cached[1]
    options = models.ids if cfg.model in models.ids else [cfg.model, *models.ids]
    cfg.model = st.selectbox(
        t("Model"),
        options,
        index=options.index(cfg.model),
        accept_new_options=True,
        key=f"settings:model:{cfg.provider}",
        help=t("Pick one, or type a name the server knows."),
    )
    if models.from_server:
        st.caption(t("{n} model(s) from the server's GET /v1/models.", n=len(models.ids)))
    else:
        st.caption(t("Models from the pricing file: the server's list was not available. {reason}", reason=models.note))


def _connection(lab: LabSession) -> None:
    test, reload = st.columns(2)
    reload.button(t("Reload the model list"), key="settings:reload-models", on_click=_ask_for_models, width="stretch")
    if test.button(t("Test connection"), key="settings:test", type="primary", width="stretch"):
        with st.spinner(t("Calling GET /v1/models…")):
            st.session_state[_CHECK] = (_where(lab), check_connection(copy.deepcopy(lab.config), lab.resolved_key()))
    tested = st.session_state.get(_CHECK)
    if tested is None or tested[0] != _where(lab):
        return  # a result for another provider, URL or key would mislead
    result = tested[1]
    show(Notice(result.level, result.message))
    if result.raw:
        st.caption(t("The raw error JSON the server sent:"))
        st.code(result.raw, language="json")


def _daily_spend() -> None:
    """A class server's spend: the day's limits from the server, a lower cap of the learner's own, what is left."""
    if classroom.no_budget():
        st.info(
            t(
                "This class server gives learners no budget for its own API key (0 USD a day, set by the server). "
                "The offline model works without a key, and so does a key of your own pasted above: it is your "
                "money, so the server does not count it."
            )
        )
        return
    limit = server_config().learner_daily_usd
    own = classroom.own_cap()
    cap = st.number_input(
        t("Your cap for today, USD (at most {limit}, set by this server)", limit=f"{limit:.2f}"),
        0.0,
        limit,
        step=0.10,
        format="%.2f",
        value=min(limit, own if own is not None else limit),
        key="settings:daily-cap",
    )
    if own is None or abs(cap - own) > 1e-9:
        classroom.set_own_cap(cap)
    left = classroom.allowance()
    st.caption(
        t(
            "On this class server spending is counted per learner, per class and for the whole server, per day "
            "(UTC), in its database: a reload or a new tab changes nothing. Left for you today: **{left}** "
            "(the tightest limit: {scope}, {spent} of {limit} spent).",
            left=money_md(left.left_usd, 4),
            scope=t(SCOPES[left.binding]),
            spent=money_md(left.spent_usd, 4),
            limit=money_md(left.limit_usd, 2),
        )
    )


def _spend(lab: LabSession) -> None:
    st.subheader(t("Spend cap"))
    if is_class_server():
        _daily_spend()
        return
    cap = st.number_input(
        t("Spend cap for this tab, USD (0 = no cap)"),
        0.0,
        1000.0,
        step=0.10,
        format="%.2f",
        value=float(lab.spend_cap_usd or 0.0),
        key="settings:cap",
    )
    lab.spend_cap_usd = float(cap) or None
    st.caption(
        t(
            "Spent so far in this tab on Anthropic API calls: **{spent}**. Before each step the Playground shows "
            "what it may cost; the loop stops when the tab's spend reaches the cap. The offline model and local "
            "servers cost nothing, so the cap never stops them: the offline model's costs are Anthropic's list "
            "prices, simulated; a local or unknown server's runs show tokens only (no price).",
            spent=money_md(lab.session_spend_usd, 4),
        )
    )


def _mode() -> None:
    """Which of the two modes this server is in, and what that means for the learner."""
    if is_class_server():
        st.info(
            t(
                "This server runs in **class-server mode**: your runs are yours alone unless you share them, "
                "the server's key goes to Anthropic's API only, private and local addresses are refused, and "
                "spending has daily limits."
            )
        )
    else:
        st.caption(t("This server runs in **personal mode**: any server, your own key, your own files."))


def render(lab: LabSession) -> None:
    """The whole Settings page for this tab."""
    st.title(t("Settings"))
    _mode()
    st.caption(t("Everything here applies to this browser tab only, and to the next run (Reset in the Playground)."))
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader(t("Model provider"))
        _provider(lab.config)
        _models(lab)
        _connection(lab)
    with right:
        _key(lab)
        _spend(lab)
