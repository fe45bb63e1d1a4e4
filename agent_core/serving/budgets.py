"""A class server's spend, held in the database: per learner, per class and for the whole server, per UTC day.

The limits are the server's configuration (agent_core/serving/mode.py: AGENT_LOOP_LAB_LEARNER_DAILY_USD, _CLASS_, and
_SERVER_); a learner may set a lower cap of their own, never a higher one. Every billed call is added as it is
made, so a reload, a second tab or another provider changes nothing: the next call asks the database what is left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from agent_core.serving.mode import ServerConfig, server_config
from agent_core.teaching.progress import ProgressTables

LEARNER, CLASS, SERVER = "learner", "class", "server"  # the scopes a day's spend is kept for
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS spend (
        day TEXT NOT NULL, scope TEXT NOT NULL, who TEXT NOT NULL, usd REAL NOT NULL, calls INTEGER NOT NULL,
        PRIMARY KEY (day, scope, who))""",
    "CREATE TABLE IF NOT EXISTS learner_caps (learner TEXT PRIMARY KEY, usd REAL NOT NULL)",
)


def today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


@dataclass(frozen=True)
class Allowance:
    """What a learner may still spend today, and which limit is the tightest."""

    left_usd: float
    binding: str  # LEARNER (their limit or their own cap), CLASS or SERVER
    limit_usd: float  # the binding limit
    spent_usd: float  # spent today under the binding limit

    @property
    def exhausted(self) -> bool:
        return self.left_usd <= 0


class SpendLedger(ProgressTables):
    """The day's spend per scope, in the progress database (beside the classes it is counted for)."""

    SCHEMA = SCHEMA

    def record(self, learner: str, class_code: str | None, usd: float) -> None:
        """One billed call's cost, added to the learner's, their class's and the server's day in one transaction."""
        day, usd = today(), max(0.0, float(usd))
        rows = [(day, LEARNER, learner), (day, SERVER, "")] + ([(day, CLASS, class_code)] if class_code else [])
        with self._connect() as conn:
            for key in rows:
                conn.execute(
                    "INSERT INTO spend VALUES (?, ?, ?, ?, 1) ON CONFLICT (day, scope, who) "
                    "DO UPDATE SET usd = spend.usd + excluded.usd, calls = spend.calls + 1",
                    (*key, usd),
                )

    def spent(self, scope: str, who: str = "", day: str | None = None) -> float:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT usd FROM spend WHERE day = ? AND scope = ? AND who = ?", (day or today(), scope, who)
            ).fetchone()
        return float(row[0]) if row else 0.0

    def own_cap(self, learner: str) -> float | None:
        """The lower cap a learner set for themselves (None: the server's limit)."""
        with self._connect() as conn:
            row = conn.execute("SELECT usd FROM learner_caps WHERE learner = ?", (learner,)).fetchone()
        return float(row[0]) if row else None

    def set_own_cap(self, learner: str, usd: float | None, config: ServerConfig | None = None) -> float:
        """Set a learner's own daily cap, at most the server's limit (a higher or missing value is the limit)."""
        limit = (config or server_config()).learner_daily_usd
        cap = limit if usd is None else min(max(0.0, float(usd)), limit)
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO learner_caps VALUES (?, ?) ON CONFLICT (learner) DO UPDATE SET usd = excluded.usd",
                (learner, cap),
            )
        return cap

    def allowance(self, learner: str, class_code: str | None, config: ServerConfig | None = None) -> Allowance:
        """What the learner may still spend today: the least of what every limit over them has left."""
        config = config or server_config()
        own = self.own_cap(learner)
        learner_limit = config.learner_daily_usd if own is None else min(own, config.learner_daily_usd)
        limits = [
            (LEARNER, learner_limit, self.spent(LEARNER, learner)),
            (SERVER, config.server_daily_usd, self.spent(SERVER)),
        ]
        if class_code:
            limits.append((CLASS, config.class_daily_usd, self.spent(CLASS, class_code)))
        scope, limit, spent = min(limits, key=lambda item: item[1] - item[2])
        return Allowance(max(0.0, limit - spent), scope, limit, spent)
