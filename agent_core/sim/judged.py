"""Output fields a model judges from the text's meaning: flags, sentiment scores, risk levels, scored categories."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim.kinds import name_words
from agent_core.sim.text import language as lx

# A thing refused after its word: '<demo> не нужна', '<prezentacji> nie potrzebuje', '<demo> is not needed', with a
# word for when between them ('<демо> пока не нужно', '<demo> is still not needed', '<prezentacji> na razie nie chce').
_NEEDED_NOT = re.compile(
    r"^\w*[\s,]+(?:is\s+|are\s+)?(?:\w+\s+){0,2}?(?:не|nie|not)\s+(?:нуж|потреб|potrzeb|need|requir|want|chc|хоч)"
)
_NEGATION = re.compile(r"(?:\bnot\b|n't\b|\bno\b|\bwithout\b|\bnever\b|\bне\b|\bнет\b|\bбез\b|\bnie\b|\bbez\b)", re.I)


@cache
def _words_of(name: str) -> Any:
    return lx.load("judging")[name]


def flag(text: str, pname: str) -> bool:
    """True when the text asks for what the flag names, and does not say it does not."""
    words = [
        w for w in name_words(pname) if w not in ("is", "has", "requested", "request", "wants", "needed", "need", "to")
    ]
    acts = [w for w in words if w in _words_of("flag_words")]
    # 'block_card': the verb decides; the card named in "change my card's PIN" is its object, no reason to block.
    words = acts or words
    triggers = [t for w in words for t in _words_of("flag_words").get(w, [])] + [w for w in words if len(w) > 3]
    folded = lx.fold(text)
    for trigger in triggers:
        for match in re.finditer(rf"(?<![\w]){re.escape(lx.fold(trigger))}", folded):
            before = folded[max(0, match.start() - 40) : match.start()]
            if _NEEDED_NOT.match(folded[match.end() : match.end() + 40]):
                continue  # 'демонстрация не нужна', 'prezentacji nie potrzebuje': refused after its word
            if not _NEGATION.search(before.split(".")[-1].split(",")[-1] if "," in before else before.split(".")[-1]):
                return True
    return False


def sentiment(text: str, pname: str) -> float:
    """A 0-1 score from the text's good and bad words (positive, negative, the rest neutral)."""
    tokens = lx.words(text)
    good, bad = len(lx.hits(tokens, _words_of("positive"))), len(lx.hits(tokens, _words_of("negative")))
    if not good and not bad:
        return 0.8 if "neutral" in pname else 0.1
    positive, negative = round(0.9 * good / (good + bad), 2), round(0.9 * bad / (good + bad), 2)
    if "positive" in pname:
        return positive
    if "negative" in pname:
        return negative
    return round(max(0.0, 1.0 - positive - negative), 2)


def risk(text: str) -> int:
    """A 0-10 risk level: a lost or stolen card, fraud, is high; a question about a balance is low."""
    return 8 if lx.hits(lx.words(text), _words_of("risky")) else 1


def categories(text: str) -> list[dict[str, Any]]:
    """The categories the prompt lists, scored by the words of the text (the best first)."""
    listed = re.search(r"categor\w*[^:\n]*:\s*([^\n.]+)", text, re.I)
    names = [n.strip(" '\"") for n in re.split(r",|\bor\b|\band\b", listed.group(1))] if listed else []
    names = [n for n in names if n] or [k.title() for k in _words_of("categories")]
    tokens = lx.words(text.split(":", 1)[0] if listed else text)
    scored = []
    for name in names:
        words = _words_of("categories").get(lx.fold(name), [lx.fold(name)])
        scored.append((len(lx.hits(tokens, words)), name))
    best = max(scored)[0] if scored else 0
    return [{"name": n, "score": 0.9 if s == best and s else 0.1} for s, n in sorted(scored, key=lambda p: -p[0])]
