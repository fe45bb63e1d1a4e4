"""The folder the file tools may see: path checks, reading, listing, and deletes that only touch a private copy."""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent_core.tools.texts import Said, error, render, said

SANDBOXES_DIR = Path(__file__).parent / "sandboxes"
DEFAULT_SANDBOX = "default"
READ_LIMIT = 20 * 1024
LIST_LIMIT = 200
# A user-chosen sandbox is copied before the first delete; refuse to copy something huge.
COPY_MAX_FILES = 1000
COPY_MAX_BYTES = 50 * 1024 * 1024
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; the app runs on Linux and macOS


def bundled_sandboxes() -> list[str]:
    """Names of the sandbox folders shipped with the app."""
    return sorted(p.name for p in SANDBOXES_DIR.iterdir() if p.is_dir())


def sandbox_path(name: str | Path) -> Path:
    """A bundled sandbox by name ("default", "injection"); a Path object (given by code, e.g. a test) as it is.

    A string that is not a bundled sandbox is refused: a name may come from a run file or a lesson, and the
    folder the file tools read is always the app's own, never one a file chose (such as "/")."""
    if isinstance(name, Path):
        return name.expanduser()
    text = str(name)
    if _NAME.match(text) and (SANDBOXES_DIR / text).is_dir():
        return SANDBOXES_DIR / text
    candidate = Path(text).expanduser()
    if candidate.is_absolute() and candidate.parent.resolve() == SANDBOXES_DIR.resolve() and candidate.is_dir():
        return SANDBOXES_DIR / candidate.name  # a bundled sandbox written out as its full path
    raise ValueError(f"unknown sandbox {text!r}; bundled sandboxes: {', '.join(bundled_sandboxes())}")


