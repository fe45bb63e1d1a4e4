"""An option of several words chosen by what its words mean: 'в духе классических супергероев' is 'classic heroes',
'bal maskowy złoczyńców' is 'villain masquerade', when each concept of the option's words is in the text (concepts.json,
with kin) and no other option has as many."""

from __future__ import annotations

from agent_core.sim.text import language as lx
from agent_core.sim.text import meaning


def by_meaning(text: str, options: tuple[str, ...]) -> str | None:
    """The one option of two or more words all of whose meanings the text says, and half its words at least (a
    name such as 'Gotham' may be written another way); None when none fits or two fit as well."""
    said = meaning.kin(meaning.concepts(text))
    scored: list[tuple[int, str]] = []
    for option in options:
        tokens = lx.words(option)
        if len(tokens) < 2:
            continue  # one word's other names are options.json's ('laid-back' is casual)
        per_word = [meaning.concepts(t) for t in tokens]
        wanted = {c for found in per_word for c in found}
        met = sum(bool(found & said) for found in per_word)
        if wanted and wanted <= said and 2 * met >= len(tokens):
            scored.append((len(wanted), option))
    if not scored:
        return None
    scored.sort(reverse=True)
    return scored[0][1] if len(scored) == 1 or scored[0][0] > scored[1][0] else None
