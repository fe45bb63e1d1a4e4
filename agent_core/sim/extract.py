"""Structured values by meaning: what fills an output schema's fields that no tool argument rule does — flags
('demo_requested' from 'wants a demo', not from 'doesn't need a demo'), scores (sentiment, risk), categories,
things the model knows (a banana is a yellow fruit, the 2012 Olympics were in London), a name next to its word
('the Enterprise plan'), and a value a result gave under the field's own name."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agent_core.sim import kinds, measures
from agent_core.sim.text import entities, facts, names
from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import View

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# A thing refused after its word: '<demo> не нужна', '<prezentacji> nie potrzebuje', '<demo> is not needed'.
_NEEDED_NOT = re.compile(r"^\w*[\s,]+(?:is\s+|are\s+)?(?:не|nie|not)\s+(?:нуж|потреб|potrzeb|need|requir|want|chc|хоч)")
_NEGATION = re.compile(r"(?:\bnot\b|n't\b|\bno\b|\bwithout\b|\bnever\b|\bне\b|\bнет\b|\bбез\b|\bnie\b|\bbez\b)", re.I)
_POSITIVE = [
    "good",
    "great",
    "love",
    "loved",
    "incredible",
    "amazing",
    "excellent",
    "wonderful",
    "okay",
    "fine",
    "happy",
    "best",
    "fantastic",
    "perfect",
    "хорош",
    "отличн",
    "прекрасн",
    "замечательн",
    "люблю",
    "понравил",
    "супер",
    "dobr",
    "świetn",
    "wspaniał",
    "doskonał",
    "super",
    "kocham",
    "podoba",
]
_NEGATIVE = [
    "bad",
    "terrible",
    "awful",
    "hate",
    "worst",
    "horrible",
    "won't",
    "never",
    "poor",
    "broken",
    "late",
    "lost",
    "плох",
    "ужасн",
    "отвратительн",
    "ненавиж",
    "худш",
    "опоздал",
    "потерял",
    "сломал",
    "zł",
    "okropn",
    "beznadziejn",
    "fataln",
    "spóźnił",
    "zgubił",
    "nienawidz",
    "najgorsz",
]
# Words that say a flag is on, beyond its own name: a lost card is a card to block.
_FLAG_WORDS = {
    "block": [
        "lost",
        "stolen",
        "stole",
        "ukradl",
        "ukradł",
        "theft",
        "fraud",
        "hacked",
        "украл",
        "потерял",
        "кража",
        "мошенн",
        "zgubił",
        "ukradzion",
        "skradzion",
        "kradzież",
        "oszust",
    ],
    "demo": [
        "demo",
        "demonstration",
        "presentation",
        "walkthrough",
        "демо",
        "показ",
        "презентац",
        "prezentacj",
        "pokaz",
    ],
    "urgent": ["urgent", "asap", "immediately", "срочн", "pilne", "natychmiast"],
}
_RISKY = [
    "lost",
    "stolen",
    "stole",
    "ukradl",
    "ukradł",
    "theft",
    "fraud",
    "hack",
    "украл",
    "потерял",
    "кража",
    "мошенн",
    "zgubił",
    "ukradzion",
    "skradzion",
    "kradzież",
    "oszust",
]
_CATEGORY_WORDS = {
    "technology": [
        "tech",
        "quantum",
        "computer",
        "software",
        "ai",
        "digital",
        "internet",
        "технолог",
        "компьютер",
        "technolog",
        "komputer",
    ],
    "politics": [
        "election",
        "government",
        "minister",
        "president",
        "parliament",
        "выбор",
        "правительств",
        "wybor",
        "rząd",
        "sejm",
    ],
    "sports": ["match", "football", "team", "goal", "championship", "матч", "футбол", "команд", "mecz", "piłk"],
    "business": ["market", "company", "stock", "profit", "revenue", "economy", "рынок", "компани", "rynek", "firma"],
    "entertainment": ["film", "movie", "music", "celebrity", "show", "фильм", "музык", "muzyk", "gwiazd"],
}


# Free-text properties of an output: what the model would say in its answer goes there.
_TEXTY = (
    "text",
    "message",
    "answer",
    "response",
    "reply",
    "advice",
    "summary",
    "content",
    "explanation",
    "output",
    "result",
    "comment",
    "note",
    "body",
    "greeting",
)


def texty(pname: str, prop: dict[str, Any]) -> bool:
    """A free-text property that carries what the model says."""
    if prop.get("type") not in (None, "string") or prop.get("enum") or prop.get("format"):
        return False
    words = lx.words(re.sub(r"[_\-]+", " ", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", pname)))
    return any(w in _TEXTY or w.rstrip("s") in _TEXTY for w in words)


def _words(name: str) -> list[str]:
    return lx.words(re.sub(r"[_\-]+", " ", _CAMEL.sub(" ", name)))


@cache
def _table() -> dict[str, Any]:
    return lx.load("knowledge")


def thing(question: str) -> dict[str, Any] | None:
    """What the small knowledge table knows of the question's subject (a fruit, a vehicle, an event, a recipe)."""
    tokens = lx.words(question)
    for entry in _table()["things"]:
        if all(any(t.startswith(lx.fold(w)) for t in tokens for w in group) for group in entry["match"]):
            return dict(entry)
    from agent_core.sim.knowledge import place_thing  # a capital asked for, a city named: its country too

    return place_thing(question)


