"""Reading a tool's error: a corrected call only when the error names a new value, never the error glued on."""

from __future__ import annotations

from agent_core.sim.text.results import fix
from tests.sim_loop import agent_loop

READ = {
    "name": "read_file",
    "description": "Read a file from the archive.",
    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
}


def test_a_denial_that_repeats_the_path_is_no_correction() -> None:
    error = "Access denied - path outside allowed directories: /opt/secret.cfg not in /srv/archive"
    assert fix({"path": "/opt/secret.cfg"}, error, [{"path": "/opt/secret.cfg"}]) is None


def test_a_relative_name_still_moves_into_the_allowed_folder() -> None:
    error = "Access denied - path outside allowed directories: /root/plan.md not in /srv/archive"
    assert fix({"path": "plan.md"}, error, [{"path": "plan.md"}]) == {"path": "/srv/archive/plan.md"}


def test_an_option_list_still_gives_the_nearest_value() -> None:
    error = "Unknown unit 'celcius'. Allowed values: celsius, fahrenheit, kelvin"
    assert fix({"unit": "celcius"}, error, [{"unit": "celcius"}]) == {"unit": "celsius"}


def _deny(name: str, args: dict) -> tuple[str, bool]:
    return f"Access denied - path outside allowed directories: {args['path']} not in /srv/archive", True


def test_an_absolute_path_outside_is_tried_once_and_the_answer_names_the_folder() -> None:
    for question in ("Read /opt/secret.cfg", "Прочитай /opt/secret.cfg", "Przeczytaj /opt/secret.cfg"):
        replies, answer = agent_loop(question, [READ], _deny)
        assert replies == [[("read_file", {"path": "/opt/secret.cfg"})]], question
        assert "/srv/archive" in answer
        assert "read_file:" not in answer  # says what failed, does not relay the tool's words as its own


def test_a_repository_outside_the_allowed_one_is_not_asked_twice() -> None:
    status = {
        "name": "repo_status",
        "description": "Shows the working tree status of a repository",
        "input_schema": {"type": "object", "properties": {"repo_path": {"type": "string"}}, "required": ["repo_path"]},
    }

    def outside(name: str, args: dict) -> tuple[str, bool]:
        return f"Repository path '{args['repo_path']}' is outside the allowed repository '/srv/code/site'", True

    replies, answer = agent_loop("Какой статус у репозитория /srv/code/blog?", [status], outside)
    assert len(replies) == 1
    assert "/srv/code/site" in answer
