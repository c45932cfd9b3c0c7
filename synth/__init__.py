"""The generator stage: tiered splits of Blender-rendered primitive scenes with exact ground truth.

Importing this package does not import bpy; only the worker processes (``synth.workers``) and
``synth.blender_stage`` do. ``spatialbabel generate`` and ``spatialbabel verify`` wrap
``split_set(...).generate()`` and ``verify_split`` (docs/generation.md); ``spatialbabel clips``
wraps ``clip_set(...).generate()`` (docs/spatialmind.md).
"""

from spatialbabel.geometry.footprints import Footprint, clearance, footprint
from synth.cameras import scene_cameras
from synth.clip_unit import ClipParameters, generate_clip_unit
from synth.clips import clip_set
from synth.config import GENERATOR_VERSION, SceneParameters, ScenePaths, scene_id
from synth.layout import LayoutError, LayoutRules, move_objects, sample_layout
from synth.manifest import SplitProblem, verify_split
from synth.meshes import UnitMesh, unit_mesh
from synth.split import split_set
from synth.subsets import stratified_subsets
from synth.tiers import TIER_NAMES, TIERS, Tier, tier_of
from synth.unit import GenerationError, scene_rng
from synth.unit_set import UnitKind, UnitSet
from synth.visibility import Visibility

__all__ = [
    "GENERATOR_VERSION",
    "TIERS",
    "TIER_NAMES",
    "ClipParameters",
    "Footprint",
    "GenerationError",
    "LayoutError",
    "LayoutRules",
    "SceneParameters",
    "ScenePaths",
    "SplitProblem",
    "Tier",
    "UnitKind",
    "UnitMesh",
    "UnitSet",
    "Visibility",
    "clearance",
    "clip_set",
    "footprint",
    "generate_clip_unit",
    "move_objects",
    "sample_layout",
    "scene_cameras",
    "scene_id",
    "scene_rng",
    "split_set",
    "stratified_subsets",
    "tier_of",
    "unit_mesh",
    "verify_split",
]
