"""The Open3D parser: a model's reply -> the scene open3d would show, statically."""

from __future__ import annotations

from parsers.evaluated import EvaluatedLanguage
from parsers.evaluator.python.front import lower_python
from parsers.open3d.dialect import Open3DPython
from parsers.open3d.engine import Open3DEngine

LANGUAGE = "open3d"

OPEN3D: EvaluatedLanguage[Open3DEngine] = EvaluatedLanguage(
    LANGUAGE,
    grammar="python",
    front_end=lower_python,
    new_engine=lambda code: Open3DEngine(),
    new_dialect=Open3DPython,
    read_objects=lambda ctx, engine, code: engine.native_objects(ctx),
    no_objects=("open3d.no_objects", "the code creates no triangle mesh of a known shape"),
    too_long="open3d.too_long",
)

#: Runs Open3D code statically: the evaluation, and the engine holding the meshes it built
#: and showed.
evaluate_open3d = OPEN3D.evaluate
parse_open3d = OPEN3D.parse
