"""Blender materials for the static evaluator: ``diffuse_color``, node trees, nodes, sockets and
links, and the colour a material shows.

A new material (Blender 5.0) already uses nodes: a Principled BSDF wired into a Material
Output. Its rendered colour is what reaches the active output's Surface: the shader node's
"Base Color" (or "Color") socket, or an RGB node wired into it. Models set that, or the
viewport ``diffuse_color``, or both; ``material_colour`` decides as the parity harness does: a
surface colour changed from Blender's default grey wins, then a changed viewport colour. Colours
are linear, as Blender stores them; the parser converts them to sRGB.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from parsers.blender.vectors import fixed, new_sequence
from parsers.evaluator import (
    UNDEFINED,
    Args,
    CallContext,
    Engine,
    Kind,
    Kwargs,
    Record,
    Unknown,
    Value,
    arg,
    is_number,
)

DEFAULT_GREY = (0.8, 0.8, 0.8, 1.0)
WHITE = (1.0, 1.0, 1.0, 1.0)

#: Input sockets of the shader nodes models use, in Blender 5.0's order (``inputs[0]`` of a
#: Principled BSDF is its Base Color), with the default of each colour socket.
_PRINCIPLED_INPUTS = (
    "Base Color", "Metallic", "Roughness", "IOR", "Alpha", "Normal", "Weight", "Diffuse Roughness",
    "Subsurface Weight", "Subsurface Radius", "Subsurface Scale", "Subsurface IOR", "Subsurface Anisotropy",
    "Specular IOR Level", "Specular Tint", "Anisotropic", "Anisotropic Rotation", "Tangent",
    "Transmission Weight", "Coat Weight", "Coat Roughness", "Coat IOR", "Coat Tint", "Coat Normal",
    "Sheen Weight", "Sheen Roughness", "Sheen Tint", "Emission Color", "Emission Strength",
    "Thin Film Thickness", "Thin Film IOR",
)  # fmt: skip
NODE_SOCKETS: dict[
    str, tuple[tuple[str, ...], tuple[str, ...], dict[str, tuple[float, ...]], str]
] = {
    # type: (inputs, outputs, colour defaults, default node name)
    "ShaderNodeBsdfPrincipled": (
        _PRINCIPLED_INPUTS,
        ("BSDF",),
        {
            "Base Color": DEFAULT_GREY,
            "Specular Tint": WHITE,
            "Coat Tint": WHITE,
            "Sheen Tint": WHITE,
            "Emission Color": WHITE,
        },
        "Principled BSDF",
    ),
    "ShaderNodeBsdfDiffuse": (
        ("Color", "Roughness", "Normal", "Weight"),
        ("BSDF",),
        {"Color": DEFAULT_GREY},
        "Diffuse BSDF",
    ),
    "ShaderNodeEmission": (
        ("Color", "Strength", "Weight"),
        ("Emission",),
        {"Color": WHITE},
        "Emission",
    ),
    "ShaderNodeBsdfGlossy": (
        ("Color", "Roughness", "Anisotropy", "Rotation", "Normal", "Tangent", "Weight"),
        ("BSDF",),
        {"Color": DEFAULT_GREY},
        "Glossy BSDF",
    ),
    "ShaderNodeBsdfToon": (
        ("Color", "Size", "Smooth", "Normal", "Weight"),
        ("BSDF",),
        {"Color": DEFAULT_GREY},
        "Toon BSDF",
    ),
    "ShaderNodeBsdfSheen": (
        ("Color", "Roughness", "Normal", "Weight"),
        ("BSDF",),
        {"Color": DEFAULT_GREY},
        "Sheen BSDF",
    ),
    "ShaderNodeBsdfTranslucent": (
        ("Color", "Normal", "Weight"),
        ("BSDF",),
        {"Color": DEFAULT_GREY},
        "Translucent BSDF",
    ),
    "ShaderNodeBsdfTransparent": (
        ("Color", "Weight"),
        ("BSDF",),
        {"Color": WHITE},
        "Transparent BSDF",
    ),
    "ShaderNodeBsdfRefraction": (
        ("Color", "Roughness", "IOR", "Normal", "Weight"),
        ("BSDF",),
        {"Color": WHITE},
        "Refraction BSDF",
    ),
    "ShaderNodeBsdfGlass": (
        ("Color", "Roughness", "IOR", "Normal", "Weight", "Thin Film Thickness", "Thin Film IOR"),
        ("BSDF",),
        {"Color": WHITE},
        "Glass BSDF",
    ),
    "ShaderNodeSubsurfaceScattering": (
        ("Color", "Scale", "Radius", "IOR", "Roughness", "Anisotropy", "Normal", "Weight"),
        ("BSSRDF",),
        {"Color": DEFAULT_GREY},
        "Subsurface Scattering",
    ),
    "ShaderNodeBackground": (
        ("Color", "Strength", "Weight"),
        ("Background",),
        {"Color": DEFAULT_GREY},
        "Background",
    ),
    "ShaderNodeMixShader": (("Factor", "Shader", "Shader"), ("Shader",), {}, "Mix Shader"),
    "ShaderNodeOutputMaterial": (
        ("Surface", "Volume", "Displacement", "Thickness"),
        (),
        {},
        "Material Output",
    ),
    "ShaderNodeRGB": ((), ("Color",), {}, "RGB"),
}
_RGB_OUTPUT_DEFAULT = (0.5, 0.5, 0.5, 1.0)


@dataclass
class NodeState:
    """A node's sockets, made when first read: a Principled BSDF has 31 inputs and most
    scripts touch one."""

    type: str
    made_inputs: list[Record] | None = None
    made_outputs: list[Record] | None = None
    collections: dict[bool, Record] = field(default_factory=dict)


@dataclass(slots=True)
class SocketState:
    name: str
    node: Record
    is_output: bool
    links: list[Record] = field(default_factory=list)


def _collection(kind: str, items: list[Record], owner: Record | None = None) -> Record:
    return Record(kind, native={"items": items, "owner": owner})


def collection_items(record: Value) -> list[Any] | None:
    """The items of a name-indexed collection record (nodes, sockets, links), or None (also
    for anything a script put where a collection was)."""
    if not isinstance(record, Record):
        return None
    native = record.native
    if isinstance(native, dict) and isinstance(native.get("items"), list):
        items: list[Any] = native["items"]
        return items
    return None


def _socket(name: str, node: Record, is_output: bool, default: Value) -> Record:
    fields = {"name": name, "identifier": name, "default_value": default}
    return Record("NodeSocket", fields, native=SocketState(name, node, is_output))


def sockets(node: Record, output: bool) -> list[Record]:
    """The node's output (or input) sockets, made on first use with Blender's defaults."""
    state: NodeState = node.native
    made = state.made_outputs if output else state.made_inputs
    if made is not None:
        return made
    node_type = state.type
    inputs, outputs, colours, _ = NODE_SOCKETS.get(node_type, ((), (), {}, node_type))
    made = []
    for socket_name in outputs if output else inputs:
        default: Value
        if output:
            default = (
                new_sequence("Array", list(_RGB_OUTPUT_DEFAULT))
                if node_type == "ShaderNodeRGB"
                else 0.0
            )
        else:
            colour = colours.get(socket_name)
            default = new_sequence("Array", list(colour)) if colour is not None else 0.0
        made.append(_socket(socket_name, node, output, default))
    if output:
        state.made_outputs = made
    else:
        state.made_inputs = made
    return made


def _socket_collection(ctx: CallContext, node: Record, output: bool) -> Record:
    state: NodeState = node.native
    if output not in state.collections:
        state.collections[output] = _collection("NodeSockets", sockets(node, output), node)
    return state.collections[output]


def new_node(node_type: str, name: str | None = None) -> Record:
    default_name = (
        NODE_SOCKETS[node_type][3]
        if node_type in NODE_SOCKETS
        else node_type.removeprefix("ShaderNode")
    )
    node = Record(
        "Node",
        {"name": name or default_name, "label": "", "bl_idname": node_type, "type": node_type},
        native=NodeState(node_type),
    )
    if node_type == "ShaderNodeOutputMaterial":
        node.fields["is_active_output"] = True
        node.fields["target"] = "ALL"
    return node


def new_material(name: str) -> Record:
    material = Record("Material", {"name": name, "use_nodes": True, "blend_method": "OPAQUE"})
    material.fields["diffuse_color"] = new_sequence("Array", list(DEFAULT_GREY))
    nodes: list[Record] = []
    links: list[Record] = []
    tree = Record("NodeTree", {"type": "SHADER"})
    tree.fields["nodes"] = _collection("Nodes", nodes, tree)
    tree.fields["links"] = _collection("Links", links, tree)
    principled = new_node("ShaderNodeBsdfPrincipled")
    output = new_node("ShaderNodeOutputMaterial")
    nodes.extend([principled, output])
    _link(links, sockets(principled, True)[0], sockets(output, False)[0])
    material.fields["node_tree"] = tree
    return material


def copy_material(material: Record, name: str) -> Record:
    copy = new_material(name)
    diffuse = material.fields.get("diffuse_color")
    if isinstance(diffuse, Record):
        copy.fields["diffuse_color"] = new_sequence("Array", list(diffuse.native))
    surface = surface_colour(material)
    if surface is not None:
        sockets(copy.fields["node_tree"].fields["nodes"].native["items"][0], False)[0].fields[
            "default_value"
        ] = new_sequence("Array", list(surface))
    return copy


def _link(links: list[Record], from_socket: Record, to_socket: Record) -> Record:
    for existing in list(links):
        if existing.fields.get("to_socket") is to_socket:
            links.remove(existing)
            to_socket.native.links.remove(existing)
            existing.fields["from_socket"].native.links.remove(existing)
    link = Record(
        "NodeLink",
        {
            "from_socket": from_socket,
            "to_socket": to_socket,
            "from_node": from_socket.native.node,
            "to_node": to_socket.native.node,
        },
    )
    links.append(link)
    from_socket.native.links.append(link)
    to_socket.native.links.append(link)
    return link


# --- methods ------------------------------------------------------------------------------------


def _nodes_new(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    node_type = arg(args, 0, kwargs, "type")
    if not isinstance(node_type, str):
        ctx.warning("blender.unknown_node", "nodes.new with a type that cannot be known statically")
        node_type = "ShaderNodeUnknown"
    elif node_type not in NODE_SOCKETS:
        ctx.info(
            "blender.unknown_node",
            f"node type {node_type!r} is not modelled; its colour is not read",
        )
    items = collection_items(record)
    taken = {n.fields.get("name") for n in items or []}
    node = new_node(node_type)
    base = str(node.fields["name"])
    name, count = base, 0
    while name in taken:
        count += 1
        name = f"{base}.{count:03d}"
    node.fields["name"] = name
    if items is not None:
        items.append(node)
    return node


def _nodes_remove(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    items = collection_items(record)
    node = arg(args, 0)
    if items is not None and node in items:
        items.remove(node)
        tree = record.native.get("owner")
        links = collection_items(tree.fields["links"]) if isinstance(tree, Record) else None
        for link in list(links or []):
            if link.fields.get("from_node") is node or link.fields.get("to_node") is node:
                _unlink(links or [], link)
    return None


def _nodes_clear(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    items = collection_items(record)
    if items is not None:
        items.clear()
    tree = record.native.get("owner")
    if isinstance(tree, Record):
        links = collection_items(tree.fields["links"])
        for link in list(links or []):
            _unlink(links or [], link)
    return None


def _unlink(links: list[Record], link: Record) -> None:
    if link in links:
        links.remove(link)
    for end in ("from_socket", "to_socket"):
        socket = link.fields.get(end)
        if isinstance(socket, Record) and link in socket.native.links:
            socket.native.links.remove(link)


def _links_new(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    first, second = arg(args, 0, kwargs, "input"), arg(args, 1, kwargs, "output")
    if not (
        isinstance(first, Record)
        and first.kind == "NodeSocket"
        and isinstance(second, Record)
        and second.kind == "NodeSocket"
    ):
        ctx.warning(
            "blender.unknown_link",
            "links.new between sockets that cannot be known statically; ignored",
        )
        return Unknown("a node link between unknown sockets")
    # Blender accepts the two sockets in either order.
    from_socket, to_socket = (first, second) if first.native.is_output else (second, first)
    items = collection_items(record)
    return _link(items if items is not None else [], from_socket, to_socket)


def _links_remove(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    items = collection_items(record)
    link = arg(args, 0)
    if items is not None and isinstance(link, Record):
        _unlink(items, link)
    return None


def _collection_get(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    name = arg(args, 0)
    default = arg(args, 1)
    for item in collection_items(record) or []:
        if item.fields.get("name") == name:
            return item
    return None if default is UNDEFINED else default


def _read_only(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    ctx.warning("blender.read_only", f"{record.kind}.{name} cannot be assigned in Blender; ignored")
    return True


def _socket_set(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    if name != "default_value":
        return False
    current = record.fields.get("default_value")
    if isinstance(current, Record) and current.kind == "Array":
        values = fixed(
            ctx,
            value,
            f"{record.fields.get('name')} default_value",
            len(current.native),
            list(current.native),
        )
        if values is not None:
            current.native[:] = values
        return True
    record.fields["default_value"] = (
        value if is_number(value) or isinstance(value, Unknown) else current
    )
    return True


def _material_set(ctx: CallContext, record: Record, name: str, value: Value) -> bool:
    if name == "diffuse_color":
        current = record.fields["diffuse_color"]
        values = fixed(ctx, value, "diffuse_color", 4, list(current.native))
        if values is not None:
            current.native[:] = values
        return True
    if name == "use_nodes":
        record.fields["use_nodes"] = value
        return True
    if name == "node_tree":
        return _read_only(ctx, record, name, value)
    return False


def _material_copy(ctx: CallContext, record: Record, args: Args, kwargs: Kwargs) -> Value:
    return copy_material(record, f"{record.fields.get('name')}.001")


def register(engine: Engine) -> None:
    """Add the material and node kinds to ``engine``."""
    for kind in _material_kinds():
        engine.add_kind(kind)


@cache
def _material_kinds() -> tuple[Kind, ...]:
    """The material and node kinds, built once: they hold nothing of a run, and an engine
    table is made per parse."""
    table = Engine()
    getters = {
        "is_linked": lambda ctx, r: bool(r.native.links),
        "links": lambda ctx, r: list(r.native.links),
        "node": lambda ctx, r: r.native.node,
    }
    table.add_kind(Kind("NodeSocket", getters=getters, on_set=_socket_set))
    table.add_kind(
        Kind(
            "Node",
            getters={
                "inputs": lambda ctx, r: _socket_collection(ctx, r, False),
                "outputs": lambda ctx, r: _socket_collection(ctx, r, True),
            },
            inert=True,
        )
    )
    table.add_kind(Kind("NodeLink", on_set=_read_only, inert=True))
    table.add_kind(Kind("NodeTree", on_set=_read_only, inert=True))
    table.add_kind(
        Kind(
            "Nodes",
            methods={
                "new": _nodes_new,
                "remove": _nodes_remove,
                "clear": _nodes_clear,
                "get": _collection_get,
            },
            inert=True,
        )
    )
    table.add_kind(Kind("NodeSockets", methods={"get": _collection_get}, inert=True))
    table.add_kind(
        Kind(
            "Links",
            methods={
                "new": _links_new,
                "remove": _links_remove,
                "clear": lambda ctx, r, a, k: _nodes_clear(ctx, r, a, k),
            },
            inert=True,
        )
    )
    table.add_kind(
        Kind("Material", methods={"copy": _material_copy}, on_set=_material_set, inert=True)
    )
    return tuple(table.kinds.values())


# --- reading the colour ---------------------------------------------------------------------------


def _values(value: Value) -> tuple[float, ...] | None:
    if (
        isinstance(value, Record)
        and value.kind == "Array"
        and all(is_number(v) for v in value.native)
    ):
        return tuple(float(v) for v in value.native)
    return None


def surface_colour(material: Record) -> tuple[float, ...] | None:
    """The colour reaching the active Material Output's Surface, or None when no colour does."""
    tree = material.fields.get("node_tree")
    if not isinstance(tree, Record):
        return None
    nodes = [
        n
        for n in collection_items(tree.fields.get("nodes")) or []
        if isinstance(n, Record) and isinstance(n.native, NodeState)
    ]
    outputs = [n for n in nodes if n.fields.get("bl_idname") == "ShaderNodeOutputMaterial"]
    active = [n for n in outputs if n.fields.get("is_active_output")] or outputs
    if not active:
        return None
    surface = sockets(active[0], False)[0]
    if not surface.native.links:
        return None
    shader: Record = surface.native.links[0].fields["from_node"]
    if shader.native.made_inputs is None:
        # Sockets never read are at their defaults and nothing is wired into them.
        _, _, colours, _ = NODE_SOCKETS.get(shader.native.type, ((), (), {}, ""))
        default = colours.get("Base Color", colours.get("Color"))
        return tuple(default) if default is not None else None
    for socket in sockets(shader, False):
        if socket.fields.get("name") not in ("Base Color", "Color"):
            continue
        if socket.native.links:
            source: Record = socket.native.links[0].fields["from_node"]
            if source.fields.get("bl_idname") == "ShaderNodeRGB":
                return _values(sockets(source, True)[0].fields.get("default_value"))
            return None
        return _values(socket.fields.get("default_value"))
    return None


def _changed(colour: Sequence[float] | None, default: Sequence[float]) -> bool:
    return colour is not None and any(
        abs(a - b) > 1e-6 for a, b in zip(colour[:3], default[:3], strict=False)
    )


def material_colour(
    material: Record | None, object_color: Sequence[float] | None
) -> tuple[tuple[float, float, float], str] | None:
    """The linear RGB a model gave an object, and where it was read from."""
    surface = diffuse = None
    if material is not None:
        surface = surface_colour(material)
        diffuse = _values(material.fields.get("diffuse_color"))
    for colour, where in (
        (surface, "the material's surface shader"),
        (diffuse, "the material's diffuse_color"),
    ):
        if colour is not None and _changed(colour, DEFAULT_GREY):
            return (colour[0], colour[1], colour[2]), where
    if object_color is not None and _changed(object_color, WHITE):
        return (object_color[0], object_color[1], object_color[2]), "the object's color"
    fallback = surface or diffuse
    if material is not None and fallback is not None:
        return (fallback[0], fallback[1], fallback[2]), "the material's default grey"
    return None
