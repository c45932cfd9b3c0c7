"""``spatialbabel render``: draw one scene file with one of its cameras into a PNG.

Exit codes: 0 written; 3 the scene file is unreadable or has no such camera; 4 pyrender or an
EGL context is not available.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from render.shading import SHADINGS
from spatialbabel.cli import ExitCode

HELP = "re-render one scene JSON with one of its cameras (pyrender, offscreen) into a PNG"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "scene", type=Path, metavar="SCENE.json", help="a scene file (scenes/<id>.json of a split)"
    )
    parser.add_argument(
        "--camera", metavar="NAME", help="camera name (default: the frontal one, the scene's first)"
    )
    parser.add_argument("--out", type=Path, required=True, metavar="PNG", help="image to write")
    parser.add_argument(
        "--masks",
        type=Path,
        metavar="PNG",
        help="also write the instance masks: 16-bit PNG, 1 + object index, 0 background",
    )
    parser.add_argument("--no-ground", action="store_true", help="leave the ground plane out")
    parser.add_argument(
        "--shading",
        choices=SHADINGS,
        default=SHADINGS[0],
        help="lambert: diffuse light painted from the instance pass (fast, the default); "
        "pbr: pyrender's physically based shading with 4x multisampling (smoother edges)",
    )


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from PIL import Image

    from render.errors import RendererUnavailable
    from spatialbabel import Scene
    from spatialbabel.files import atomic_write_bytes

    scene = Scene.load(args.scene)
    try:
        from render.offscreen import Renderer

        with Renderer(ground=not args.no_ground, shading=args.shading) as renderer:
            rendering = renderer.render(scene, args.camera)
    except RendererUnavailable as error:
        print(f"spatialbabel render: {error}", file=sys.stderr)
        return ExitCode.MISSING_DEPENDENCY
    assert rendering.color is not None
    buffer = io.BytesIO()
    Image.fromarray(rendering.color).save(buffer, format="PNG")
    atomic_write_bytes(args.out, buffer.getvalue())
    if args.masks is not None:
        buffer = io.BytesIO()
        Image.fromarray(rendering.instances.astype(np.uint16)).save(buffer, format="PNG")
        atomic_write_bytes(args.masks, buffer.getvalue())
    camera = rendering.camera
    print(
        f"{args.out}: {scene.scene_id}, camera {camera.name}, {camera.width}x{camera.height}, "
        f"{int(np.count_nonzero(rendering.pixel_counts()))}/{len(scene.objects)} objects visible"
    )
    return ExitCode.OK
