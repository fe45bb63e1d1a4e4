"""A record told in Russian or Polish in words a careful writer uses: a person's name is 'имя'/'imię', a thing's
'название'/'nazwa'; a known value said whole needs no English gloss; a name is never translated word by word; a city
a tool names in English is said as the user's language names it."""

from __future__ import annotations

import json

from tests.sim_loop import agent_loop, tool

STRING = {"type": "string"}
MEMBERS = [tool("lookup_member", "Finds a club member by their member number.", {"member_no": STRING})]
DEVICES = [tool("get_device", "Returns a smart-home device by its id.", {"device_id": STRING})]


def _run(name: str, args: dict) -> tuple[str, bool]:
    if name == "lookup_member":
        record = {"member_no": args["member_no"], "name": "Olga Wiśniewska", "email": "olga@example.org"}
        return json.dumps({**record, "city": "Madrid"}), False
    return json.dumps({"id": args["device_id"], "name": "Garden light", "status": "cloudy", "is_on": True}), False


def test_a_persons_record_names_her_and_a_things_record_names_it() -> None:
    _, answer = agent_loop("Pokaż członka klubu M-5150", MEMBERS, _run)
    assert "imię „Olga Wiśniewska”" in answer and "nazwa" not in answer, answer
    _, answer = agent_loop("Покажи участника клуба M-5150", MEMBERS, _run)
    assert "имя «olga wiśniewska»" in answer.lower() and "название" not in answer.lower(), answer
    _, answer = agent_loop("Pokaż urządzenie D-31", DEVICES, _run)
    assert "nazwa „Garden light”" in answer and "imię" not in answer, answer
    _, answer = agent_loop("Покажи устройство D-31", DEVICES, _run)
    assert "название «Garden light»" in answer and "имя" not in answer, answer


def test_a_known_value_is_said_alone_and_a_name_is_left_whole() -> None:
    _, answer = agent_loop("Покажи устройство D-31", DEVICES, _run)
    assert "облачно" in answer and "cloudy" not in answer, answer  # no «cloudy» beside its translation
    assert "слабый" not in answer  # 'Garden light' is a name, not the weather's 'light'


def test_a_city_a_tool_names_in_english_is_said_in_the_users_language() -> None:
    _, answer = agent_loop("Pokaż członka klubu M-5150", MEMBERS, _run)
    assert "Madryt" in answer and "Madrid" not in answer, answer
    _, answer = agent_loop("Покажи участника клуба M-5150", MEMBERS, _run)
    assert "Мадрид" in answer, answer
    _, answer = agent_loop("Show club member M-5150", MEMBERS, _run)
    assert "Madrid" in answer, answer
