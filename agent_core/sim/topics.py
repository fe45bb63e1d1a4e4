"""A need read as a file that names no file ('Jak długo przechowujemy logi serwera?'): with no tool to read one, it is
a question about a topic, looked up with the search tool, its content words the query (as the reader reads one)."""

from __future__ import annotations

from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need


def as_search(need: Need) -> bool:
    """Turn a file need with no file into a search need; False (the need untouched) when it names one or has no words."""
    if need.intent != "file" or need.value:
        return False
    drop = lx.query_drop(lx.words(need.clause))
    query = " ".join(w for w in lx.content_words(need.clause) if lx.fold(w) not in drop)
    if not query:
        return False
    need.value, need.intent = query, "search"
    return True
