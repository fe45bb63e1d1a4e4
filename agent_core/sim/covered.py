"""A clause no tool served that only restates what the calls made for the turn's other clauses covered ('..., но ещё
не добавил в индекс' after git_diff_unstaged, 'what's in a1b2c3d?' after git_show(revision='a1b2c3d')): it gets no
line of its own, so the answer does not add the offline model's no-knowledge note after the results it gave."""

from __future__ import annotations

from agent_core.sim import knowledge
from agent_core.sim.text import backrefs, meaning
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need


def served_elsewhere(need: Need, needs: list[Need]) -> bool:
    """True when every content word of the need's clause is a word or a concept of a call this turn made and
    answered for another need (its clause, its input, its tool's name and description)."""
    done = [n for n in needs if n is not need and n.state == "done" and n.tool is not None and n.result is not None]
    if need.state != "no_tool" or need.tool is not None or need.derived is not None or not done:
        return False  # a difference worked out in the head from the results is a line of its own
    if need.intent not in ("search", "tool"):
        return False
    if _asks_of_result(need, needs):
        return True
    words = meaning.content_stems(need.clause)
    covered: set[str] = set()
    served: set[str] = set()
    for other in done:
        tool = other.tool_def
        text = " ".join([other.clause, str(tool.get("name", "")).replace("_", " "), str(tool.get("description", ""))])
        sent = other.result.input if other.result else {}
        text += " " + " ".join(f"{k.replace('_', ' ')} {v}" for k, v in sent.items())
        covered |= meaning.content_stems(text)
        served |= meaning.concepts(text)
    left = [w for w in words if not any(w == c or lx.stems_match(w, c) for c in covered)]
    if not left:
        return True
    found = meaning.concepts(" ".join(left))
    return bool(found) and found <= served


def _asks_of_result(need: Need, needs: list[Need]) -> bool:
    """'Посмотри логи и скажи, что сломалось', 'Check the log and tell me what broke': a clause that only asks to be
    told something (a telling verb leads it, or ends the clause before: 'Sprawdź logi i powiedz, | co się
    zepsuło'), with no value of its own, after a clause whose call read it: the question is asked of that result (the
    line told from it reads the whole question), not of what the offline model knows. A fact the knowledge table
    holds ('... and tell me the capital of France') keeps its own line."""
    telling = lx.lexicon()["telling_verbs"]
    at = next(i for i, n in enumerate(needs) if n is need)
    before = lx.words(needs[at - 1].clause)[-1:] if at else []
    told = lx.hits(lx.words(need.clause)[:3], telling) or lx.hits(before, telling)
    if not told or backrefs.names_own_value(need.clause):
        return False
    return not knowledge.answer(need.clause, "en")
