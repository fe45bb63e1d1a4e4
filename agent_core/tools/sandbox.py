"""The folder the file tools may see: path checks, reading, listing, and deletes that only touch a private copy."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

SANDBOXES_DIR = Path(__file__).parent / "sandboxes"
DEFAULT_SANDBOX = "default"
READ_LIMIT = 20 * 1024
LIST_LIMIT = 200
# A user-chosen sandbox is copied before the first delete; refuse to copy something huge.
COPY_MAX_FILES = 1000
COPY_MAX_BYTES = 50 * 1024 * 1024
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def bundled_sandboxes() -> list[str]:
    """Names of the sandbox folders shipped with the app."""
    return sorted(p.name for p in SANDBOXES_DIR.iterdir() if p.is_dir())


def sandbox_path(name: str | Path) -> Path:
    """A bundled sandbox by name ("default", "injection"), or a folder path given as it is."""
    text = str(name)
    if _NAME.match(text):
        candidate = SANDBOXES_DIR / text
        if candidate.is_dir():
            return candidate
        if not Path(text).exists():
            raise ValueError(f"unknown sandbox {text!r}; bundled sandboxes: {', '.join(bundled_sandboxes())}")
    return Path(text).expanduser()


class Sandbox:
    """A run's view of its sandbox folder; the first delete switches it to a private temporary copy."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.original = sandbox_path(folder) if folder is not None else SANDBOXES_DIR / DEFAULT_SANDBOX
        self._copy: tempfile.TemporaryDirectory | None = None
        self.root = self.original

    # -- paths ------------------------------------------------------------------------------
    def _base(self) -> Path:
        if not self.root.is_dir():
            raise FileNotFoundError(f"the sandbox folder {str(self.root)!r} does not exist, so there are no files.")
        return self.root.resolve()

    def resolve(self, path: str) -> Path:
        """The file a relative path names, refusing anything that could leave the sandbox."""
        if not isinstance(path, str) or not path.strip():
            raise ValueError("the path is empty; give a file name relative to the sandbox, e.g. 'app.log'.")
        if "\x00" in path:
            raise ValueError("the path contains a NUL character.")
        text = path.strip().replace("\\", "/")
        if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
            raise PermissionError(
                f"absolute paths are not allowed ({path!r}); use a path relative to the sandbox, e.g. 'app.log'."
            )
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if ".." in parts:
            raise PermissionError(f"'..' is not allowed in {path!r}; only files inside the sandbox can be used.")
        if not parts:
            raise ValueError(f"{path!r} names the sandbox folder itself; give a file name, e.g. 'app.log'.")
        base = self._base()
        candidate = base.joinpath(*parts)
        # resolve() follows symbolic links, so a link pointing outside is caught here.
        if not candidate.resolve().is_relative_to(base):
            raise PermissionError(f"{path!r} points outside the sandbox (a symbolic link); refused.")
        return candidate

    def _existing_file(self, path: str) -> Path:
        candidate = self.resolve(path)
        if candidate.is_dir():
            raise IsADirectoryError(f"{path!r} is a folder, not a file. Files in the sandbox: {self._names()}.")
        if not candidate.is_file():
            raise FileNotFoundError(f"no file {path!r} in the sandbox. Available files: {self._names()}.")
        return candidate

    # -- reading ----------------------------------------------------------------------------
    def files(self) -> list[tuple[str, int]]:
        """(relative path, size in bytes) of every file inside the sandbox, sorted, at most LIST_LIMIT."""
        base = self._base()
        found: list[tuple[str, int]] = []
        for folder, dirs, names in os.walk(base):
            dirs.sort()
            for name in sorted(names):
                full = Path(folder) / name
                if full.is_file() and full.resolve().is_relative_to(base):
                    found.append((full.relative_to(base).as_posix(), full.stat().st_size))
                if len(found) >= LIST_LIMIT:
                    return found
        return found

    def _names(self) -> str:
        try:
            names = [name for name, _ in self.files()]
        except OSError:
            return "none"
        return ", ".join(names) if names else "none (the sandbox is empty)"

    def read(self, path: str) -> str:
        """A file's text, cut at READ_LIMIT bytes with a note saying so."""
        target = self._existing_file(path)
        size = target.stat().st_size
        with open(target, "rb") as handle:
            data = handle.read(READ_LIMIT)
        text = data.decode("utf-8", errors="replace")
        if size > READ_LIMIT:
            text += f"\n\n[truncated: showing the first {READ_LIMIT // 1024} KB of {size} bytes]"
        return text

    def listing(self) -> str:
        """One line per file: relative path and size."""
        found = self.files()
        if not found:
            return "The sandbox is empty."
        lines = [f"{name} ({size} bytes)" for name, size in found]
        if len(found) >= LIST_LIMIT:
            lines.append(f"[listing stopped at {LIST_LIMIT} files]")
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
                raise OSError("the sandbox is too large to make a private copy for changes; nothing was deleted.")
        self._copy = tempfile.TemporaryDirectory(prefix="agent-loop-lab-sandbox-")
        copy_root = Path(self._copy.name) / "sandbox"
        shutil.copytree(self._base(), copy_root, symlinks=True)
        self.root = copy_root

    def delete(self, path: str) -> str:
        """Delete a file from this run's private copy of the sandbox."""
        self.resolve(path)  # refuse bad paths before copying anything
        self._writable()
        target = self._existing_file(path)
        target.unlink()  # on a symbolic link this removes the link, never what it points to
        return target.relative_to(self._base()).as_posix()

    @property
    def is_copy(self) -> bool:
        return self._copy is not None

    def close(self) -> None:
        """Remove the private copy, if one was made."""
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None
            self.root = self.original
