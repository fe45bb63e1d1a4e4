"""Choosing among five or more tools as public servers and courses define them (sources named): a dedicated tool
beats a generic one, a question asks for no change, the one tool that shares what the question is about wins, in
English, Russian and Polish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_sim_planner import first_calls, string, tool

from agent_core.model import SimSettings
from agent_core.sim.brain import think


def owner_repo(description: str, **more: dict) -> dict:
    return tool(
        description.split(":")[0],
        description.split(":", 1)[1].strip(),
        {"owner": string("Repository owner"), "repo": string("Repository name"), **more},
        ["owner", "repo"],
    )


# ---- github/github-mcp-server (pkg/github/*.go): ten tools over one repository ------------------------------------

GITHUB = [
    tool(
        "issue_read",
        "Gets information about one issue in a GitHub repository.",
        {
            "method": string("What to read: 'get' the issue, 'get_comments'.", enum=["get", "get_comments"]),
            "owner": string("Repository owner"),
            "repo": string("Repository name"),
            "issue_number": {"type": "number", "description": "The number of the issue"},
        },
    ),
    tool(
        "issue_write",
        "Creates a new issue in a GitHub repository, or updates an existing one.",
        {
            "method": string("'create' or 'update'", enum=["create", "update"]),
            "owner": string("Repository owner"),
            "repo": string("Repository name"),
            "title": string("Issue title"),
        },
        ["method", "owner", "repo"],
    ),
    owner_repo("list_issues: Lists the issues of a GitHub repository."),
    tool(
        "add_issue_comment",
        "Adds a comment to an issue of a GitHub repository.",
        {
            "owner": string("Repository owner"),
            "repo": string("Repository name"),
            "issue_number": {"type": "number", "description": "Issue number to comment on"},
            "body": string("Comment content"),
        },
    ),
    tool(
        "search_repositories",
        "Finds GitHub repositories by name, description, readme, topics or other metadata.",
        {"query": string("Repository search query")},
    ),
    owner_repo("list_commits: Lists the commits of a branch in a GitHub repository, newest first"),
    owner_repo("create_branch: Creates a new branch in a GitHub repository", branch=string("Name of the new branch")),
    owner_repo("list_branches: Lists the branches of a GitHub repository"),
]


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Jakie są ostatnie commity w repozytorium octo-org/webshop?", "list_commits"),
        ("What branches does octo-org/webshop have?", "list_branches"),
        ("Co napisano w komentarzach do zgłoszenia 42 w octo-org/webshop?", "issue_read"),
    ],
)
def test_the_tool_named_for_what_is_asked_beats_a_search_and_a_change(question, wanted):
    calls = first_calls(question, GITHUB)
    assert [n for n, _ in calls] == [wanted], calls
    assert calls[0][1]["owner"] == "octo-org" and calls[0][1]["repo"] == "webshop"


def test_comments_are_read_not_written():
    # 'Co napisano' (what was written) asks for information; add_issue_comment would post one.
    (name, args), *_ = first_calls("Co napisano w komentarzach do zgłoszenia 42 w octo-org/webshop?", GITHUB)
    assert name == "issue_read" and args["method"] == "get_comments" and args["issue_number"] == 42


# ---- huggingface/agents-course unit 3 (Alfred's gala): a dedicated tool over web_search ---------------------------

ALFRED = [
    tool(
        "guest_info_retriever",
        "Retrieves detailed information about gala guests by their name or relation.",
        {"query": string("The name or relation of the guest you want information about.")},
    ),
    tool("get_weather_info", "Fetches dummy weather information for a given location.", {"location": string()}),
    tool(
        "get_hub_stats",
        "Fetches the most downloaded model of a given author on the Hugging Face Hub.",
        {"author": string()},
    ),
    tool(
        "web_search",
        "Runs a DuckDuckGo web search for the query (like a Google search) and returns the top results.",
        {"query": string("The search query to perform.")},
    ),
    tool("visit_webpage", "Visits the webpage at the given url and reads its content.", {"url": string()}),
]


@pytest.mark.parametrize(
    "question",
    [
        "What is Facebook and what's their most popular model on the Hugging Face Hub?",
        "Jaki model Google jest najczęściej pobierany na Hugging Face Hub?",
    ],
)
def test_a_dedicated_tool_beats_web_search(question):
    """The Hub question goes to get_hub_stats; a search may only serve the other goal ('What is Facebook')."""
    calls = first_calls(question, ALFRED)
    assert "get_hub_stats" in [n for n, _ in calls], calls
    assert all(a == {"query": "Facebook"} for n, a in calls if n == "web_search"), calls


def test_an_author_is_the_company_asked_about_not_the_hub_the_tool_reads():
    calls = first_calls("What is Facebook and what's their most popular model on the Hugging Face Hub?", ALFRED)
    assert [a for n, a in calls if n == "get_hub_stats"] == [{"author": "Facebook"}], calls


def test_a_guest_list_is_the_guest_tool_in_polish():
    calls = first_calls("Jaki adres e-mail ma dr Nikola Tesla z listy gości?", ALFRED)
    assert [n for n, _ in calls] == ["guest_info_retriever"]


# ---- modelcontextprotocol/servers: filesystem, git and memory ----------------------------------------------------

FILESYSTEM = [
    tool(
        "read_text_file",
        "Reads a whole file as text; 'head' and 'tail' read the first or last N lines.",
        {"path": string()},
    ),
    tool(
        "write_file",
        "Creates a file or overwrites an existing one with new content.",
        {"path": string(), "content": string()},
    ),
    tool("create_directory", "Creates a directory, including any missing parents.", {"path": string()}),
    tool(
        "list_directory",
        "Lists the files and directories in a path, marking each with [FILE] or [DIR].",
        {"path": string()},
    ),
    tool("move_file", "Moves or renames a file or directory.", {"source": string(), "destination": string()}),
    tool(
        "get_file_info",
        "Returns a file's or directory's metadata: size, creation and modification times, permissions and type.",
        {"path": string()},
    ),
]


@pytest.mark.parametrize(
    "question",
    ["Which directories can you access?", "К каким папкам у тебя есть доступ?", "Do jakich folderów masz dostęp?"],
)
def test_which_folders_are_allowed_is_asked_of_the_tool_that_lists_them(question):
    """The reference filesystem server's whole tool set, as the public corpus holds it."""
    server = json.loads((Path(__file__).parent / "fidelity/loops/cases/mcp_server_filesystem.json").read_text())
    tools = [spec["definition"] for spec in server["tools"].values()]
    assert first_calls(question, tools) == [("list_allowed_directories", {})]