def _known(entry: dict[str, Any] | None, pname: str, lang: str) -> Any:
    if not entry:
        return None
    found = entry["values"].get(pname)
    return _in_lang(found, lang) if found is not None else None


def _in_lang(value: Any, lang: str) -> Any:
    if isinstance(value, dict) and set(value) >= {"en", "ru", "pl"}:
        return value[lang]
    if isinstance(value, dict):
        return {k: _in_lang(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_lang(v, lang) for v in value]
    return value


def complete(
    view: View, schema: dict[str, Any], found: dict[str, Any], answer: str, key: str, missing: list[str] | None = None
) -> dict[str, Any]:
    """Every property of an output schema: what the arguments rules found, else by meaning, else by type (those
    go into missing)."""
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    subject = thing(view.question)
    out: dict[str, Any] = {}
    for pname, prop in props.items():
        prop = _resolved(prop)
        value: Any = answer if texty(pname, prop) and answer else _known(subject, pname, view.lang)
        if value is None and prop.get("type") == "object" and prop.get("properties"):
            given = found.get(pname)
            inner: dict[str, Any] = given if isinstance(given, dict) else {}
            value = complete(view, prop, inner, answer, key) or None
        if value is None and _judged(pname, prop):
            value = by_meaning(view, pname, prop, key, subject)  # a score, a flag: read for its meaning
        if value is None and pname in found:
            value = found[pname]
        if value is None:
            value = by_meaning(view, pname, prop, key, subject)
        if value is None and pname in required:
            value = _by_type(prop, answer)
            if missing is not None:
                missing.append(pname)
        if value is not None:
            out[pname] = value
    if not props and schema.get("additionalProperties"):
        out = characteristics(view.question)
    return out


def _judged(pname: str, prop: dict[str, Any]) -> bool:
    """Fields a model judges rather than copies: scores, risk levels, flags, scored categories."""
    words = _words(pname)
    kind_type = prop.get("type")
    items: dict[str, Any] = prop["items"] if isinstance(prop.get("items"), dict) else {}
    scored = kind_type == "array" and "score" in (items.get("properties") or {})
    return (
        kind_type == "boolean"
        or scored
        or (kind_type in ("integer", "number") and bool({"score", "risk"} & set(words)))
    )


def _resolved(prop: Any) -> dict[str, Any]:
    if not isinstance(prop, dict):
        return {}
    options = prop.get("anyOf") or prop.get("oneOf")
    if isinstance(options, list):
        usable = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
        if usable:
            return {**usable[0], **{k: v for k, v in prop.items() if k not in ("anyOf", "oneOf")}}
    return prop


def by_meaning(view: View, pname: str, prop: dict[str, Any], key: str, subject: dict[str, Any] | None) -> Any:
    kind_type = prop.get("type")
    text = f"{view.question}\n{view.system}"
    words = _words(pname)
    if kind_type == "boolean":
        return flag(view.question, pname)
    if kind_type in ("integer", "number"):
        if "score" in words or "sentiment" in words:
            return sentiment(view.question, pname)
        if "risk" in words:
            return risk(view.question)
        keyed = _keyed(view, pname)
        number = re.search(r"-?\d+(?:[.,]\d+)?", keyed or "")
        if number is None:
            value = measures.measured(view, words, prop)
            return (int(value) if kind_type == "integer" else value) if value is not None else None
        if number:
            raw = float(number.group().replace(",", "."))
            return int(raw) if kind_type == "integer" else raw
        return None
    if kind_type == "array":
        items: dict[str, Any] = prop["items"] if isinstance(prop.get("items"), dict) else {}
        if items.get("type") == "object" and "score" in (items.get("properties") or {}):
            return categories(view.question)
        return None
    if kind_type == "object" and prop.get("properties"):
        return complete(view, prop, {}, "", key) or None
    from_results = measures.direction(view, words, prop) or _from_results(view, words)
    if from_results is not None:
        return from_results
    if words and words[-1] == "name":
        people = [e for e in entities.of_kind(view.question, "person")]
        if people:
            return str(people[0].value)
        known = [n for _, n, kind in names.known_entities(view.question) if kind == "person"]
        if known:
            return known[0]
    return adjacent_name(text, words)


def _by_type(prop: dict[str, Any], answer: str) -> Any:
    kind_type = prop.get("type")
    if prop.get("enum"):
        return prop["enum"][0]
    return {"integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(str(kind_type), answer or "")


def flag(text: str, pname: str) -> bool:
    """True when the text asks for what the flag names, and does not say it does not."""
    words = [
        w for w in _words(pname) if w not in ("is", "has", "requested", "request", "wants", "needed", "need", "to")
    ]
    acts = [w for w in words if w in _FLAG_WORDS]
    # 'block_card': the verb decides; the card named in "change my card's PIN" is its object, no reason to block.
    words = acts or words
    triggers = [t for w in words for t in _FLAG_WORDS.get(w, [])] + [w for w in words if len(w) > 3]
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
    good, bad = len(lx.hits(tokens, _POSITIVE)), len(lx.hits(tokens, _NEGATIVE))
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
    return 8 if lx.hits(lx.words(text), _RISKY) else 1


def categories(text: str) -> list[dict[str, Any]]:
    """The categories the prompt lists, scored by the words of the text (the best first)."""
    listed = re.search(r"categor\w*[^:\n]*:\s*([^\n.]+)", text, re.I)
    names = [n.strip(" '\"") for n in re.split(r",|\bor\b|\band\b", listed.group(1))] if listed else []
    names = [n for n in names if n] or [k.title() for k in _CATEGORY_WORDS]
    tokens = lx.words(text.split(":", 1)[0] if listed else text)
    scored = []
    for name in names:
        words = _CATEGORY_WORDS.get(lx.fold(name), [lx.fold(name)])
        scored.append((len(lx.hits(tokens, words)), name))
    best = max(scored)[0] if scored else 0
    return [{"name": n, "score": 0.9 if s == best and s else 0.1} for s, n in sorted(scored, key=lambda p: -p[0])]


def characteristics(text: str) -> dict[str, str]:
    """An open object of traits: each phrase of the description, keyed by its last word."""
    body = text.split(":", 1)[1] if ":" in text[:400] else text
    phrases = [p.strip(" .") for p in re.split(r"[.;,]|\band\b|\bwith\b|\bhas\b|\bhad\b", body) if p.strip(" .")]
    out: dict[str, str] = {}
    for phrase in phrases[:20]:
        words = [w for w in re.findall(r"[^\W\d_]+", phrase) if lx.fold(w) not in lx.word_set("stopwords")]
        if words:
            out.setdefault(lx.fold(words[-1]), " ".join(words))
    return out


def _keyed(view: View, pname: str) -> str | None:
    """'temperature: 4' or '"temperature": 4' anywhere in the results, then in the question."""
    label = re.escape(pname).replace("_", "[ _]")
    pattern = re.compile(rf'"?{label}"?\s*[:=]\s*"?([^",\n}}]+)', re.IGNORECASE)
    for text in [a.output for a in reversed(view.episode) if a.status == "ok"] + [view.question]:
        match = pattern.search(text)
        if match:
            return match.group(1).strip()
    return None


def _from_results(view: View, words: list[str]) -> Any:
    """A value an earlier result gave under the field's name (weather_conditions <- 'conditions')."""
    wanted = {w for w in words if len(w) > 3}
    for attempt in reversed(view.episode):
        if attempt.status != "ok":
            continue
        for fact in facts.read(attempt.output):
            if set(_words(fact.key)) & wanted and isinstance(fact.value, (str, int, float)):
                return fact.value
        if "conditions" in wanted or "weather" in wanted:
            text = attempt.output.strip()
            if 0 < len(text) < 120 and facts.parse(text) is None:
                return text
    return None


def adjacent_name(text: str, words: list[str]) -> str | None:
    """A capitalised or quoted name next to one of the field's words: 'our Enterprise plan', 'тарифом Business'."""
    kinds = lx.load("vocabulary")["kinds"]  # 'plan' is 'тарифом Business', 'pakietu Pro' in the user's words
    said = [f for w in words for forms in kinds.get(w, {}).values() for f in forms.split("|")]
    for word in (w for w in [*words, *said] if len(w) > 2):
        stem = re.escape(lx.fold(word)[: max(3, len(word) - 2)])
        for match in re.finditer(rf"(?<![\w])({stem}\w*)", lx.fold(text)):
            after = re.match(r"\s+[«„\"']?([A-ZА-ЯЁ][\w-]+)", text[match.end() :])
            before = re.search(r"([A-ZА-ЯЁ][\w-]+)[»”\"']?\s+$", text[: match.start()])
            for found in (after, before):
                if found and lx.fold(found.group(1)) not in lx.word_set("stopwords"):
                    return found.group(1)
    return None


__all__ = ["complete", "kinds", "thing"]
