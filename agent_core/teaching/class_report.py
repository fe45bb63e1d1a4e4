"""A class's progress as the Teacher page shows it: pure functions over members, lessons, completions and answers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from agent_core.teaching.classes import ClassStore, Member
from agent_core.teaching.lessons import Lesson
from agent_core.teaching.lessons.quiz import FINAL_QUIZ
from agent_core.teaching.progress import Completion, ProgressStore, QuizAnswer


@dataclass
class LearnerProgress:
    """One learner's exercises finished and first quiz answers, per lesson id."""

    member: Member
    exercises: dict[str, set[str]] = field(default_factory=dict)
    answers: dict[str, dict[str, QuizAnswer]] = field(default_factory=dict)
    final: dict[str, QuizAnswer] = field(default_factory=dict)  # the final quiz, by "lesson/question" key
    # First predictions (predict, then reveal), per lesson id, by prediction id.
    predictions: dict[str, dict[str, QuizAnswer]] = field(default_factory=dict)

    def final_right(self) -> int:
        return sum(a.correct for a in self.final.values())

    def exercises_done(self, lesson: Lesson) -> int:
        return len(self.exercises.get(lesson.id, ()))

    def first_right(self, lesson: Lesson) -> int:
        return sum(a.correct for a in self.answers.get(lesson.id, {}).values())

    def answered(self, lesson: Lesson) -> int:
        return len(self.answers.get(lesson.id, {}))

    def predicted_right(self, lesson: Lesson | None = None) -> int:
        """First predictions that were right, in one lesson or in all."""
        groups = [self.predictions.get(lesson.id, {})] if lesson else list(self.predictions.values())
        return sum(a.correct for g in groups for a in g.values())

    def predicted(self, lesson: Lesson | None = None) -> int:
        groups = [self.predictions.get(lesson.id, {})] if lesson else list(self.predictions.values())
        return sum(len(g) for g in groups)


@dataclass
class QuestionStats:
    """How the class answered one question the first time: how many answered, how many were right, wrong picks."""

    lesson: Lesson
    question_id: str
    answered: int = 0
    right: int = 0
    wrong: Counter[int] = field(default_factory=Counter)  # option index -> learners who picked it first

    def common_wrong(self) -> tuple[int, int] | None:
        """The wrong option picked most often and by how many (ties: the lower index), or None."""
        if not self.wrong:
            return None
        return min(self.wrong.items(), key=lambda item: (-item[1], item[0]))


@dataclass
class ClassReport:
    """Everything the Teacher page draws for one class at one moment."""

    lessons: list[Lesson]
    learners: list[LearnerProgress]
    questions: dict[tuple[str, str], QuestionStats]

    def question_stats(self, lesson: Lesson) -> list[QuestionStats]:
        """The lesson's questions in their order, answered or not."""
        return [self.questions[(lesson.id, q.id)] for q in lesson.questions]

    def class_quiz_score(self) -> tuple[int, int]:
        """Right first answers and all first answers, over the class and every lesson."""
        right = sum(s.right for s in self.questions.values())
        return right, sum(s.answered for s in self.questions.values())

    def exercises_done(self) -> int:
        return sum(len(done) for p in self.learners for done in p.exercises.values())


def build_report(
    members: list[Member], lessons: list[Lesson], completions: list[Completion], answers: list[QuizAnswer]
) -> ClassReport:
    """Join members with what they finished and answered; ids of removed lessons or items are ignored."""
    exercise_ids = {x.id: {e.id for e in x.exercises} for x in lessons}
    options = {(x.id, q.id): len(q.options) for x in lessons for q in x.questions}
    predicted = {(x.id, p.key): len(p.options) for x in lessons for p in x.predictions}
    rows = {m.learner: LearnerProgress(m) for m in members}
    for c in completions:
        kind, _, item = c.item.partition(":")
        if c.learner in rows and kind == "exercise" and item in exercise_ids.get(c.lesson, ()):
            rows[c.learner].exercises.setdefault(c.lesson, set()).add(item)
    stats = {key: QuestionStats(_lesson(lessons, key[0]), key[1]) for key in options}
    for a in answers:
        if a.lesson == FINAL_QUIZ:  # its question keys are "lesson/question"
            lesson_id, _, question_id = a.question.partition("/")
            if a.learner in rows and 0 <= a.choice < options.get((lesson_id, question_id), 0):
                rows[a.learner].final[a.question] = a
            continue
        key = (a.lesson, a.question)
        if a.learner in rows and key in predicted:  # a prediction: its first answer, right or wrong
            if 0 <= a.choice < predicted[key]:
                rows[a.learner].predictions.setdefault(a.lesson, {})[a.question.partition(":")[2]] = a
            continue
        if a.learner not in rows or key not in options or not 0 <= a.choice < options[key]:
            continue
        rows[a.learner].answers.setdefault(a.lesson, {})[a.question] = a
        stats[key].answered += 1
        if a.correct:
            stats[key].right += 1
        else:
            stats[key].wrong[a.choice] += 1
    return ClassReport(lessons=list(lessons), learners=list(rows.values()), questions=stats)


def load_report(code: str, lessons: list[Lesson], classes: ClassStore, progress: ProgressStore) -> ClassReport:
    """Read one class's report from the stores: three queries however many learners there are."""
    members = classes.members(code)
    ids = [m.learner for m in members]
    return build_report(members, lessons, progress.completed(ids), progress.answers(ids))


def _lesson(lessons: list[Lesson], lesson_id: str) -> Lesson:
    return next(x for x in lessons if x.id == lesson_id)
