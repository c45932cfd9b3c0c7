"""A scene as the three.js module a careful model would write (for prompts, demo replies and
round-trip tests): real sizes in the geometry constructors where the shape allows, three's own
frame (the canonical one), colours as sRGB hex, rotations as Euler XYZ radians."""

from __future__ import annotations

import math

import numpy as np

from spatialbabel import Camera, Scene, SceneObject
from spatialbabel.palette import PALETTE, rgb_to_hex

_TOLERANCE = 1e-12


def _n(value: float) -> str:
    """Shortest text that reads back as exactly ``value``."""
    if value == 0:
        return "0"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOLERANCE * max(1.0, abs(a), abs(b))


def _geometry(obj: SceneObject) -> tuple[list[str], tuple[float, float, float] | None]:
    """Geometry lines and the mesh scale still needed (None when the geometry has the size)."""
    sx, sy, sz = obj.size
    kind = obj.class_name
    if kind == "cube":
        return [f"new THREE.BoxGeometry({_n(sx)}, {_n(sy)}, {_n(sz)})"], None
    if kind == "sphere":
        if _same(sx, sy) and _same(sx, sz):
            return [f"new THREE.SphereGeometry({_n(sx / 2)}, 32, 16)"], None
        return ["new THREE.SphereGeometry(0.5, 32, 16)"], (sx, sy, sz)
    if kind == "cylinder":
        if _same(sx, sz):
            return [f"new THREE.CylinderGeometry({_n(sx / 2)}, {_n(sx / 2)}, {_n(sy)}, 32)"], None
        return ["new THREE.CylinderGeometry(0.5, 0.5, 1, 32)"], (sx, sy, sz)
    if kind == "cone":
        if _same(sx, sz):
            return [f"new THREE.ConeGeometry({_n(sx / 2)}, {_n(sy)}, 32)"], None
        return ["new THREE.ConeGeometry(0.5, 1, 32)"], (sx, sy, sz)
    if kind == "pyramid":
        # A 4-sided cone has its corners on the axes; a quarter of a right angle brings its
        # edges onto them.
        if _same(sx, sz):
            return [
                f"new THREE.ConeGeometry({_n(sx / math.sqrt(2))}, {_n(sy)}, 4)",
                "geometry.rotateY(-Math.PI / 4);",
            ], None
        return ["new THREE.ConeGeometry(Math.SQRT1_2, 1, 4)", "geometry.rotateY(-Math.PI / 4);"], (
            sx,
            sy,
            sz,
        )
    if kind == "torus":
        # three's torus stands in the XY plane; the scene's lies flat.
        if _same(sx, sz) and _same(sy, 0.25 * sx):
            return [
                f"new THREE.TorusGeometry({_n(0.375 * sx)}, {_n(0.125 * sx)})",
                "geometry.rotateX(-Math.PI / 2);",
            ], None
        return ["new THREE.TorusGeometry(0.375, 0.125)", "geometry.rotateX(-Math.PI / 2);"], (
            sx,
            sy / 0.25,
            sz,
        )
    return [f"new THREE.BoxGeometry({_n(sx)}, {_n(sy)}, {_n(sz)})"], None


def _camera_lines(camera: Camera) -> list[str]:
    pose = np.array(camera.cam_to_world, dtype=float)
    from parsers.threejs.three_math import quat_from_rotation_matrix

    x, y, z, w = quat_from_rotation_matrix(pose)
    return [
        f"const camera = new THREE.PerspectiveCamera({_n(camera.fov_y_deg)}, {_n(camera.width / camera.height)}, 0.1, 100);",
        f"camera.position.set({_n(pose[0, 3])}, {_n(pose[1, 3])}, {_n(pose[2, 3])});",
        f"camera.quaternion.set({_n(x)}, {_n(y)}, {_n(z)}, {_n(w)});",
    ]


def _object_lines(obj: SceneObject) -> list[str]:
    geometry, scale = _geometry(obj)
    rgb = obj.rgb if obj.rgb is not None else PALETTE.get(obj.color or "white")
    color = "0x" + rgb_to_hex(rgb)[1:] if rgb is not None else "0xffffff"
    lines = [f"// {obj.id}: {obj.class_name}" + (f", {obj.color}" if obj.color else ""), "{"]
    lines.append(f"  const geometry = {geometry[0]};")
    lines.extend(f"  {extra}" for extra in geometry[1:])
    lines.append(f"  const material = new THREE.MeshStandardMaterial({{ color: {color} }});")
    lines.append("  const mesh = new THREE.Mesh(geometry, material);")
    lines.append(f"  mesh.name = {obj.id!r};")
    x, y, z = obj.position
    lines.append(f"  mesh.position.set({_n(x)}, {_n(y)}, {_n(z)});")
    if any(obj.rotation):
        rx, ry, rz = (math.radians(a) for a in obj.rotation)
        lines.append(f"  mesh.rotation.set({_n(rx)}, {_n(ry)}, {_n(rz)});")
    if scale is not None:
        lines.append(f"  mesh.scale.set({_n(scale[0])}, {_n(scale[1])}, {_n(scale[2])});")
    lines.append("  scene.add(mesh);")
    lines.append("}")
    return lines


def write_threejs(scene: Scene) -> str:
    """``scene`` as an ES-module three.js script that renders it."""
    lines = [
        "import * as THREE from 'three';",
        "",
        "const scene = new THREE.Scene();",
        "scene.background = new THREE.Color(0xdddddd);",
    ]
    camera = scene.frontal_camera
    if camera is not None:
        lines.extend(_camera_lines(camera))
    else:
        lines.extend(
            [
                "const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100);",
                "camera.position.set(0, 4, 9);",
                "camera.lookAt(0, 0, 0);",
            ]
        )
    lines.extend(
        [
            "const renderer = new THREE.WebGLRenderer({ antialias: true });",
            "renderer.setSize(512, 512);",
            "document.body.appendChild(renderer.domElement);",
            "scene.add(new THREE.AmbientLight(0xffffff, 0.6));",
            "const sun = new THREE.DirectionalLight(0xffffff, 1.0);",
            "sun.position.set(3, 6, 4);",
            "scene.add(sun);",
            "",
        ]
    )
    for obj in scene.objects:
        lines.extend(_object_lines(obj))
        lines.append("")
    lines.append("renderer.render(scene, camera);")
    return "\n".join(lines) + "\n"
