"""Which parts of a reply are its answer (parsers/blocks.py): reasoning in words is never code,
and several blocks combine as their prose and content say. Every rule is exercised in every
language it applies to, with the diagnostic that names it."""

from __future__ import annotations

import pytest

from parsers import extract_code, parse
from parsers.blocks import code_region, is_reasoning, prose_cue

# --- what the prose says -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prose", "cue"),
    [
        ("Oops, the sphere is blue. Here is the corrected code:", "replace"),
        ("Replace the helper with this one:", "replace"),
        ("The rest of the scene:", "join"),
        ("Part 2:", "join"),
        ("Step 2 - add the objects:", "join"),
        ("So the final answer is:", "final"),
        ("There is also a small ball:", "add"),
        ("Then the objects.", "then"),
        ("And the ones on the right:", "then"),
        ("Here it is:", None),
    ],
)
def test_prose_cues(prose: str, cue: str | None) -> None:
    assert prose_cue(prose) == cue


# --- imperative languages: rewrite, fragments, redefined definitions ---------------------------

THREE_HEAD = "import * as THREE from 'three';\nconst scene = new THREE.Scene();\n"
THREE_BOX = (
    "const box = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshBasicMaterial());\n"
    "box.position.set({x}, 0.5, 0);\nscene.add(box);\n"
)


def js(code: str) -> str:
    return f"```js\n{code}```"


def codes(text: str, language: str) -> list[str]:
    return [d.code for d in parse(text, language).diagnostics]


def test_a_complete_second_block_is_the_answer() -> None:
    first = js(THREE_HEAD + THREE_BOX.format(x=-1))
    second = js(THREE_HEAD + THREE_BOX.format(x=2))
    reply = f"{first}\n\nHere is the corrected version:\n\n{second}"
    (box,) = parse(reply, "threejs").scene.objects
    assert box.position == (2.0, 0.5, 0.0)
    rewrite = next(d for d in parse(reply, "threejs").diagnostics if d.code == "extract.rewrite")
    assert "redefines box, scene" in rewrite.message and "corrects" in rewrite.message
    # Without any prose the complete block still wins: it builds a whole scene on its own.
    (box,) = parse(f"{first}\n\n{second}", "threejs").scene.objects
    assert box.position == (2.0, 0.5, 0.0)


def test_fragments_are_merged_imports_then_scene_and_helpers_then_main() -> None:
    reply = js(THREE_HEAD) + "\n\nThen the objects:\n\n" + js(THREE_BOX.format(x=1))
    assert len(parse(reply, "threejs").scene.objects) == 1
    assert "extract.merged" in codes(reply, "threejs")
    helpers = "```python\nimport bpy\n\ndef cube(x):\n    bpy.ops.mesh.primitive_cube_add(location=(x, 0, 1))\n```"
    main = "```python\nimport bpy\nfor x in range(3):\n    cube(2 * x)\n```"
    # The second block imports bpy and builds objects, but through a helper only the first
    # defines: a fragment.
    result = parse(f"{helpers}\n\nNow the main part:\n\n{main}", "blender")
    assert len(result.scene.objects) == 3
    merged = next(d for d in result.diagnostics if d.code == "extract.merged")
    assert "uses cube from an earlier block" in merged.message


def test_complete_blocks_the_reply_joins_or_adds_to_are_merged() -> None:
    first = js(THREE_HEAD + THREE_BOX.format(x=-1))
    ball = (
        "const ball = new THREE.Mesh(new THREE.SphereGeometry(0.5));\n"
        "ball.position.set(1, 0.5, 0);\nscene.add(ball);\n"
    )
    second = js("import * as THREE from 'three';\nconst s2 = new THREE.Scene();\n" + ball)
    joined = parse(f"{first}\n\nContinued in the next part:\n\n{second}", "threejs")
    assert "extract.rewrite" not in {d.code for d in joined.diagnostics}
    added = parse(f"{first}\n\nThere is also a ball:\n\n{second}", "threejs")
    assert "extract.rewrite" not in {d.code for d in added.diagnostics}


def test_a_redefined_python_helper_replaces_the_old_one_where_it_stood() -> None:
    reply = parse((_fixture("blender", "b36_corrected_helper")), "blender")
    # The fixed helper puts each cube half its size above the ground (z = size / 2).
    assert [round(o.position[1], 6) for o in reply.scene.objects] == [0.5, 0.3]
    code = extract_code(_fixture("blender", "b36_corrected_helper"), "blender")
    assert code.code.count("def add_block") == 1
    assert "size / 2" in code.code
    # Lines still point into the reply: the spliced definition comes from the second block.
    assert (
        code.reply_line(code.code.split("\n").index("def add_block(x, y, size, rgba):") + 1) == 22
    )


def test_a_redefined_js_function_replaces_the_old_one() -> None:
    result = parse(_fixture("threejs", "49_redefined_helper"), "threejs")
    assert [o.class_name for o in result.scene.objects] == ["pyramid", "pyramid", "cube"]


