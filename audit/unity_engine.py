"""The Unity engine: a reply's C# compiled by Mono's ``mcs`` against a UnityEngine facade
(``audit/unity/``) and run by ``mono``; the scene it builds, in the canonical frame, is the
expected side of the Unity parity tests and the engine's side of the audit
(``audit.unity_audit``).

The facade is Unity's scripting API as its reference documents it, written in C#: value types
of floats with Unity's operators, ``Quaternion.Euler`` turning about Z, then X, then Y,
Transforms with parents (``SetParent(p, worldPositionStays)``, ``lossyScale``),
``GameObject.CreatePrimitive`` with Unity's primitive sizes, components, ``Instantiate``,
``Destroy``, meshes, materials instantiated on first read. Its driver (``unity/Harness.cs``, an
assembly of its own) checks what each reply's compiled code references (``unity/ReplyCheck.cs``:
no files, processes, network, native code or reflection), runs what the Unity parser takes for
entry points and prints each GameObject: name, whether it is active and rendered, the built-in
primitive its mesh is (or the mesh's vertices), its ``localToWorldMatrix`` and its material's
colour.

Every reply of a run is compiled in ONE mcs invocation into one library, each reply in a
namespace of its own (``Reply_<case>``); the facade and the driver are compiled once
(``UnityEngine.dll``, ``UnityHarness.exe``), kept under the temp directory by content hash, with
the runs' results. A reply mcs rejects is left out of the batch (which compiles again without
it) and compiled alone, its last lines dropped one at a time and its open blocks closed
(``compilable_code``), as far as it compiles: what the model managed to write; the run says how
many lines it dropped, or why nothing compiled. ``run_unity`` runs mcs and mono on the host (the
tests' own fixtures); the audit runs the same compilation and driver in its sandbox, one process
per reply.

The expected scene reads each rendered object with the parsers' own readings of what is not a
world-space fact: the class a mesh's vertices show (``parsers.custom_mesh``), and the class a
stand-in's name gives (``parsers.unity.naming``: a Cylinder named "Cone" is a cone); the
frame change is ``parsers.build``'s. Planes and quads are the ground, as the parser reads them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from parsers.build import NativeObject, build_objects
from parsers.custom_mesh import bounding_affine, shape_from_vertices
from parsers.result import Diagnostics
from parsers.unity.naming import decide_class
from spatialbabel import Scene
from spatialbabel.geometry.bounds import primitive_aabb

Array = NDArray[np.float64]

HERE: Final = Path(__file__).resolve().parent
FACADE: Final = tuple(sorted((HERE / "unity").glob("Unity*.cs")))
#: The driver and the check it makes of each reply, compiled into ``UnityHarness.exe``.
DRIVER: Final = (HERE / "unity" / "Harness.cs", HERE / "unity" / "ReplyCheck.cs")
#: The driver's exit code for a reply the check refused.
REFUSED_EXIT: Final = 3
#: How each reply's namespace begins (the driver runs ``Reply_<case>``).
NAMESPACE: Final = "Reply_"
#: The classes of Unity's primitives; planes and quads are the ground.
PRIMITIVE_CLASSES: Final = {
    "Cube": "cube",
    "Sphere": "sphere",
    "Cylinder": "cylinder",
    "Capsule": "cylinder",
}
GROUND_PRIMITIVES: Final = frozenset({"Plane", "Quad"})
#: Unity's left-handed axes in the canonical frame's terms (as the parser composes them).
_FLIP_Z: Final = np.diag([1.0, 1.0, -1.0, 1.0])
#: The options every mcs call of the harness takes.
MCS_OPTIONS: Final = ("-nologo", "-warn:0", "-langversion:7.2", "-r:System.Core.dll")
_USING = re.compile(r"^\s*using\s+(static\s+)?[A-Za-z_][\w.]*\s*(=\s*[A-Za-z_][\w.<>, ]*)?;\s*$")
_ERROR = re.compile(r"^(?P<file>[^(\s]+)\.cs\(\d+,\d+\): error (?P<message>.*)$", re.MULTILINE)
_TYPE_DECLARATION = re.compile(r"\b(class|struct|interface|enum|record)\s+[A-Za-z_]")


def mono_available() -> bool:
    return shutil.which("mcs") is not None and shutil.which("mono") is not None


@dataclass
class UnityObject:
    """One rendered GameObject as the facade built it, read as a canonical primitive."""

    name: str
    class_name: str
    unit_to_native: Array
    rgb: tuple[float, float, float] | None
    #: World vertices in Unity's frame.
    world_vertices: Array
    #: Whether the mesh's tessellation reaches the exact shape's extremes along its axes.
    touches_extremes: bool = True


@dataclass
class UnityRun:
    name: str
    objects: list[UnityObject] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    #: Exceptions the scripts threw (Unity logs them and goes on).
    errors: list[str] = field(default_factory=list)
    #: What mcs said when no prefix of the reply compiled.
    compile_error: str = ""
    dropped_lines: int = 0
    #: What the driver's check refused before running the reply (it then ran nothing).
    refused: list[str] = field(default_factory=list)


# --- the code mono compiles -----------------------------------------------------------------------


def script_code(code: str) -> str:
    """A reply's code as a compilation unit: a snippet of methods (no type declared) becomes a
    MonoBehaviour's body, bare statements its ``Start``."""
    if _TYPE_DECLARATION.search(code):
        return code
    usings, body = _split_usings(code)
    if re.search(r"\b(void|IEnumerator|GameObject|Mesh)\s+\w+\s*\([^;{]*\)\s*\{", body):
        inner = body
    else:
        inner = "void Start() {\n" + body + "\n}"
    return "\n".join(usings) + "\npublic class Snippet : MonoBehaviour {\n" + inner + "\n}\n"


