"""One tool call being filled: where its values come from (the clause, the question, the system prompt, the
conversation, earlier results) and which values are already given out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from agent_core.sim.text import language as lx
from agent_core.sim.text.reader import Need, View


@dataclass
class Fill:
    """One tool call being filled: where values come from, and which entities are already taken."""

    view: View
    need: Need
    only_clause: bool
    key: str
    with_results: bool = True
    used: set[tuple[int, str]] = field(default_factory=set)  # (entity start, source text id) already given out
    counted: int = 0  # numeric parameters filled so far (numbers go out in the order the text says them)
    selection: tuple[str, Any] | None = None  # get_user(key, value): the option and its value, found once
    optional: bool = False  # the parameter being filled is not required

    def texts(self, wording: bool = False, own: bool = True) -> Iterator[str]:
        """Where a value is looked for, in order: the clause (or for the user's own wording the whole question first),
        the question, the system prompt, the conversation before it (own=False: only what the user wrote in it),
        then earlier results. Lazy: most values are in the first text, and a long run's results are read only when
        they are needed."""
        need, view = self.need, self.view
        if self.only_clause:
            yield from (need.focus, need.clause) if need.focus else (need.clause,)
            return
        if view.reply and not wording and not view.dictated:
            yield view.reply  # the user's answer to the model's question says what the request left open
            # "Yes, please cancel it": 'it' is what the model's own question named ("cancel order 47652?")
            yield from (s for s in re.split(r"(?<=[.?!])\s+|\n", view.asked) if s.rstrip().endswith("?"))
        if need.focus and not wording:
            yield need.focus  # 'Denver' of "в Денвере и в Майами": this call's own value before the clause's first
        if self.optional and need.pointed:
            yield need.clause  # 'Add a comment "Fixed" ..., then close it': the comment is no title for the close
            return
        yield from (view.question, need.clause) if wording else (need.clause, view.question)
        yield view.system
        # An optional value is the user's: the model's own earlier answer ("title Search returns duplicates") is no
        # instruction to set it
        yield from view.said_before if self.optional or not own else view.earlier

    def results(self) -> Iterator[str]:
        """Earlier results of this episode, the latest first."""
        for _, text in self.named_results():
            yield text

    def named_results(self) -> Iterator[tuple[str, str]]:
        """(tool name, result) of this episode's successful calls to other tools, the latest first."""
        name = self.need.tool_def.get("name")
        if self.only_clause or not self.with_results:
            return
        fed = self.view.fed
        for attempt in fed:
            yield attempt.name, lx.attend(attempt.output)
        for attempt in reversed(self.view.episode):
            if attempt.status == "ok" and attempt.name != name and attempt not in fed:
                yield attempt.name, lx.attend(attempt.output)
