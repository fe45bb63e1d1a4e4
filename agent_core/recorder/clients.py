"""Which program made a request, read from its User-Agent and the Stainless SDKs' x-stainless-* headers."""

from __future__ import annotations

import re
from collections.abc import Mapping

# (User-Agent pattern, name): the first that matches names the client; the version is the first group if any.
_AGENTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"claude-cli/([\w.\-]+)"), "Claude Code"),
    (re.compile(r"claude-agent-sdk[-/ ]?(?:py|python|ts)?/?([\w.\-]*)", re.I), "Claude Agent SDK"),
    (re.compile(r"litellm/([\w.\-]+)", re.I), "litellm"),
    (re.compile(r"langchain[-_]anthropic/?([\w.\-]*)", re.I), "LangChain"),
    (re.compile(r"pydantic-ai/([\w.\-]+)", re.I), "pydantic-ai"),
    (re.compile(r"ai-sdk/anthropic/([\w.\-]+)", re.I), "Vercel AI SDK"),
    (re.compile(r"llm-anthropic/?([\w.\-]*)", re.I), "llm"),
    (re.compile(r"OpenAI/Python ([\w.\-]+)"), "OpenAI Python SDK"),
    (re.compile(r"OpenAI/JS ([\w.\-]+)"), "OpenAI JS SDK"),
    (re.compile(r"Anthropic/Python ([\w.\-]+)"), "Anthropic Python SDK"),
    (re.compile(r"Anthropic/JS ([\w.\-]+)"), "Anthropic TypeScript SDK"),
    (re.compile(r"^curl/([\w.\-]+)"), "curl"),
    (re.compile(r"python-httpx/([\w.\-]+)"), "httpx"),
    (re.compile(r"python-requests/([\w.\-]+)"), "requests"),
    (re.compile(r"^node(?:-fetch)?(?:/([\w.\-]+))?"), "Node.js fetch"),
)
_LANGS = {"python": "Python", "js": "TypeScript"}


def client_name(headers: Mapping[str, str]) -> str:
    """A short name with version ("Claude Code 2.1.197", "Anthropic Python SDK 2.15.0"), or "" when unknown."""
    lower = {k.lower(): v for k, v in headers.items()}
    agent = lower.get("user-agent", "")
    for pattern, name in _AGENTS:
        match = pattern.search(agent)
        if match:
            version = next((g for g in match.groups() if g), "")
            return f"{name} {version}".strip()
    lang = lower.get("x-stainless-lang", "").lower()
    if lang:
        package = lower.get("x-stainless-package-version", "")
        return f"Stainless SDK ({_LANGS.get(lang, lang)}) {package}".strip()
    return agent.split(" ", 1)[0][:40]