def _split_usings(code: str) -> tuple[list[str], str]:
    """The code's ``using`` directives, wherever they are (a reply of several blocks has them
    before each; they apply to the whole file), and the code without them (each becomes an
    empty line: the line numbers stay)."""
    lines = code.split("\n")
    usings: list[str] = []
    for index, line in enumerate(lines):
        if _USING.match(line):
            if line.strip() not in usings:
                usings.append(line.strip())
            lines[index] = ""
    return usings, "\n".join(lines)


def wrapped(case: str, code: str) -> str:
    """``code`` in ``namespace Reply_<case>``, its leading ``using`` directives inside (the
    line numbers stay those of the code: the namespace opens on its first line)."""
    usings, body = _split_usings(code)
    if not any(u.startswith("using UnityEngine;") for u in usings):
        usings.append("using UnityEngine;")
    return f"namespace {NAMESPACE}{case} {{ {' '.join(usings)}\n{body}\n}}\n"


def _open_blocks(code: str) -> int:
    """How many ``{`` are open at the end of ``code`` (strings, chars and comments skipped)."""
    depth = 0
    for match in re.finditer(
        r'@"(?:[^"]|"")*"|\$?"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/|[{}]',
        code,
        re.DOTALL,
    ):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
    return depth


def candidate_prefixes(code: str, limit: int = 60) -> list[tuple[str, int]]:
    """Code cut off mid-statement, as far as it may compile: the whole code with its open
    blocks closed, then without its last line, two lines... (each with its blocks closed)."""
    lines = code.rstrip().split("\n")
    found = []
    for dropped in range(min(len(lines), limit)):
        kept = "\n".join(lines[: len(lines) - dropped])
        found.append((kept + "\n" + "}" * _open_blocks(kept) + "\n", dropped))
    return found


# --- compiling and running -------------------------------------------------------------------------