def test_how_big_is_a_file_is_its_metadata():
    calls = first_calls("How big is /home/ann/projects/data.csv and when was it last modified?", FILESYSTEM)
    assert calls == [("get_file_info", {"path": "/home/ann/projects/data.csv"})]


def test_options_a_description_lists_in_quotes_are_sent_as_written():
    git_branch = tool(
        "git_branch",
        "Lists the Git branches",
        {
            "repo_path": string(),
            "branch_type": string("Which branches to list: 'local', 'remote' or 'all'."),
        },
    )
    git_commit = tool("git_commit", "Records changes to the repository", {"repo_path": string(), "message": string()})
    git_log = tool("git_log", "Shows the commit logs", {"repo_path": string()})
    git_status = tool("git_status", "Shows the working tree's status", {"repo_path": string()})
    git_reset = tool("git_reset", "Unstages all staged changes", {"repo_path": string()})
    calls = first_calls(
        "Какие локальные ветки есть в /home/ann/projects/app?", [git_status, git_commit, git_reset, git_log, git_branch]
    )
    assert calls == [("git_branch", {"repo_path": "/home/ann/projects/app", "branch_type": "local"})]


MEMORY = [
    tool(f"{verb}_{thing}", f"{verb.capitalize()}s {thing} in the knowledge graph", {"names": string()})
    for verb, thing in [("create", "entities"), ("delete", "entities"), ("add", "observations")]
] + [
    tool("read_graph", "Reads the whole knowledge graph", {}),
    tool("search_nodes", "Searches the knowledge graph for nodes matching a query", {"query": string()}),
]


