"""Generated programs (``tests.generated.programs``) held to their real engines: each program
runs in the engine the audit runs it in (node + three, Mono + the UnityEngine facade, bpy,
open3d; in the audit's sandbox, through ``audit.engines``), and the scene the parser reads from
the same code must be the scene the engine built: the engine tests' exact comparison
(``compare_scenes``: count, class, colour, the exact primitive's world box within 1e-6, 2e-6
where the engine computes in floats), stricter than the audit's 1% criterion. The engine must
also have built the drawn scene (by the audit's criterion), so that a failure is the parser's,
not the generator's.

CI draws a fixed set (the ``ci`` hypothesis profile: derandomized); a local run draws new
programs each time, and ``SPATIALBABEL_GENERATED_EXAMPLES`` raises the number per language
(default 20). A program the parser reads apart from its engine is kept as a fixture
(``fixtures/<language>/<case>.txt``, its expected scene from ``tests/engines/make_expected.py``)
and the parser fixed (docs/evaluator.md, "Generated programs").
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.agreement import compare
from audit.engines import Engine, Session, find_engine
from audit.pipeline import read_replies
from audit.sandbox import Limits, Sandbox
from parsers import parse
from parsers.extract import extract_code
from spatialbabel import Scene
from tests.engines.fixture_runs import compare_scenes
from tests.generated.programs import LANGUAGES, Program, programs, seeded_programs
from tests.generated.write_predictions import main as write_predictions

EXAMPLES = int(os.environ.get("SPATIALBABEL_GENERATED_EXAMPLES", "20"))
#: The exact comparison's tolerance per engine: bpy and the Unity facade compute in floats.
TOLERANCE = {"threejs": 1e-6, "open3d": 1e-6, "blender": 2e-6, "unity": 2e-6}
#: Every program runs under these limits (the audit's defaults are tighter per reply; a
#: generated program is never hostile, and the machine may be loaded).
LIMITS = Limits(seconds=60.0)


class Engines:
    """The audit's engine sessions, opened once per language for the module."""

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[Engine, Session]] = {}
        self.runs = 0

    def build(self, program: Program) -> Scene:
        language = program.reply_language
        if language not in self.sessions:
            engine = find_engine(language)
            assert not isinstance(engine, str), engine
            if engine.missing() is not None:
                pytest.skip(str(engine.missing()))
            self.sessions[language] = (engine, engine.open(Sandbox(LIMITS)))
        engine, session = self.sessions[language]
        self.runs += 1
        code = extract_code(program.text, language).code
        outcome = session.run(f"{program.language}-{self.runs}", code)
        assert outcome.status == "ran" and outcome.result is not None, (outcome, program.text)
        read = engine.read(outcome.result, program.scene.scene_id, session.name)
        assert read.error is None, (read.error, program.text)
        return read.scene

    def close(self) -> None:
        for _, session in self.sessions.values():
            session.close()


@pytest.fixture(scope="module")
def engines() -> Iterator[Engines]:
    opened = Engines()
    yield opened
    opened.close()


def check(program: Program, engines: Engines) -> None:
    built = engines.build(program)
    # The program builds the scene it was drawn from (else the generator is wrong).
    drawn = compare(built, program.scene)
    assert drawn.agrees, f"the engine did not build the drawn scene: {drawn.diff}\n{program.text}"
    parsed = parse(program.text, program.reply_language, scene_id=program.scene.scene_id)
    codes = {d.code for d in parsed.diagnostics}
    assert "parse.internal" not in codes, [str(d) for d in parsed.diagnostics]
    found = compare_scenes(parsed.scene, built, tolerance=TOLERANCE[program.reply_language])
    assert found == [], (
        found,
        [str(d) for d in parsed.diagnostics if d.severity != "info"],
        program.idioms.names(),
        program.text,
    )


_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.node
@_SETTINGS
@given(data=st.data())
def test_threejs_programs_read_as_three_builds_them(engines: Engines, data: st.DataObject) -> None:
    check(data.draw(programs("threejs")), engines)


@pytest.mark.node
@_SETTINGS
@given(data=st.data())
def test_typescript_programs_read_as_three_builds_them(
    engines: Engines, data: st.DataObject
) -> None:
    check(data.draw(programs("typescript")), engines)