class Sandbox:
    """A run's view of its sandbox folder; the first delete switches it to a private temporary copy."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.original = sandbox_path(folder) if folder is not None else SANDBOXES_DIR / DEFAULT_SANDBOX
        self._copy: tempfile.TemporaryDirectory[str] | None = None
        self.root = self.original

    # -- paths ------------------------------------------------------------------------------
    def _base(self) -> Path:
        if not self.root.is_dir():
            raise error(FileNotFoundError, "sandbox.missing_folder", folder=repr(str(self.root)))
        return self.root.resolve()

    def resolve(self, path: str) -> Path:
        """The file a relative path names, refusing anything that could leave the sandbox."""
        if not isinstance(path, str) or not path.strip():
            raise error(ValueError, "sandbox.empty_path")
        if "\x00" in path:
            raise error(ValueError, "sandbox.nul")
        text = path.strip().replace("\\", "/")
        if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
            raise error(PermissionError, "sandbox.absolute", path=repr(path))
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if ".." in parts:
            raise error(PermissionError, "sandbox.dotdot", path=repr(path))
        if not parts:
            raise error(ValueError, "sandbox.root", path=repr(path))
        return self._base().joinpath(*parts)

    def _parts(self, path: str) -> list[str]:
        return list(self.resolve(path).relative_to(self._base()).parts)

    @contextmanager
    def _parent_fd(self, path: str) -> Iterator[tuple[int, str]]:
        """(descriptor of the folder holding the file, the file's name), reached without following any link.

        Each folder is opened relative to the one before with O_NOFOLLOW, so a link swapped in between a check
        and the open cannot lead outside: there is no check-then-open gap to race."""
        parts = self._parts(path)
        fd = os.open(self._base(), os.O_RDONLY | os.O_DIRECTORY)
        try:
            for part in parts[:-1]:
                try:
                    nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=fd)
                except FileNotFoundError:
                    raise error(FileNotFoundError, "sandbox.not_found", path=repr(path), files=self._names()) from None
                except OSError as exc:
                    raise error(PermissionError, "sandbox.through_link", path=repr(path)) from exc
                os.close(fd)
                fd = nxt
            yield fd, parts[-1]
        finally:
            os.close(fd)

    def _check_regular(self, path: str, fd: int, name: str) -> os.stat_result:
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            raise error(FileNotFoundError, "sandbox.not_found", path=repr(path), files=self._names()) from None
        if stat.S_ISLNK(info.st_mode):
            raise error(PermissionError, "sandbox.link", path=repr(path))
        if stat.S_ISDIR(info.st_mode):
            raise error(IsADirectoryError, "sandbox.folder", path=repr(path), files=self._names())
        if not stat.S_ISREG(info.st_mode):
            raise error(PermissionError, "sandbox.special", path=repr(path))
        return info

    # -- reading ----------------------------------------------------------------------------
    def files(self) -> list[tuple[str, int]]:
        """(relative path, size in bytes) of every regular file inside the sandbox, sorted, at most LIST_LIMIT.

        Links are neither listed nor followed (os.walk does not descend into linked folders)."""
        base = self._base()
        found: list[tuple[str, int]] = []
        for folder, dirs, names in os.walk(base):
            dirs.sort()
            for name in sorted(names):
                full = Path(folder) / name
                info = full.lstat()
                if stat.S_ISREG(info.st_mode):
                    found.append((full.relative_to(base).as_posix(), info.st_size))
                if len(found) >= LIST_LIMIT:
                    return found
        return found

    def _names(self) -> str | Said:
        try:
            names = [name for name, _ in self.files()]
        except OSError:
            return said("sandbox.none")
        return ", ".join(names) if names else said("sandbox.none_empty")

    def read(self, path: str, lang: str = "en") -> str:
        """A file's text, cut at READ_LIMIT bytes with a note saying so in lang (opened without following links)."""
        with self._parent_fd(path) as (folder, name):
            self._check_regular(path, folder, name)
            try:  # O_NONBLOCK: a pipe swapped in after the check must not hang the tool
                fd = os.open(name, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
            except OSError as exc:
                raise error(PermissionError, "sandbox.changed", path=repr(path)) from exc
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise error(PermissionError, "sandbox.not_regular", path=repr(path))
            data = handle.read(READ_LIMIT)
        size = info.st_size
        text = data.decode("utf-8", errors="replace")
        if size > READ_LIMIT:
            text += "\n\n" + render(said("sandbox.truncated", kb=READ_LIMIT // 1024, size=size), lang)
        return text

    def listing(self, lang: str = "en") -> str:
        """One line per file: relative path and size, in lang."""
        found = self.files()
        if not found:
            return render(said("sandbox.empty"), lang)
        lines = [render(said("sandbox.file_line", name=name, size=size), lang) for name, size in found]
        if len(found) >= LIST_LIMIT:
            lines.append(render(said("sandbox.list_stopped", limit=LIST_LIMIT), lang))
        return "\n".join(lines)

    # -- writing ----------------------------------------------------------------------------
    def _writable(self) -> None:
        """Copy the sandbox to a temporary folder once, so deletes never touch the original files."""
        if self._copy is not None:
            return
        count = size = 0
        for folder, _, names in os.walk(self._base()):
            count += len(names)
            size += sum((Path(folder) / n).lstat().st_size for n in names)
            if count > COPY_MAX_FILES or size > COPY_MAX_BYTES:
                raise error(OSError, "sandbox.too_large")
        self._copy = tempfile.TemporaryDirectory(prefix="agent-loop-lab-sandbox-")
        copy_root = Path(self._copy.name) / "sandbox"
        shutil.copytree(self._base(), copy_root, symlinks=True)
        self.root = copy_root

    def delete(self, path: str) -> str:
        """Delete a file from this run's private copy of the sandbox (a link is refused, never followed)."""
        self.resolve(path)  # refuse bad paths before copying anything
        self._writable()
        with self._parent_fd(path) as (folder, name):
            self._check_regular(path, folder, name)
            os.unlink(name, dir_fd=folder)  # unlink never follows a link in its last component
        return "/".join(self._parts(path))

    def close(self) -> None:
        """Remove the private copy, if one was made."""
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None
            self.root = self.original
