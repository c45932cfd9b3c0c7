"""A split's ``manifest.json`` (parameters, versions, counts, content hashes) and its check.

The manifest lists every file of the split except itself, with its sha256; ``verify_split``
reports each file that is missing, extra (including stray ``.tmp`` files of an interrupted
write) or whose bytes changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel import __version__
from spatialbabel.files import FileFormatError, read_json, sha256_file

MANIFEST: Final = "manifest.json"
KIND: Final = "spatialbabel-split"


def split_files(root: Path) -> list[str]:
    """Every file under ``root`` but the manifest, as sorted POSIX paths relative to it."""
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and path.name != MANIFEST
    )


def file_hashes(root: Path, relative: Iterable[str]) -> dict[str, str]:
    return {name: sha256_file(root / name) for name in sorted(relative)}


def build_manifest(
    *,
    generator: dict[str, str],
    blender_versions: Iterable[str],
    parameters: dict[str, Any],
    counts: dict[str, Any],
    files: dict[str, str],
) -> dict[str, Any]:
    return {
        "kind": KIND,
        "generator": {**generator, "spatialbabel": __version__},
        "blender_version": ", ".join(sorted(set(blender_versions))),
        "parameters": parameters,
        "counts": counts,
        "files": files,
    }


@dataclass(frozen=True)
class Problem:
    kind: str  # "missing", "extra" or "corrupt"
    path: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.path}"


def verify_split(root: Path) -> list[Problem]:
    """Every difference between the split's files and its manifest (empty when it verifies).
    A missing or unreadable manifest raises ``FileFormatError`` naming it."""
    manifest = read_json(root / MANIFEST)
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise FileFormatError(root / MANIFEST, "files: expected an object of path -> sha256")
    present = set(split_files(root))
    problems = [Problem("missing", name) for name in sorted(files) if name not in present]
    problems += [Problem("extra", name) for name in sorted(present - set(files))]
    problems += [
        Problem("corrupt", name)
        for name in sorted(files)
        if name in present and sha256_file(root / name) != files[name]
    ]
    return sorted(problems, key=lambda p: (p.path, p.kind))
