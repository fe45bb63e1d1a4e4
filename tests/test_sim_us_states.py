"""US states named in English, Russian and Polish, in any case, give a tool its two-letter state code."""

from __future__ import annotations

import json
from pathlib import Path

from agent_core.sim.text import entities, gazetteer


def codes(text: str) -> list[str]:
    return [code for _, _, code in gazetteer.us_states(text)]


def test_the_table_holds_all_fifty_states_in_three_languages():
    table = json.loads(Path("agent_core/sim/data/entities.json").read_text(encoding="utf-8"))["us_states"]
    assert len(table) == 50 and all(len(forms) >= 2 for forms in table.values())


def test_inflected_names_give_their_code():
    assert codes("Какая погода сейчас в Айове и в Вермонте?") == ["IA", "VT"]
    assert codes("Czy w Oklahomie albo w Nebrasce są burze?") == ["OK", "NE"]
    assert codes("Ostrzeżenia w Karolinie Południowej") == ["SC"]
    assert codes("Предупреждения в Южной Каролине и в Мэне") == ["SC", "ME"]
    assert codes("any alerts in new hampshire?") == ["NH"]
    assert codes("Storms in West Virginia, not Virginia") == ["WV", "VA"]


def test_words_that_only_look_like_a_state_are_none():
    assert codes("Indian food and Georgian wine") == []
    assert codes("в Вашингтоне") == []  # the city; the state is 'штат Вашингтон'


def test_a_state_code_parameter_gets_the_code_from_the_name():
    assert [e.value for e in entities.of_kind("Jakie są ostrzeżenia w Arizonie?", "state")] == ["AZ"]
