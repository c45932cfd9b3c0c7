"""Importers of real indoor scenes: mesh datasets with instances and cameras made into splits
of the open domain (``spatialbabel import``; docs/real-scenes.md).

``importers.hypersim`` reads Hypersim's on-disk layout (h5py, pandas), ``importers.mesh_scene``
glTF 2.0 and OBJ scenes (trimesh); ``importers.scenes`` turns what either read into scenes (the
floor at y = 0, the room's classes left out, the FOV filter) and writes the split. Each heavy
dependency is imported inside the one module that needs it, so importing this package costs
nothing more than the hub.
"""

from importers.scenes import (
    DEFAULT_EXCLUDED,
    Assembled,
    SourceObject,
    SourceScene,
    UprightBox,
    assemble,
    write_split,
)

__all__ = [
    "DEFAULT_EXCLUDED",
    "Assembled",
    "SourceObject",
    "SourceScene",
    "UprightBox",
    "assemble",
    "write_split",
]
