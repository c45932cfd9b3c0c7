"""The Blender parser: a model's reply -> the scene bpy would build, statically."""

from __future__ import annotations

from parsers.blender.dialect import BlenderPython
from parsers.blender.engine import BlenderEngine
from parsers.evaluated import EvaluatedLanguage
from parsers.evaluator.python.front import lower_python

LANGUAGE = "blender"

BLENDER: EvaluatedLanguage[BlenderEngine] = EvaluatedLanguage(
    LANGUAGE,
    grammar="python",
    front_end=lower_python,
    new_engine=lambda code: BlenderEngine(),
    new_dialect=lambda engine: BlenderPython(),
    read_objects=lambda ctx, engine, code: engine.native_objects(ctx),
    no_objects=(
        "blender.no_objects",
        "the code adds no mesh object of a known shape to the scene",
    ),
    too_long="blender.too_long",
)

#: Runs Blender Python code statically: the evaluation, and the engine holding the objects.
evaluate_blender = BLENDER.evaluate
parse_blender = BLENDER.parse