#: Runs mcs with these arguments in a folder (the cases' sources there, the output written
#: there): its exit code and messages. The host's ``host_mcs``, or the audit's sandboxed one.
McsRunner = Callable[[list[str], Path], tuple[int, str]]
#: The facade's library, the driver and the replies, as the compiler sees them.
BUILD_FILES: Final = ("UnityEngine.dll", "UnityHarness.exe")


def _cache() -> Path:
    folder = Path(tempfile.gettempdir()) / "spatialbabel-unity-harness"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _digest(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:24]


@cache
def _mcs_version() -> str:
    return subprocess.run(["mcs", "--version"], capture_output=True, text=True, check=False).stdout


def _mcs(arguments: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["mcs", *MCS_OPTIONS, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def host_mcs(arguments: list[str], folder: Path) -> tuple[int, str]:
    """mcs run on the host, in ``folder``."""
    done = _mcs(arguments, folder)
    return done.returncode, done.stdout + done.stderr


def engine_folder() -> Path:
    """The folder holding ``UnityEngine.dll`` (the facade) and ``UnityHarness.exe`` (the driver,
    compiled against it; mono finds the facade beside it), built once per content."""
    sources = [p.read_text(encoding="utf-8") for p in (*FACADE, *DRIVER)]
    folder = _cache() / f"engine-{_digest(_mcs_version(), *MCS_OPTIONS, *sources)}"
    if all((folder / name).exists() for name in BUILD_FILES):
        return folder
    # Built under their own names (an assembly's name is its file's), then moved into place.
    staging = folder / f"staging-{os.getpid()}"
    staging.mkdir(parents=True, exist_ok=True)
    steps = (
        ["-target:library", f"-out:{staging / BUILD_FILES[0]}", *map(str, FACADE)],
        [f"-r:{staging / BUILD_FILES[0]}", f"-out:{staging / BUILD_FILES[1]}", *map(str, DRIVER)],
    )
    for arguments in steps:
        done = _mcs(arguments)
        if done.returncode != 0:
            raise RuntimeError(f"the Unity engine does not compile:\n{done.stdout[-4000:]}")
    for name in BUILD_FILES:
        os.replace(staging / name, folder / name)
    shutil.rmtree(staging, ignore_errors=True)
    return folder


def facade_library() -> Path:
    """``UnityEngine.dll``, compiled from the facade once per content."""
    return engine_folder() / BUILD_FILES[0]


def compile_cases(
    folder: Path, library: str, sources: dict[str, str], output: str, mcs: McsRunner
) -> dict[str, str]:
    """Compile ``sources`` (case -> wrapped code) into the library ``folder/output`` against
    the facade at ``library`` (a path as mcs sees it); the cases mcs rejects are left out (and
    the rest compiled again without them), with its messages."""
    rejected: dict[str, str] = {}
    batch = dict(sources)
    while batch:
        for case, text in batch.items():
            (folder / f"{case}.cs").write_text(text, encoding="utf-8")
        code, messages = mcs(
            ["-target:library", f"-r:{library}", f"-out:{output}", *(f"{c}.cs" for c in batch)],
            folder,
        )
        if code == 0:
            return rejected
        failing = {Path(m.group("file")).name for m in _ERROR.finditer(messages)} & set(batch)
        if not failing:
            raise RuntimeError(f"mcs failed without naming a reply:\n{messages[-4000:]}")
        for case in failing:
            rejected[case] = "; ".join(
                m.group("message")
                for m in _ERROR.finditer(messages)
                if Path(m.group("file")).name == case
            )
            del batch[case]
    return rejected


@dataclass
class Compiled:
    """Where a reply was compiled to (``assembly`` None: no prefix of it compiles)."""

    case: str
    assembly: str | None
    dropped_lines: int = 0
    compile_error: str = ""
    #: Seconds spent compiling this reply alone (after the batch rejected it).
    alone_seconds: float = 0.0


def compile_replies(
    folder: Path, library: str, prepared: dict[str, str], mcs: McsRunner, batch: str
) -> dict[str, Compiled]:
    """Compile ``prepared`` (case -> code as ``script_code`` gives it) in one mcs call into
    ``folder/<batch>.dll``; a reply mcs rejects is compiled alone without its last lines, one
    at a time, its open blocks closed, into ``folder/<case>.dll``."""
    sources = {case: wrapped(case, code) for case, code in prepared.items()}
    rejected = compile_cases(folder, library, sources, f"{batch}.dll", mcs)
    compiled = {c: Compiled(c, f"{batch}.dll") for c in sources if c not in rejected}
    for case, message in rejected.items():
        started = time.perf_counter()
        compiled[case] = Compiled(case, None, compile_error=message)
        # The whole code with its open blocks closed first: a reply cut off after a whole
        # statement keeps it (the batch compiled it with its blocks left open).
        for attempt, lines in candidate_prefixes(prepared[case]):
            alone = {case: wrapped(case, attempt)}
            if not compile_cases(folder, library, alone, f"{case}.dll", mcs):
                compiled[case] = Compiled(case, f"{case}.dll", lines)
                break
        compiled[case].alone_seconds = time.perf_counter() - started
    return compiled


def not_compiled(compiled: Compiled) -> dict[str, Any]:
    """The report of a reply no prefix of which compiles: nothing built, mcs's reason."""
    return {"objects": [], "errors": [], "compile_error": compiled.compile_error}


def run_unity(cases: Sequence[tuple[str, str]], *, cache: bool = True) -> dict[str, UnityRun]:
    """Run each ``(case, code)`` in Mono against the facade, on the host; each case's run, by
    case. ``cache`` False compiles and runs afresh (a benchmark's baseline)."""
    engine = engine_folder()
    prepared = {case: script_code(code) for case, code in cases}
    if not cache:
        fresh = _run_fresh(engine, prepared)
        return {case: read_run(case, fresh[case]) for case, _ in cases}
    key = _digest(
        engine.name,  # the facade's and the driver's own content key
        *(f"{c}\0{t}" for c, t in sorted(prepared.items())),
    )
    cached = _cache() / f"runs-{key}.json"
    if not cached.exists():
        results = _run_fresh(engine, prepared)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(results), encoding="utf-8")
        os.replace(partial, cached)
    stored: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
    return {case: read_run(case, stored[case]) for case, _ in cases}


def _run_fresh(engine: Path, prepared: dict[str, str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sb_unity_") as tmp:
        folder = Path(tmp)
        library = str(engine / BUILD_FILES[0])
        compiled = compile_replies(folder, library, prepared, host_mcs, "replies")
        answers: dict[str, Any] = {}
        by_assembly: dict[str, list[str]] = {}
        for case, item in compiled.items():
            if item.assembly is None:
                answers[case] = not_compiled(item)
            else:
                by_assembly.setdefault(item.assembly, []).append(case)
        for assembly, ran in by_assembly.items():
            _execute(engine, folder, assembly, ran, answers)
        for case, item in compiled.items():
            answers[case]["dropped_lines"] = item.dropped_lines
        return answers


def _execute(
    engine: Path, folder: Path, assembly: str, cases: list[str], answers: dict[str, Any]
) -> None:
    done = subprocess.run(
        ["mono", str(engine / BUILD_FILES[1]), str(folder / assembly), str(folder), *cases],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the Unity harness failed:\n{done.stderr[-4000:]}")
    for case in cases:
        answers[case] = json.loads((folder / f"{case}.json").read_text(encoding="utf-8"))


# --- reading the scene -------------------------------------------------------------------------------


def _box(vertices: Array) -> Array:
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    affine = np.eye(4)
    affine[:3, :3] = np.diag(hi - lo)
    affine[:3, 3] = (lo + hi) / 2
    return affine


def _touches(class_name: str, unit_to_local: Array, vertices: Array) -> bool:
    lo, hi = primitive_aabb(class_name, unit_to_local)
    scale = max(float(np.max(hi - lo)), 1e-12)
    return bool(
        np.allclose(vertices.min(axis=0), lo, atol=1e-6 * scale)
        and np.allclose(vertices.max(axis=0), hi, atol=1e-6 * scale)
    )


def read_run(case: str, answer: dict[str, Any]) -> UnityRun:
    """A harness answer as a run: each active, rendered GameObject with a mesh read as the
    canonical primitive it is."""
    run = UnityRun(
        case,
        errors=list(answer.get("errors", [])),
        compile_error=answer.get("compile_error", ""),
        dropped_lines=int(answer.get("dropped_lines", 0)),
        refused=list(answer.get("refused", [])),
    )
    for record in answer["objects"]:
        name = record["name"]
        vertices = record["vertices"]
        if not record["renderer"] or vertices is None:
            continue
        if not record["active"] or not record["enabled"]:
            run.left_out.append(f"{name}: not rendered (inactive or its renderer disabled)")
            continue
        primitive = record["primitive"]
        if primitive in GROUND_PRIMITIVES:
            run.left_out.append(f"{name}: a {primitive} is the ground")
            continue
        local = np.asarray(vertices, dtype=float).reshape(-1, 3)
        if len(local) == 0:
            run.left_out.append(f"{name}: a mesh without vertices")
            continue
        if primitive is not None:
            decision = decide_class(
                primitive, PRIMITIVE_CLASSES[primitive], _box(local), [name], []
            )
            class_name, unit_to_local = decision.class_name, decision.unit_to_local
        else:
            shape = shape_from_vertices(local, up="y")
            if shape is not None:
                class_name, unit_to_local = shape.class_name, shape.unit_to_local
            else:
                box = bounding_affine(local, up="y")
                decision = decide_class(
                    None, "unknown", box if box is not None else _box(local), [name], []
                )
                class_name, unit_to_local = decision.class_name, decision.unit_to_local
        world = np.asarray(record["matrix"], dtype=float).reshape(4, 4)
        colour = record["color"]
        rgb = (
            tuple(min(max(float(c), 0.0), 1.0) for c in colour[:3]) if colour is not None else None
        )
        run.objects.append(
            UnityObject(
                name,
                class_name,
                world @ unit_to_local @ _FLIP_Z,
                rgb,  # type: ignore[arg-type]
                local @ world[:3, :3].T + world[:3, 3],
                class_name == "unknown" or _touches(class_name, unit_to_local, local),
            )
        )
    return run


#: The engine, as a scene's ``expected_from`` names it.
ENGINE_LABEL: Final = "mono + UnityEngine facade"


def expected_scene(run: UnityRun, engine: str = ENGINE_LABEL, *, ran: str | None = None) -> Scene:
    """The canonical scene the facade built, with what was left out and what went wrong
    (``ran``: what the engine ran when it was not the reply itself, e.g. a completed twin)."""
    notes = Diagnostics()
    natives = [NativeObject(o.class_name, o.unit_to_native, o.rgb, o.name) for o in run.objects]
    objects = build_objects("unity", natives, notes)
    meta: dict[str, Any] = {"expected_from": engine if ran is None else f"{engine}, running {ran}"}
    left_out = run.left_out + [d.message for d in notes.items if d.code == "build.ground_removed"]
    if left_out:
        meta["left_out"] = left_out
    if run.dropped_lines:
        meta["engine_ran_without_last_lines"] = run.dropped_lines
    if run.errors:
        meta["engine_errors"] = run.errors
    if run.compile_error:
        meta["compile_error"] = run.compile_error
    if run.refused:
        meta["refused"] = run.refused
    return Scene(run.name, tuple(objects), meta=meta)


__all__ = [
    "Compiled",
    "UnityObject",
    "UnityRun",
    "candidate_prefixes",
    "compile_replies",
    "engine_folder",
    "expected_scene",
    "facade_library",
    "mono_available",
    "read_run",
    "run_unity",
    "script_code",
    "wrapped",
]