@pytest.mark.mono
@_SETTINGS
@given(data=st.data())
def test_unity_programs_read_as_mono_builds_them(engines: Engines, data: st.DataObject) -> None:
    check(data.draw(programs("unity")), engines)


@pytest.mark.bpy
@_SETTINGS
@given(data=st.data())
def test_blender_programs_read_as_bpy_builds_them(engines: Engines, data: st.DataObject) -> None:
    pytest.importorskip("bpy")
    check(data.draw(programs("blender")), engines)


@pytest.mark.open3d
@_SETTINGS
@given(data=st.data())
def test_open3d_programs_read_as_open3d_builds_them(engines: Engines, data: st.DataObject) -> None:
    pytest.importorskip("open3d")
    check(data.draw(programs("open3d")), engines)


# --- the generator itself ------------------------------------------------------------------------

#: Text each language's programs must hold somewhere in a seeded set: the idioms are written.
IDIOM_TEXT = {
    "threejs": (
        "switch (kind) {",
        "const makers = {",
        "function* specs()",
        "for (const o of objects)",
        ".clone();",
        "applyMatrix4(",
        "group.add(",
        "new THREE.Float32BufferAttribute(vertices, 3)",
        "quaternion.setFromEuler(",
    ),
    "typescript": (
        "interface Spec {",
        "enum Shape {",
        "function make(kind: Kind, s: Vec3): THREE.BufferGeometry {",
        "as const",
        "case Shape.Box:",
        ": Spec[]",
    ),
    "unity": (
        "switch (shape)",
        "new Dictionary<Shape, Func<GameObject>>",
        "Instantiate(template)",
        "Vector3 s = t.localScale;",
        "SetParent(group.transform, false)",
        "Matrix4x4.TRS(",
        "yield return new Spec(",
        "struct Spec",
        "ColorUtility.TryParseHtmlString(",
        "mesh.vertices = vertices.ToArray();",
    ),
    "blender": (
        "match kind:",
        'case "cube" | "box":',
        "MAKERS = {",
        "@dataclass",
        "yield Spec(*row)",
        "np.array([",
        ".copy()",
        "obj.parent = parent",
        "Matrix.Translation(location)",
        "mesh.from_pydata(verts, [], faces)",
        "obj.dimensions = (w, d, h)",
    ),
    "open3d": (
        "match kind:",
        "MAKERS = {",
        "class Spec(NamedTuple):",
        "copy.deepcopy(",
        "o3d.geometry.TriangleMesh(templates[kind])",
        "mesh.transform(GROUP)",
        "get_rotation_matrix_from_quaternion(",
        "zip(KINDS, SIZES, CENTERS)",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_seeded_set_uses_every_idiom(language: str) -> None:
    made = seeded_programs(language, 40, seed=0)
    text = "\n".join(p.text for p in made)
    missing = [idiom for idiom in IDIOM_TEXT[language] if idiom not in text]
    assert missing == []
    used = Counter(name for p in made for name in p.idioms.names())
    for family in ("layout", "dispatch", "sizing", "angles", "ground"):
        assert any(name.startswith(family + ":") for name in used), family
    assert {"procedural", "parented", "matrix"} <= set(used)
    classes = {o.class_name for p in made for o in p.scene.objects}
    assert classes == {"cube", "sphere", "cylinder", "cone", "pyramid", "torus"}
    assert any(any(o.rotation[0] or o.rotation[2] for o in p.scene.objects) for p in made)
    # The same seed, the same programs.
    assert [p.text for p in seeded_programs(language, 3, seed=0)] == [p.text for p in made[:3]]


def test_the_predictions_file_is_seeded_and_reads_back(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert write_predictions(["--per-language", "3", "--out", str(path), "--seed", "5"]) == 0
    assert first.read_bytes() == second.read_bytes()
    replies = read_replies(first)
    by_language = Counter(r.output.language for r in replies)
    assert by_language == {"threejs": 3, "unity": 3, "blender": 3, "open3d": 3}
    fences = [json.loads(line)["output"].split("```")[1].split("\n")[0] for line in first.open()]
    assert {"javascript", "typescript", "csharp", "python"} == set(fences)
