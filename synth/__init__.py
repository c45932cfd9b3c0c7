"""The generator stage: tiered splits of Blender-rendered primitive scenes with exact ground truth.

Importing this package does not import bpy; only the worker processes (``synth.workers``) and
``synth.blender_stage`` do. ``spatialbabel generate`` and ``spatialbabel verify`` wrap
``generate_split`` and ``verify_split`` (docs/generation.md); ``spatialbabel clips`` wraps
``generate_clips`` (docs/spatialmind.md).
"""

from spatialbabel.footprints import Footprint, clearance, footprint
from synth.cameras import scene_cameras
from synth.clip_unit import ClipParameters, generate_clip_unit
from synth.clips import ClipSetRequest, generate_clips
from synth.config import GENERATOR_VERSION, SceneParameters, ScenePaths, scene_id
from synth.layout import LayoutError, LayoutRules, move_objects, sample_layout
from synth.manifest import Problem, verify_split
from synth.meshes import UnitMesh, unit_mesh
from synth.split import SplitRequest, generate_split
from synth.subsets import stratified_subsets
from synth.tiers import TIER_NAMES, TIERS, Tier, tier_of
from synth.unit import GenerationError, scene_rng
from synth.visibility import Visibility

__all__ = [
    "GENERATOR_VERSION",
    "TIERS",
    "TIER_NAMES",
    "ClipParameters",
    "ClipSetRequest",
    "Footprint",
    "GenerationError",
    "LayoutError",
    "LayoutRules",
    "Problem",
    "SceneParameters",
    "ScenePaths",
    "SplitRequest",
    "Tier",
    "UnitMesh",
    "Visibility",
    "clearance",
    "footprint",
    "generate_clip_unit",
    "generate_clips",
    "generate_split",
    "move_objects",
    "sample_layout",
    "scene_cameras",
    "scene_id",
    "scene_rng",
    "stratified_subsets",
    "tier_of",
    "unit_mesh",
    "verify_split",
]
