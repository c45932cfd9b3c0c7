"""Which diagnostics say a parse is a partial reading: the reader skipped a construct, or could
not follow what the code does to a value, so an object may differ from what the engine builds.

The score tables count, per model and language, the replies whose parse carries one of these
as a warning (the ``partial_reading`` metric, ``scoring.metrics``; docs/scoring.md), so a user
sees where a language's score rests on a partial reading. Left out on purpose: what the reply
itself got wrong and the engine would fail on too (``<prefix>.syntax``, ``unity.cut_off``, a
helper without a body, an uncaught throw), readings the parser makes by design (a ground left
out, a stand-in's class, a legacy name) and remarks that never touch an object.

This is the one list; docs/scoring.md shows it and a test holds the two equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

#: For every front end and engine (``js``, ``py``, ``cs``, ``eval``, ``threejs``...): a
#: statement, member or pattern the front end does not lower, one nested too deeply to follow,
#: code cut at the length cap before reading, objects past the object cap.
PARTIAL_SUFFIXES: Final = (".unsupported", ".too_deep", ".too_long", ".too_many_objects")

#: The other codes of a construct not followed or a value not known.
PARTIAL_CODES: Final = frozenset(
    {
        # The core: assignments, deletions and calls not followed, undecidable conditions,
        # loops not run, values defaulted, runs stopped by a limit.
        "eval.unknown_target",
        "eval.unknown_condition",
        "eval.unknown_iterable",
        "eval.unknown_value",
        "eval.ignored_assignment",
        "eval.ignored_delete",
        "eval.struct_copy",
        "eval.unhashable_object",
        "eval.yield_outside_generator",
        "eval.generator_running",
        "eval.loop_limit",
        "eval.recursion_limit",
        "eval.budget",
        "eval.deadline",
        # Python: code built at run time, decorators not known.
        "py.dynamic_code",
        "py.unknown_decorator",
        # three.js: values computed from something unknowable.
        "threejs.unknown_value",
        "threejs.unknown_transform",
        "threejs.unknown_color",
        # Unity: calls the parser cannot follow handed a scene object; values not known.
        "unity.unknown_call",
        "unity.unknown_mesh",
        "unity.unknown_primitive",
        "unity.unknown_colour",
        "unity.unknown_prefab",
        # Blender: properties and operators not modelled; values not known.
        "blender.unmodelled_property",
        "blender.transform_rotate",
        "blender.origin_set",
        "blender.join",
        "blender.shape_modifier",
        "blender.unknown_mesh",
        "blender.unknown_node",
        "blender.unknown_rotation",
        # Open3D: shapes and meshes not read as given.
        "open3d.unknown_shape",
        "open3d.unknown_mesh",
    }
)


def is_partial(code: str) -> bool:
    """Whether a diagnostic code says the reading is partial (as a warning)."""
    return code in PARTIAL_CODES or code.endswith(PARTIAL_SUFFIXES)


def reads_in_part(diagnostics: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a parse's diagnostics (as ``Diagnostic.to_dict`` gives them) hold a warning of a
    partial reading."""
    return any(
        d.get("severity") == "warning" and is_partial(str(d.get("code", ""))) for d in diagnostics
    )


__all__ = ["PARTIAL_CODES", "PARTIAL_SUFFIXES", "is_partial", "reads_in_part"]
