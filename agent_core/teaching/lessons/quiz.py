"""Quizzes: only a learner's first answer counts; a score per lesson and a cumulative final quiz over all lessons."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from agent_core.teaching.lessons import Lesson, Question

FINAL_QUIZ = "final-quiz"  # the lesson id the final quiz's first answers are recorded under


class Answer(Protocol):
    """What a stored first answer offers (agent_core.teaching.progress.QuizAnswer); read-only, as the frozen record is."""

    @property
    def lesson(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def choice(self) -> int: ...
    @property
    def correct(self) -> bool: ...


@dataclass(frozen=True)
class QuizItem:
    """One question of a quiz, with the lesson it comes from; `key` is the id its answer is recorded under."""

    lesson_id: str
    question: Question
    key: str


@dataclass(frozen=True)
class Score:
    """First answers that were right, questions answered, questions in the quiz."""

    right: int
    answered: int
    total: int


def lesson_quiz(lesson: Lesson) -> list[QuizItem]:
    """A lesson's check questions."""
    return [QuizItem(lesson.id, q, q.id) for q in lesson.questions]


def final_quiz(lessons: Iterable[Lesson]) -> list[QuizItem]:
    """The cumulative final quiz: the last check question of every lesson, in lesson order."""
    return [QuizItem(x.id, x.questions[-1], f"{x.id}/{x.questions[-1].id}") for x in lessons if x.questions]


def first_answers(answers: Iterable[Answer], quiz_id: str) -> dict[str, Answer]:
    """The recorded first answers of one quiz (a lesson id or FINAL_QUIZ), by question key."""
    return {a.question: a for a in answers if a.lesson == quiz_id}


def score(items: list[QuizItem], answers: dict[str, Answer]) -> Score:
    """The score of a quiz from first answers only."""
    mine = [answers[i.key] for i in items if i.key in answers]
    return Score(right=sum(a.correct for a in mine), answered=len(mine), total=len(items))
