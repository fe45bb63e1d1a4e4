"""The offline model on the MCP reference memory and filesystem servers' tools: an array of names filled from the
names the request gives, nothing created only to find a value, a fact to keep whose verb reads nothing, and a folder
tree told with its sub-folders' files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_loop import agent_loop, conversation

from agent_core.sim.words import value

CASES = Path(__file__).parent / "fidelity" / "loops" / "cases"


def definitions(server: str) -> list[dict]:
    data = json.loads((CASES / f"mcp_server_{server}.json").read_text(encoding="utf-8"))
    return [t["definition"] for t in data["tools"].values()]


STORE = {
    "entities": [
        {"name": "Ann Kowalska", "entityType": "person", "observations": ["Lives in Kraków"]},
        {"name": "Northwind", "entityType": "organization", "observations": ["Sells tea"]},
    ],
    "relations": [],
}


def memory(name: str, args: dict) -> tuple[str, bool]:
    if name == "search_nodes":  # a search matches the start of a name's words ('Kowalskiej' finds Kowalska)
        said = args["query"].lower()
        found = [e for e in STORE["entities"] if any(w[:5].lower() in said for w in e["name"].split())]
        return json.dumps({"entities": found, "relations": []}), False
    if name in ("read_graph", "open_nodes"):
        return json.dumps(STORE), False
    if name == "add_observations":
        return json.dumps(args["observations"]), False
    return json.dumps({"success": True}), False


def calls_of(question: str) -> list[tuple[str, dict]]:
    replies, _ = agent_loop(question, definitions("memory"), memory)
    return [c for reply in replies for c in reply]


@pytest.mark.parametrize(
    "question",
    [
        "Delete the entity Northwind from memory.",
        "Удали из памяти сущность Northwind",
        "Usuń z pamięci encję Northwind",
    ],
)
def test_an_entity_to_delete_is_deleted_by_the_name_given(question):
    assert ("delete_entities", {"entityNames": ["Northwind"]}) in calls_of(question)


def test_nodes_are_opened_by_the_names_given_and_a_place_is_no_node():
    calls = calls_of("Open the nodes Ann Kowalska and Northwind")
    assert calls[0] == ("open_nodes", {"names": ["Ann Kowalska", "Northwind"]})


def test_a_fact_whose_verb_is_open_is_added_not_opened():
    calls = calls_of("Remember that Northwind has opened a shop in Gdańsk.")
    assert [name for name, _ in calls][-1] == "add_observations", calls
    assert calls[-1][1]["observations"][0]["entityName"] == "Northwind"
    assert all(name not in ("create_entities", "delete_entities") for name, _ in calls)


TREE = [
    {"name": "src", "type": "directory", "children": [{"name": "main.py", "type": "file"}]},
    {"name": "README.md", "type": "file"},
]


@pytest.mark.parametrize(
    "question",
    [
        "Show the whole tree of /home/ann/work with all subfolders",
        "Покажи всю структуру /home/ann/work со всеми подпапками",
        "Pokaż drzewo katalogu /home/ann/work z podfolderami",
    ],
)
def test_a_whole_tree_is_asked_of_the_tree_tool_and_told_with_nested_files(question):
    def disk(name: str, args: dict) -> tuple[str, bool]:
        return (json.dumps(TREE), False) if name == "directory_tree" else ("[DIR] src\n[FILE] README.md", False)

    replies, answer = agent_loop(question, definitions("filesystem"), disk)
    assert replies[0] == [("directory_tree", {"path": "/home/ann/work"})]
    assert "src/main.py" in answer and "README.md" in answer


def disk_files(name: str, args: dict) -> tuple[str, bool]:
    if name == "read_text_file" and args["path"] == "/home/ann/projects/CHANGES.md":
        return "Version: 2.0.1\nBranch: release\nHost: shop.example.net", False
    if name == "list_allowed_directories":
        return "Allowed directories:\n/home/ann/projects", False
    return "size: 64\nisFile: true", False


@pytest.mark.parametrize(
    "question",
    [
        "Which version is in /home/ann/projects/CHANGES.md in my projects folder?",
        "Какая версия в файле /home/ann/projects/CHANGES.md в папке projects?",
    ],
)
def test_a_folder_said_beside_a_named_file_asks_no_listing_the_file_is_read(question):
    replies, answer = agent_loop(question, definitions("filesystem"), disk_files)
    assert replies[0] == [("read_text_file", {"path": "/home/ann/projects/CHANGES.md"})]
    assert "2.0.1" in answer


def test_a_branch_and_a_host_of_a_record_are_code_in_a_russian_answer():
    replies, answer = agent_loop(
        "Что написано в файле /home/ann/projects/CHANGES.md?", definitions("filesystem"), disk_files
    )
    assert "`release`" in answer and "`shop.example.net`" in answer, answer


def test_a_follow_up_to_add_to_her_record_adds_only_the_fact():
    made = conversation(
        ["Co wiesz o Ann Kowalskiej?", "dopisz jej, że zna też niemiecki"], definitions("memory"), memory
    )
    assert made[1] == [
        ("add_observations", {"observations": [{"entityName": "Ann Kowalska", "contents": ["zna też niemiecki"]}]})
    ]


@pytest.mark.parametrize(
    ("note", "told"), [("zna też niemiecki", "zna też niemiecki"), ("Works as a data engineer", "")]
)
def test_a_polish_note_is_told_as_written_an_english_one_in_polish_words(note, told):
    said = value(note, "pl", "contents")
    assert (told in said) if told else note not in said
