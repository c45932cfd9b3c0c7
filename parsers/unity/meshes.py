"""Unity's meshes and mesh filters for the static evaluator.

Unity has no cone, pyramid or torus, so models build them as ``Mesh``es: vertex lists filled
in loops (``List<Vector3>``, ``Mathf.Sin/Cos``), handed over with ``mesh.vertices =
list.ToArray()`` or ``mesh.SetVertices(list)``, on a ``MeshFilter`` (``AddComponent``, or
``new GameObject(name, typeof(MeshFilter), typeof(MeshRenderer))``), often one cached mesh
shared by several objects. A mesh records the vertices the code computes, and the words the
code was saying when it made the mesh (the helpers being run, their enum and string
arguments): the class comes from the vertices when they can be computed, else from the words
(``parsers.unity.naming``).

As in Unity (manual, ``MeshFilter.mesh``): reading ``mesh`` of a filter without a mesh makes a
new one and assigns it; reading it while the filter holds a shared mesh first duplicates that
mesh for this filter; ``sharedMesh`` is the mesh itself (null when none). ``mesh.vertices``
reads a copy of the vertex array (writing into it changes nothing: assign it back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from parsers.evaluator import Args, CallContext, Kwargs, Part, Record, Unknown, Value, arg
from parsers.evaluator.core.values import type_name
from parsers.shape_words import frame_words
from parsers.unity import structs
from spatialbabel.frames import Matrix

if TYPE_CHECKING:
    from parsers.unity.engine import UnityEngine

#: Unity's primitive mesh names (``Resources.GetBuiltinResource<Mesh>("Cube.fbx")``).
BUILTIN_MESHES = frozenset({"Cube", "Sphere", "Cylinder", "Capsule", "Plane", "Quad"})


@dataclass
class MeshState:
    builtin: str | None = None
    vertices: list[tuple[float, float, float]] | None = None
    line: int = 0
    #: The vertices were set to something that cannot be known statically.
    unknown_vertices: bool = False
    #: ``(word, where)`` the code was saying when it made the mesh (see ``shape_words``).
    words: list[tuple[str, str]] = field(default_factory=list)
    #: The class a helper without a body stands for, why, and its unit primitive onto the
    #: mesh (``helper_calls``).
    placeholder: tuple[str, str, Matrix] | None = None

    def copy(self) -> MeshState:
        return MeshState(
            self.builtin,
            None if self.vertices is None else list(self.vertices),
            self.line,
            self.unknown_vertices,
            list(self.words),
            self.placeholder,
        )


class UnityMeshes(Part):
    """Meshes, their vertices, and the mesh filters holding them."""

    engine: UnityEngine

    def new_mesh(self, ctx: CallContext, name: str = "", **state: object) -> Record:
        """A fresh ``Mesh``; it remembers the helpers being run when it was made."""
        mesh = MeshState(line=ctx.line, words=frame_words(ctx.frames()), **state)  # type: ignore[arg-type]
        return Record("Mesh", {"name": name}, native=mesh)

    def builtin_resource(self, ctx: CallContext, args: Args, kwargs: Kwargs) -> Value:
        name = next((a for a in args if isinstance(a, str)), None)
        base = name.split(".")[0] if isinstance(name, str) else None
        if base not in BUILTIN_MESHES:
            ctx.warning(
                "unity.unknown_resource", f"built-in resource {name!r} is not a primitive mesh"
            )
            return self.new_mesh(ctx, str(name))
        return Record("Mesh", {"name": base}, native=MeshState(builtin=base, line=ctx.line))

    # --- mesh filters -----------------------------------------------------------------------------
    def new_filter(self, owner: Record, mesh: Record | None = None) -> Record:
        return Record("MeshFilter", native={"owner": owner, "mesh": mesh, "own": mesh is not None})

    def filter_mesh(self, ctx: CallContext, record: Record) -> Value:
        found = record.native["mesh"]
        if found is None:
            found = record.native["mesh"] = self.new_mesh(ctx)
        elif not record.native["own"] and isinstance(found, Record):
            found = record.native["mesh"] = Record(
                "Mesh", dict(found.fields), native=found.native.copy()
            )
        record.native["own"] = True
        return found

    def filter_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name in ("mesh", "sharedMesh"):
            mesh = value if isinstance(value, Record) and value.kind == "Mesh" else None
            record.native["mesh"] = mesh
            record.native["own"] = name == "mesh"
            if mesh is None and not isinstance(value, Unknown) and value is not None:
                ctx.warning("unity.bad_value", f"{name} set to a {type_name(value)}, not a mesh")
            return True
        return False

    # --- meshes -----------------------------------------------------------------------------------
    def _mesh_vertices(self, ctx: CallContext, record: Record) -> Value:
        state: MeshState = record.native
        if state.vertices is None:
            return Unknown("vertices of a mesh that cannot be known") if state.builtin else []
        return [structs.vector3(*v) for v in state.vertices]

    def _set_vertices(self, ctx: CallContext, record: Record, value: Value) -> None:
        state: MeshState = record.native
        points: list[tuple[float, float, float]] = []
        items = ctx.iterate(value) if isinstance(value, list | tuple) else None
        for item in items or []:
            found = structs.components(ctx, item, "mesh vertex")
            if found is None:
                points = []
                break
            points.append(found)
        if not points:
            ctx.warning("unity.unknown_mesh", "mesh vertices that cannot be known statically")
        state.vertices = points or None
        state.unknown_vertices = not points
        state.builtin = None

    def mesh_set(self, ctx: CallContext, record: Record, name: str, value: Value) -> bool:
        if name == "vertices":
            self._set_vertices(ctx, record, value)
            return True
        return name in ("triangles", "normals", "uv", "uv2", "colors", "colors32", "tangents")

    def mesh_methods(self) -> dict[str, object]:
        def set_vertices(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            items = arg(a, 0)
            start, length = arg(a, 1), arg(a, 2)
            if isinstance(items, list) and isinstance(start, int) and isinstance(length, int):
                items = items[start : start + length]
            self._set_vertices(ctx, r, items)
            return None

        def clear(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            r.native.vertices = None
            r.native.unknown_vertices = False
            r.native.builtin = None
            return None

        def combine(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            ctx.warning(
                "unity.unknown_mesh",
                "CombineMeshes is not modelled; the mesh's vertices are unknown",
            )
            r.native.vertices = None
            r.native.unknown_vertices = True
            return None

        def nothing(ctx: CallContext, r: Record, a: Args, k: Kwargs) -> Value:
            return None

        return {
            "SetVertices": set_vertices,
            "Clear": clear,
            "CombineMeshes": combine,
            **dict.fromkeys(
                [
                    "SetTriangles",
                    "SetIndices",
                    "SetNormals",
                    "SetUVs",
                    "SetColors",
                    "SetTangents",
                    "RecalculateNormals",
                    "RecalculateBounds",
                    "RecalculateTangents",
                    "Optimize",
                    "OptimizeIndexBuffers",
                    "OptimizeReorderVertexBuffer",
                    "MarkDynamic",
                    "MarkModified",
                    "UploadMeshData",
                    "SetSubMesh",
                ],
                nothing,
            ),
            "GetVertices": lambda ctx, r, a, k: (
                arg(a, 0).extend(self._mesh_vertices(ctx, r))
                if isinstance(arg(a, 0), list) and isinstance(self._mesh_vertices(ctx, r), list)
                else None
            ),
        }

    def mesh_getters(self) -> dict[str, object]:
        def vertex_count(ctx: CallContext, r: Record) -> Value:
            vertices = self._mesh_vertices(ctx, r)
            return len(vertices) if isinstance(vertices, list) else vertices

        return {"vertices": self._mesh_vertices, "vertexCount": vertex_count}


__all__ = ["BUILTIN_MESHES", "MeshState", "UnityMeshes"]
