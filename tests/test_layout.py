"""The structure ARCHITECTURE.md describes: every module named there, no import circle, agent_core free of Streamlit and lab_ui,
small modules.

Every module of agent_core and lab_ui is parsed (imports inside functions count: they run too, only later).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agent_core", "lab_ui")
MAX_LINES = 450

# agent_core -> lab_ui arrows that are allowed, with the reason. Keep this short; every entry is a debt.
ALLOWED_UP = {
    ("agent_core.cli", "lab_ui.words.catalogue"): (
        "the command line prints decisions and stop causes in the app's English words; imported inside the "
        "function that prints, and the catalogue's own imports reach no Streamlit (test_catalogue_needs_no_streamlit)"
    ),
}
# Modules longer than MAX_LINES, with the reason. None today.
LONG_MODULES: dict[str, str] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _top_level(tree: ast.Module) -> list[ast.AST]:
    """The nodes that run when the module is imported: everything outside function bodies."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _imports(name: str, path: Path, *, at_import: bool = False) -> set[str]:
    """Every module `name` imports, at the top or inside a function (only at the top with `at_import`), resolved to
    the modules of this project (and external top-level names such as `streamlit`)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _top_level(tree) if at_import else ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in MODULES else base)
    resolved = set()
    for target in targets:
        while target not in MODULES and "." in target and target.split(".")[0] in PACKAGES:
            target = target.rpartition(".")[0]  # `import agent_core.x.Y` names a module's attribute
        resolved.add(target)
    return resolved - {name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}
AT_IMPORT = {name: _imports(name, path, at_import=True) for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH.get(node, ()):
            if nxt not in MODULES:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in MODULES:
        if name not in index:
            visit(name)
    return found


def test_the_parser_sees_imports_inside_functions():
    """The check would be blind without this: i18n used to reach the session from inside a function."""
    assert "agent_core.loop.stepper" in GRAPH["agent_core.cli"]
    assert "lab_ui.words.catalogue" in GRAPH["agent_core.cli"]  # imported inside catalogue()
    assert "lab_ui.words.catalogue" not in AT_IMPORT["agent_core.cli"]
    assert "streamlit" in AT_IMPORT["lab_ui.frame.url_state"]


def test_no_import_circle():
    assert _cycles() == []


def test_agent_core_imports_no_streamlit_and_no_lab_ui():
    wrong = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if name.startswith("agent_core")
        for target in targets
        if target.split(".")[0] in ("streamlit", "lab_ui") and (name, target) not in ALLOWED_UP
    )
    assert wrong == []


def test_catalogue_needs_no_streamlit():
    """Importing what the command line borrows from lab_ui imports no Streamlit, however deep (its functions may:
    i18n asks Streamlit for the tab's language only inside a run)."""
    seen: set[str] = set()
    todo = ["lab_ui.words.catalogue"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        assert not name.startswith("streamlit"), f"the catalogue reaches streamlit: {sorted(seen)}"
        if name in MODULES:
            todo.extend(AT_IMPORT[name])


def test_modules_stay_small():
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text().splitlines())) > MAX_LINES and name not in LONG_MODULES
    }
    assert long == {}


def test_every_folder_is_a_package_with_a_docstring():
    """A newcomer finds a room by its name: every folder of code says what it holds in one line."""
    for package in PACKAGES:
        for folder in (ROOT / package).rglob("*"):
            if folder.is_dir() and any(folder.glob("*.py")):
                init = folder / "__init__.py"
                assert init.exists(), f"{folder} has modules but no __init__.py"
                assert ast.get_docstring(ast.parse(init.read_text())), f"{init} has no docstring"


# Folders ARCHITECTURE.md describes as a whole, not file by file (each has its own account: sim/BEHAVIOUR.md).
DESCRIBED_WHOLE = ("agent_core/sim", "agent_core/recorder", "agent_core/examples")


def test_architecture_md_names_every_module_and_every_module_it_names_exists():
    """The tree matches ARCHITECTURE.md: a module added, moved or removed shows up here, not in a newcomer's hunt."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/.]*?\w+\.py)`", text))
    paths = [p.relative_to(ROOT) for p in MODULES.values() if p.name not in ("__init__.py", "__main__.py")]
    unnamed = [
        str(p) for p in paths if not str(p).startswith(DESCRIBED_WHOLE) and p.name not in {Path(n).name for n in named}
    ]
    assert unnamed == [], "modules ARCHITECTURE.md does not name"
    names = {p.name for p in MODULES.values()}
    names |= {p.name for folder in (".", "pages", "benchmarks", "tests") for p in (ROOT / folder).glob("*.py")}
    gone = sorted(Path(n).name for n in named if Path(n).name not in names)
    assert gone == [], "names ARCHITECTURE.md gives no module"
