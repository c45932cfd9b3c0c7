"""SpatialBabel's hub: the scene graph, vocabulary, frames and file formats every stage shares."""

from spatialbabel.classes import (
    CLASS_SYNONYMS,
    CLASSES,
    UNIT_EXTENTS,
    canonical_class,
    class_from_words,
    classes_equivalent,
)
from spatialbabel.colors import palette_name_of, parse_color
from spatialbabel.errors import RegistryError, SceneValidationError, SpatialBabelError
from spatialbabel.files import FileFormatError, ModelOutput
from spatialbabel.frames import (
    LANGUAGE_FRAMES,
    decompose,
    euler_to_matrix,
    euler_to_quaternion,
    language_frame,
    matrix_to_euler,
    matrix_to_quaternion,
    quaternion_to_euler,
    quaternion_to_matrix,
)
from spatialbabel.geometry.bounds import (
    box_aabb,
    object_affine,
    primitive_aabb,
    world_aabb,
    world_corners,
)
from spatialbabel.palette import PALETTE, PALETTE_NAMES, nearest_palette_name
from spatialbabel.registry import Registry
from spatialbabel.scene import SCHEMA_VERSION, UNKNOWN_CLASS, Camera, Ground, Scene, SceneObject

__version__ = "0.1.0"

LANGUAGES = ("threejs", "unity", "blender", "open3d", "json", "dsl")

__all__ = [
    "CLASSES",
    "CLASS_SYNONYMS",
    "LANGUAGES",
    "LANGUAGE_FRAMES",
    "PALETTE",
    "PALETTE_NAMES",
    "SCHEMA_VERSION",
    "UNIT_EXTENTS",
    "UNKNOWN_CLASS",
    "Camera",
    "FileFormatError",
    "Ground",
    "ModelOutput",
    "Registry",
    "RegistryError",
    "Scene",
    "SceneObject",
    "SceneValidationError",
    "SpatialBabelError",
    "__version__",
    "box_aabb",
    "canonical_class",
    "class_from_words",
    "classes_equivalent",
    "decompose",
    "euler_to_matrix",
    "euler_to_quaternion",
    "language_frame",
    "matrix_to_euler",
    "matrix_to_quaternion",
    "nearest_palette_name",
    "object_affine",
    "palette_name_of",
    "parse_color",
    "primitive_aabb",
    "quaternion_to_euler",
    "quaternion_to_matrix",
    "world_aabb",
    "world_corners",
]