def test_a_corrected_unity_script_replaces_the_first() -> None:
    result = parse(_fixture("unity", "u29_corrected_rewrite"), "unity")
    assert [o.color for o in result.scene.objects] == ["red", "white", "cyan"]
    assert "extract.rewrite" in {d.code for d in result.diagnostics}


# --- declarative languages: the last complete block, split answers, replaced entities ----------

CUBE = '{"id": "%s", "class_name": "cube", "color": "%s", "position": [%s, 0.5, 0]}'


def json_block(*objects: str) -> str:
    return '```json\n{"objects": [' + ", ".join(objects) + "]}\n```"


def ids(text: str, language: str = "json") -> list[tuple[str, str | None]]:
    return [(o.id, o.color) for o in parse(text, language).scene.objects]


def chosen(text: str, language: str = "json") -> str:
    notes = parse(text, language).diagnostics
    return next(d.message for d in notes if d.code == "extract.chosen")


def test_the_last_complete_block_wins_not_the_largest() -> None:
    reply = _fixture("json", "25_last_complete_block_not_largest")
    assert ids(reply) == [("pyramid_1", "red"), ("sphere_1", "blue")]
    assert "the last complete block is the answer" in chosen(reply)


def test_a_block_repeating_every_object_is_a_rewrite() -> None:
    first = json_block(CUBE % ("a", "red", 0), CUBE % ("b", "blue", 1))
    second = json_block(
        CUBE % ("a", "red", 0.2), CUBE % ("b", "blue", 1.2), CUBE % ("c", "green", 3)
    )
    reply = f"{first}\n\nOn closer inspection:\n\n{second}"
    assert ids(reply) == [("a", "red"), ("b", "blue"), ("c", "green")]
    assert "repeats every object" in chosen(reply)


def test_a_block_replacing_one_entity_by_name_or_class_and_colour() -> None:
    assert ids(_fixture("json", "27_replace_one_entity")) == [
        ("left_box", "green"),
        ("ball", "pink"),
        ("ring", "brown"),
    ]
    assert parse(_fixture("json", "27_replace_one_entity"), "json").scene.get_object(
        "ball"
    ).position == (0.3, 0.55, -0.8)
    # No names: the same class and colour decide.
    first = '```json\n[{"class_name": "cube", "color": "red", "position": [0, 0.5, 0]}, {"class_name": "sphere", "color": "blue", "position": [2, 0.5, 0]}, {"class_name": "cone", "color": "green", "position": [-2, 0.5, 0]}]\n```'
    fix = '```json\n[{"class_name": "sphere", "color": "blue", "position": [2, 0.5, -1]}]\n```'
    result = parse(f"{first}\nThe ball is further back:\n{fix}", "json")
    assert [o.position for o in result.scene.objects] == [
        (0.0, 0.5, 0.0),
        (2.0, 0.5, -1.0),
        (-2.0, 0.5, 0.0),
    ]
    # A correction that changes the colour matches the one object of that class.
    fix = '```json\n[{"class_name": "sphere", "color": "yellow", "position": [2, 0.5, 0]}]\n```'
    result = parse(f"{first}\nCorrection: the ball is actually yellow:\n{fix}", "json")
    assert [o.color for o in result.scene.objects] == ["red", "yellow", "green"]
    assert "replaces the sphere" in chosen(
        f"{first}\nCorrection: the ball is actually yellow:\n{fix}"
    )


def test_dsl_entity_replaced_by_name() -> None:
    result = parse(_fixture("dsl", "21_corrected_entity"), "dsl")
    assert [(o.id, o.class_name) for o in result.scene.objects] == [
        ("left", "cube"),
        ("middle", "cone"),
        ("right", "sphere"),
    ]


@pytest.mark.parametrize(
    ("language", "case"), [("json", "26_split_over_blocks"), ("dsl", "20_split_over_blocks")]
)
def test_an_answer_split_over_blocks_is_read_joined(language: str, case: str) -> None:
    result = parse(_fixture(language, case), language)
    assert [o.id for o in result.scene.objects] == ["a", "b", "c", "d"]
    joined = next(d for d in result.diagnostics if d.code == "extract.joined")
    assert "split in pieces" in joined.message
    assert not any(d.severity == "error" for d in result.diagnostics)


def test_separate_blocks_the_reply_says_to_join_are_united() -> None:
    left = json_block(CUBE % ("a", "red", -1))
    right = json_block(CUBE % ("b", "blue", 1))
    assert ids(f"Objects on the left:\n{left}\nAnd the ones on the right:\n{right}") == [
        ("a", "red"),
        ("b", "blue"),
    ]
    assert ids(f"{left}\nThere is also a blue box:\n{right}") == [("a", "red"), ("b", "blue")]
    # Without such words the later complete block is the answer.
    assert ids(f"{left}\nHere it is:\n{right}") == [("b", "blue")]
    sexp = "(scene (entity a (shape cube) (color red) (position -1 0.5 0)))"
    more = "(scene (entity b (shape cube) (color blue) (position 1 0.5 0)))"
    assert ids(f"```\n{sexp}\n```\nThe rest of the scene:\n```\n{more}\n```", "dsl") == [
        ("a", "red"),
        ("b", "blue"),
    ]


