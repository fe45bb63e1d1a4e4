"""Lesson scenarios as RunConfigs: languages, catalog tools and deep-merge patches."""

from __future__ import annotations

import copy
from dataclasses import asdict
from types import ModuleType
from typing import Any

from agent_core.model import RunConfig, ToolSpec, config_from_dict

LANGUAGES = ("en", "ru", "pl")
# Patched as a whole: merging {"type": "auto"} into {"type": "tool", "name": ...} would keep a stale name.
_REPLACED_WHOLE = ("tool_choice",)


class LessonError(ValueError):
    """A lesson that does not follow lessons/README.md; each problem names the file and the field."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def pick(value: Any, lang: str) -> Any:
    """A per-language object resolved to one language; anything else as it is."""
    if isinstance(value, dict) and set(value) == set(LANGUAGES):
        return value[lang]
    return value


def deep_merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Objects merge key by key; lists, strings and numbers in the patch replace the old value."""
    out = copy.deepcopy(base)
    for key, value in patch.items():
        old = out.get(key)
        if isinstance(value, dict) and isinstance(old, dict) and key not in _REPLACED_WHOLE:
            out[key] = deep_merge(old, value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def tools_catalog() -> ModuleType:
    """The tools catalog module."""
    # Imported late: the tools package must not be needed just to read lesson texts.
    from agent_core.tools import catalog

    return catalog


def catalog_spec(name: str) -> ToolSpec | None:
    """The catalog tool with this name, or None."""
    catalog = tools_catalog()
    names = catalog.CATALOG if isinstance(catalog.CATALOG, dict) else {getattr(s, "name", s) for s in catalog.CATALOG}
    if name not in names:
        return None
    specs = catalog.default_specs([name])
    return copy.deepcopy(specs[0]) if specs else None


def resolve_tool(entry: str | dict[str, Any], lang: str) -> ToolSpec:
    """A catalog name or a (partial) tool spec turned into a ToolSpec; missing fields come from the catalog."""
    if isinstance(entry, str):
        spec = catalog_spec(entry)
        if spec is None:
            raise KeyError(f"unknown catalog tool {entry!r}")
        return spec
    impl = entry.get("impl") or entry["name"]
    base = catalog_spec(impl)
    if base is None:
        raise KeyError(f"unknown catalog tool {impl!r}")
    data = {**asdict(base), "impl": impl, **{k: pick(v, lang) for k, v in entry.items()}}
    return ToolSpec(**data)


def resolve_scenario(scenario: dict[str, Any], lang: str) -> dict[str, Any]:
    """Texts in one language; tool entries left as written."""
    data = copy.deepcopy(scenario)
    for key in ("task", "system"):
        if key in data:
            data[key] = pick(data[key], lang)
    data["tools"] = [pick_tool(t, lang) for t in data.get("tools", [])]
    data["language"] = lang
    return data


def pick_tool(entry: str | dict[str, Any], lang: str) -> str | dict[str, Any]:
    """A tool entry with its description in one language."""
    if isinstance(entry, dict) and "description" in entry:
        return {**entry, "description": pick(entry["description"], lang)}
    return entry


def build_config(scenario: dict[str, Any], lang: str) -> RunConfig:
    """A scenario (already patched) in one language as a RunConfig."""
    data = resolve_scenario(scenario, lang)
    data["tools"] = [asdict(resolve_tool(t, lang)) for t in data["tools"]]
    # The sandbox stays a catalog name: the loop resolves it with catalog.sandbox_path when it runs.
    return config_from_dict(data)


def as_list(value: Any) -> list[Any]:
    """A value as a list (a single item becomes a one-item list)."""
    return value if isinstance(value, list) else [value]


def text_problems(item: dict[str, Any], keys: tuple[str, ...], at: str) -> list[str]:
    """'at.key: needs a text in en, ru and pl' for each key of an item that is not a full per-language text."""
    return [
        f"{at}.{key}: needs a text in en, ru and pl"
        for key in keys
        if not (
            isinstance(item.get(key), dict)
            and all(isinstance(item[key].get(x), str) and item[key][x] for x in LANGUAGES)
        )
    ]


def entries(raw: Any, where: str, keys: tuple[str, ...]) -> list[tuple[str, dict[str, Any], list[str]]]:
    """A lesson's list of objects as (where, item, problems so far): not an object, or an unknown key."""
    out: list[tuple[str, dict[str, Any], list[str]]] = []
    for n, item in enumerate(raw if isinstance(raw, list) else []):
        at = f"{where}[{n}]"
        if not isinstance(item, dict):
            out.append((at, {}, [f"{at}: must be an object"]))
            continue
        out.append((at, item, [f"{at}: unknown key {k!r}" for k in item if k not in keys]))
    return out
