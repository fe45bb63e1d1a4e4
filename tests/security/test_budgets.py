"""A class server's budgets live in the database: per learner, per class and per server per day, limits from the
server's configuration, a learner's own cap only ever lower (the spend test against the app is test_class_app.py)."""

from __future__ import annotations

import pg
import pytest

from agent_core.serving.budgets import CLASS, LEARNER, SERVER, SpendLedger
from agent_core.serving.mode import ServerConfig

CONFIG = ServerConfig(mode="class", learner_daily_usd=1.0, class_daily_usd=1.5, server_daily_usd=2.0)


@pytest.fixture(scope="module")
def pg_admin():
    with pg.postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path):
    return tmp_path / "p.db" if request.param == "sqlite" else pg.fresh_database(request.getfixturevalue("pg_admin"))


def test_every_call_counts_for_the_learner_the_class_and_the_server(target):
    ledger = SpendLedger(target)
    ledger.record("ada", "ABC123", 0.40)
    ledger.record("boris", "ABC123", 0.70)
    ada = ledger.allowance("ada", "ABC123", CONFIG)
    assert (ada.binding, round(ada.left_usd, 2)) == (CLASS, 0.40), "the class has 1.50 - 1.10 left"
    assert ledger.spent(LEARNER, "ada") == 0.40 and round(ledger.spent(SERVER), 2) == 1.10
    # Another ledger object (another tab, worker or reload) reads the same figures.
    assert SpendLedger(target).allowance("ada", "ABC123", CONFIG) == ada
    ledger.record("cleo", None, 0.85)
    assert ledger.allowance("dan", None, CONFIG).binding == SERVER
    assert ledger.allowance("dan", None, CONFIG).left_usd < 0.06


def test_a_learner_may_lower_their_cap_but_never_raise_or_remove_it(target):
    ledger = SpendLedger(target)
    assert ledger.set_own_cap("ada", 0.25, CONFIG) == 0.25
    assert ledger.allowance("ada", None, CONFIG).left_usd == 0.25
    assert ledger.set_own_cap("ada", 1000.0, CONFIG) == 1.0
    assert ledger.set_own_cap("ada", None, CONFIG) == 1.0, "no cap means the server's limit, not none"
    assert ledger.set_own_cap("ada", -5, CONFIG) == 0.0
    assert ledger.allowance("ada", None, CONFIG).exhausted


def test_every_call_that_reaches_anthropic_counts_whatever_the_provider_setting(class_mode):
    from agent_core.model import RunConfig
    from lab_ui.serving.classroom import counts_spend

    def config(provider: str, url: str | None = None) -> RunConfig:
        return RunConfig(task="t", provider=provider, base_url=url)

    assert counts_spend(config("anthropic"))
    assert counts_spend(config("compatible", "https://api.anthropic.com")), "the same API by another name"
    assert not counts_spend(config("compatible", "http://ollama.school.example:11434")), "a local server: unpriced"
    assert not counts_spend(config("offline"))