def test_a_cut_off_last_block_leaves_the_earlier_complete_one() -> None:
    first = json_block(CUBE % ("a", "red", -1), CUBE % ("b", "blue", 1))
    reply = f'{first}\n\nLet me redo it:\n\n```json\n{{"objects": [{CUBE % ("a", "red", -1)}, {{"id": "b", "class_na'
    assert ids(reply) == [("a", "red"), ("b", "blue")]
    assert "is cut off" in chosen(reply)


def test_one_usable_block_among_several_is_read() -> None:
    reply = '```json\n{"objects": 42}\n```\n\n' + json_block(CUBE % ("a", "red", 0))
    assert ids(reply) == [("a", "red")]
    assert "only one gives objects" in chosen(reply)


# --- NL-CoT replies: reasoning is never code ---------------------------------------------------

REASONING = (
    "Objects in the image:\n"
    "1. red cube at (1, 0.5, -2)\n"
    "2. blue sphere at [0, 0.5, 0]\n"
    "- a green cone, roughly (-1.5, 0.5, 1)\n\n"
)

CODE = {
    "threejs": THREE_HEAD + THREE_BOX.format(x=1),
    "unity": (
        "using UnityEngine;\npublic class S : MonoBehaviour {\n    void Start() {\n"
        "        var c = GameObject.CreatePrimitive(PrimitiveType.Cube);\n"
        "        c.transform.position = new Vector3(1f, 0.5f, 0f);\n    }\n}\n"
    ),
    "blender": "import bpy\nbpy.ops.mesh.primitive_cube_add(size=1, location=(1, 0, 0.5))\n",
    "open3d": (
        "import open3d as o3d\nm = o3d.geometry.TriangleMesh.create_box()\n"
        "m.translate((0.5, 0.0, -0.5))\no3d.visualization.draw_geometries([m])\n"
    ),
    "json": '{"objects": [{"class_name": "cube", "color": "red", "position": [1, 0.5, 0]}]}\n',
    "dsl": "(scene (entity c (shape cube) (color red) (position 1 0.5 0)))\n",
}
#: A reasoning line that would be code of the language.
CODE_LIKE = {
    "threejs": "scene.add(new THREE.Mesh(new THREE.SphereGeometry(3)));\n",
    "unity": "GameObject.CreatePrimitive(PrimitiveType.Sphere);\n",
    "blender": "bpy.ops.mesh.primitive_uv_sphere_add(radius=3)\n",
    "open3d": "o3d.visualization.draw_geometries([o3d.geometry.TriangleMesh.create_sphere()])\n",
    "json": '[{"class_name": "sphere", "color": "pink", "position": [5, 5, 5]}]\n',
    "dsl": "(entity ghost (shape sphere) (position 5 5 5))\n",
}
LANGUAGES = list(CODE)


def one_cube(text: str, language: str) -> None:
    result = parse(text, language)
    assert [o.class_name for o in result.scene.objects] == ["cube"], result.diagnostics
    assert result.scene.objects[0].position[0] == pytest.approx(1.0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_nl_cot_reply_with_one_fenced_block(language: str) -> None:
    one_cube(f"{REASONING}Now the code:\n\n```\n{CODE[language]}```\n", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_nl_cot_reply_without_a_fence(language: str) -> None:
    text = f"{REASONING}Here is the code:\n\n{CODE[language]}\nThat is the whole scene.\n"
    one_cube(text, language)
    assert "extract.prose_skipped" in codes(text, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reasoning_line_that_looks_like_code_is_left_out(language: str) -> None:
    reasoning = REASONING + CODE_LIKE[language] + "- that is all.\n\n"
    one_cube(f"{reasoning}Here is the code:\n\n{CODE[language]}", language)
    one_cube(f"{reasoning}```\n{CODE[language]}```\n", language)


@pytest.mark.parametrize("language", ["threejs", "unity", "blender", "open3d"])
def test_a_reasoning_list_in_a_block_of_its_own_is_not_merged(language: str) -> None:
    text = f"```\n{REASONING}```\n\n```\n{CODE[language]}```\n"
    one_cube(text, language)
    assert "extract.reasoning" in codes(text, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_code_alone_is_read_whole(language: str) -> None:
    lines = CODE[language].split("\n")
    assert code_region(lines, language) is None
    assert not is_reasoning(CODE[language], language)
    assert is_reasoning(REASONING, language)


def _fixture(language: str, case: str) -> str:
    from tests.engines.parser_checks import read_fixture

    return read_fixture(language, case)
