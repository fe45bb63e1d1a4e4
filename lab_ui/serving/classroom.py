"""What the controller asks of the server's mode: whose runs these are, which key a call may use, what is left to
spend. On a personal server every answer is today's (the person's runs, any key, the tab's own cap)."""

from __future__ import annotations

from agent_core.model import RunConfig
from agent_core.serving import mode as serving
from agent_core.serving.budgets import Allowance, SpendLedger
from agent_core.teaching.classes import ClassStore
from agent_core.tools.own_code import OwnCode
from agent_core.tools.user_code import can_confine
from agent_core.vocab import Provider
from agent_core.wire.providers import bills_as_anthropic
from lab_ui.serving import who


def run_owner() -> str | None:
    """The owner a session's run store writes as: the learner on a class server, nobody on a personal one."""
    return who.learner_id() if serving.is_class_server() else None


def server_key_for(config: RunConfig) -> bool:
    """Whether a call with this config may use the server's own key (personal server: yes, as before; class
    server: only to Anthropic's API, and only for a learner their teacher allows it)."""
    if not serving.is_class_server():
        return True
    return config.provider == Provider.ANTHROPIC and not no_budget() and who.may_use_server_key()


def teacher_allows_own_code() -> bool:
    """On a class server: whether a class this browser joined or teaches lets its learners run their own code."""
    store = ClassStore()
    return any(store.own_code_on(code) for code in (who.my_class(), *who.teaches()) if code)


def own_code() -> OwnCode:
    """Whether a tool's own code may run for this session: in personal mode yes; on a class server only if the
    teacher allows it and this machine can shut the code in (then it always is)."""
    if not serving.is_class_server():
        return OwnCode.RUN
    return OwnCode.CONFINED if teacher_allows_own_code() and can_confine() else OwnCode.OFF


def no_budget() -> bool:
    """On a class server: its configuration gives this learner $0 a day on its key (the learner's, their class's
    or the whole server's limit is 0), so learners are kept off the key; the offline model and a key of their own
    still work."""
    config = serving.server_config()
    if not config.is_class:
        return False
    limits = [config.learner_daily_usd, config.server_daily_usd]
    if who.my_class() is not None:
        limits.append(config.class_daily_usd)
    return min(limits) <= 0


def counts_spend(config: RunConfig, own_key: bool = False) -> bool:
    """Whether this config's calls are billed against the class server's daily limits: every call on the server's
    key that reaches Anthropic's API, whatever the provider setting says (a key the learner typed is their own
    money, not the server's)."""
    return serving.is_class_server() and not own_key and bills_as_anthropic(config)


def allowance() -> Allowance:
    """What this learner may still spend today (the tightest of their, their class's and the server's limits)."""
    return SpendLedger().allowance(who.learner_id(), who.my_class())


def record_spend(usd: float) -> None:
    """A billed call's cost, counted for this learner, their class and the server (nothing for a zero cost)."""
    if usd > 0:
        SpendLedger().record(who.learner_id(), who.my_class(), usd)


def own_cap() -> float | None:
    return SpendLedger().own_cap(who.learner_id())


def set_own_cap(usd: float | None) -> float:
    """Lower (or restore) this learner's own daily cap; never above the server's limit."""
    return SpendLedger().set_own_cap(who.learner_id(), usd)
