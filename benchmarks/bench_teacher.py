"""Teacher page with a full class: median time to read the class report and to render the page (AppTest) for a
class of 40 learners who have finished most exercises and answered every question, beside an empty class (the floor:
the same page with nothing to show). Prints the figures and the ratio; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from agent_core.teaching.class_report import load_report
from agent_core.teaching.classes import ClassStore, SchoolClass
from agent_core.teaching.lessons import load_lessons
from agent_core.teaching.progress import ProgressStore

APP = str(Path(__file__).resolve().parent.parent / "app.py")
LEARNERS = 40
REPEATS = 7  # the machine is often shared: enough renders for a median that means something


def full_class(classes: ClassStore, progress: ProgressStore, lessons) -> SchoolClass:
    """40 learners; learner i finished each exercise unless (i + n) % 4 == 0 and answered every question."""
    made = classes.create("Benchmark class")
    for i in range(LEARNERS):
        learner = f"bench-{i:02d}"
        classes.join(made.code, learner, f"Learner {i:02d}")
        for lesson in lessons:
            for n, ex in enumerate(lesson.exercises):
                if (i + n) % 4:
                    progress.mark(learner, lesson.id, f"exercise:{ex.id}")
            for n, q in enumerate(lesson.questions):
                choice = (i + n) % len(q.options)
                progress.record_answer(learner, lesson.id, q.id, choice, q.options[choice].correct)
    return made


def render_ms(made: SchoolClass) -> list[float]:
    times = []
    for _ in range(REPEATS):
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["class"], at.query_params["teacher"] = made.code, made.teacher_key
        at.run()
        started = time.perf_counter()
        at.switch_page("pages/teacher.py").run()
        times.append((time.perf_counter() - started) * 1000)
        assert not at.exception, [e.value for e in at.exception]
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AGENT_LOOP_LAB_DB"] = str(Path(tmp) / "runs.db")
        lessons = load_lessons()
        classes, progress = ClassStore(), ProgressStore()
        empty = classes.create("Empty class")
        full = full_class(classes, progress, lessons)
        started = time.perf_counter()
        for _ in range(REPEATS):
            report = load_report(full.code, lessons, classes, progress)
        read_ms = (time.perf_counter() - started) * 1000 / REPEATS
        answers = sum(s.answered for s in report.questions.values())
        floor, loaded = statistics.median(render_ms(empty)), statistics.median(render_ms(full))
    print(f"class report, {LEARNERS} learners, {answers} first answers: {read_ms:.1f} ms to read")
    print(f"Teacher page render (AppTest), empty class: {floor:.0f} ms (median of {REPEATS})")
    print(f"Teacher page render (AppTest), {LEARNERS} learners: {loaded:.0f} ms (median of {REPEATS})")
    print(f"ratio to the empty class: {loaded / floor:.2f}x")


if __name__ == "__main__":
    main()
