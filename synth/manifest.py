"""A split's ``manifest.json`` (parameters, versions, counts, content hashes) and its check;
a clip set (``synth.clips``) has the same manifest, of kind ``spatialbabel-clips``.

The manifest lists every file of the split except itself, with its sha256; ``verify_split``
reports each file that is missing, extra (including stray ``.tmp`` files of an interrupted
write) or whose bytes changed, and each scene whose stacking facts do not hold: a ``parent``
that names no object or makes a cycle, an object that neither stands on the ground nor rests
fully on its parent's flat top (``synth.stacking``), or a stacked object in a split made
without stacking.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from spatialbabel import Scene, __version__
from spatialbabel.errors import SceneValidationError
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
    kind: str = KIND,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "generator": {**generator, "spatialbabel": __version__},
        "blender_version": ", ".join(sorted(set(blender_versions))),
        "parameters": parameters,
        "counts": counts,
        "files": files,
    }


@dataclass(frozen=True)
class SplitProblem:
    kind: str  # "missing", "extra", "corrupt" or "invalid" (a scene breaking its facts)
    path: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.kind}: {self.path}" + (f": {self.detail}" if self.detail else "")


def scene_problems(root: Path, name: str, stacked: bool) -> list[SplitProblem]:
    """The stacking facts of one scene file of the split (``stacked``: whether the split was
    made with stacking, so objects may have a parent)."""
    from synth.stacking import attachment_problems

    try:
        scene = Scene.load(root / name)
    except SceneValidationError as error:
        # The path is in the SplitProblem already; keep the field and what is wrong with it.
        detail = f"{error.field}: {error.problem}" if error.field else error.problem
        return [SplitProblem("invalid", name, detail)]
    if scene.domain == "open":
        return []  # real scenes (spatialbabel import): objects rest on tables, shelves, walls
    problems = [SplitProblem("invalid", name, text) for text in attachment_problems(scene)]
    if not stacked:
        problems += [
            SplitProblem(
                "invalid", name, f"{o.id} rests on {o.parent} in a split made without stacking"
            )
            for o in scene.objects
            if o.parent is not None
        ]
    return problems


def verify_split(root: Path) -> list[SplitProblem]:
    """Every difference between the split's files and its manifest (empty when it verifies).
    A missing or unreadable manifest raises ``FileFormatError`` naming it."""
    manifest = read_json(root / MANIFEST)
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise FileFormatError(root / MANIFEST, "files: expected an object of path -> sha256")
    present = set(split_files(root))
    problems = [SplitProblem("missing", name) for name in sorted(files) if name not in present]
    problems += [SplitProblem("extra", name) for name in sorted(present - set(files))]
    problems += [
        SplitProblem("corrupt", name)
        for name in sorted(files)
        if name in present and sha256_file(root / name) != files[name]
    ]
    parameters = manifest.get("parameters")
    stacked = isinstance(parameters, dict) and bool(parameters.get("stack_prob", 0))
    for name in sorted(files):
        if name.startswith("scenes/") and name.endswith(".json") and name in present:
            problems += scene_problems(root, name, stacked)
    return sorted(problems, key=lambda p: (p.path, p.kind))
