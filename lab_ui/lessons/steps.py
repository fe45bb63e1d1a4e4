"""What the Lessons page shows under the current step of the script: each part is a function of one `StepView`.

To add a kind of exercise (a Parsons puzzle, a prediction, a code exercise), write `def part(view: StepView) -> None`
in its own module and add it to `PARTS` in lab_ui/lessons/page.py: it is drawn under the step's text, in order,
for the step it belongs to (`view.shows(item_step)`), and `view.mark_done(item)` counts it in the lesson's progress.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent_core.teaching.lessons import Lesson
from agent_core.teaching.progress import ProgressStore
from lab_ui.controller.session import LabSession


@dataclass
class StepView:
    """The lesson, the step on screen and the learner: everything a part under the step needs."""

    lesson: Lesson
    lessons: tuple[Lesson, ...]
    step: int  # 0-based index of the step on screen
    steps: int  # how many steps the lesson has
    lab: LabSession  # the lesson's own workspace (its run and form)
    lang: str
    learner: str
    store: ProgressStore
    done: set[str]  # the progress items this learner has finished in this lesson ("exercise:ID", "question:ID")

    @property
    def last(self) -> bool:
        return self.step == self.steps - 1

    def shows(self, item_step: int | None) -> bool:
        """Whether an item of step `item_step` (1-based; None: the last step) belongs on the step on screen."""
        wanted = self.steps if item_step is None else min(item_step, self.steps)
        return wanted - 1 == self.step

    def mark_done(self, item: str) -> None:
        """Count `item` ("kind:id") as finished in this lesson's progress (the bar and the teacher's board)."""
        self.store.mark(self.learner, self.lesson.id, item)
        self.done.add(item)


Part = Callable[[StepView], None]