def test_what_the_model_remembers_is_read_from_the_knowledge_graph():
    calls = first_calls("What do you remember about Acme?", MEMORY)
    assert calls in ([("search_nodes", {"query": "Acme"})], [("read_graph", {})]), calls


def test_a_russian_question_with_english_names_is_answered_in_russian():
    draft = think(
        {
            "model": "claude-sonnet-4-6",
            "max_tokens": 300,
            "tools": MEMORY,
            "messages": [{"role": "user", "content": "Какой дедлайн у Project Falcon?"}],
        },
        SimSettings(),
    )
    text = " ".join(b["text"] for b in draft.content if b["type"] == "text")
    assert "Russian" in draft.reasoning and not any(w in text for w in ("I'll", "look up")), text


# ---- huggingface/agents-course (unit2/smolagents/code_agents.mdx): Alfred's party tools -------------------------

PARTY = [
    tool("web_search", "Runs a web search for the query and returns the top results.", {"query": string()}),
    tool(
        "suggest_menu",
        "Suggests a menu for the occasion.",
        {"occasion": string('The type of occasion. Allowed values: "casual", "formal", "superhero", "custom".')},
    ),
    tool(
        "party_theme_generator",
        "Suggests a creative party idea for a category; it returns one party theme.",
        {"category": string("The type of party (e.g., 'classic heroes', 'villain masquerade').")},
    ),
]


@pytest.mark.parametrize(
    ("question", "occasion"),
    [
        ("Prepare a formal menu for the party.", "formal"),
        ("Какое меню подойдёт для официального приёма?", "formal"),
        ("Zaproponuj menu na nieformalne spotkanie.", "casual"),
    ],
)
def test_an_allowed_value_is_sent_by_its_meaning_not_the_sentence(question, occasion):
    assert first_calls(question, PARTY) == [("suggest_menu", {"occasion": occasion})]


@pytest.mark.parametrize(
    "question", ["Give me the best playlist for a party.", "Подбери лучший плейлист для вечеринки."]
)
def test_a_tool_that_shares_only_what_the_thing_is_for_does_not_serve_it(question):
    """A party-theme tool makes no playlist: 'party' is what the playlist is for, so the web search looks it up."""
    assert [name for name, _ in first_calls(question, PARTY)] == ["web_search"]


def test_a_theme_asked_for_a_party_still_goes_to_the_theme_tool():
    calls = first_calls("Suggest a theme for a villain masquerade party.", PARTY)
    assert calls == [("party_theme_generator", {"category": "villain masquerade"})]


def test_an_unknown_place_is_sent_as_its_name_and_told_in_its_case():
    """'в Готэме' is the prepositional case: the tool gets the name (Готэм), the answer says 'в Готэме' again."""
    weather = tool("get_weather_info", "Fetches weather information for a given location.", {"location": string()})
    assert first_calls("Какая погода в Готэме?", [weather]) == [("get_weather_info", {"location": "Готэм"})]
    messages = [
        {"role": "user", "content": "Какая погода в Готэме?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "get_weather_info", "input": {"location": "Готэм"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Windy, 20°C"}]},
    ]
    body = {"model": "claude-sonnet-4-6", "max_tokens": 300, "tools": [weather], "messages": messages}
    text = " ".join(b["text"] for b in think(body, SimSettings()).content if b["type"] == "text")
    assert "в Готэме" in text and "20" in text, text
