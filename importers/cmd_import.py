"""``spatialbabel import``: a split of real indoor scenes (the open domain) from a mesh dataset.

Two sources: ``hypersim`` reads Hypersim's on-disk layout (h5py, pandas), one scene per
camera frame with its tone-mapped preview; ``mesh`` reads glTF 2.0 or OBJ files through
trimesh, one scene per file, one object per top-level node. Both write upright oriented boxes
with classes of the open vocabulary, drop the objects the camera does not see (the FOV filter)
and count them, and write the question generator's questions over the open classes
(``qa.jsonl``). ``--subset N`` makes ``eval`` the stratified N-scene evaluation subset (the
paper's 200 of Hypersim's 405; ``importers.subsets``) and ``--phase1-size M`` sets M of the
other scenes aside for S3-FT (docs/real-scenes.md).

Exit codes: 0 a split was written; 1 no scene could be made (every frame or file lacked what
it needs); 2 bad arguments; 3 an input cannot be read or the output folder already holds a
split; 4 the ``real`` extra is not installed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from spatialbabel.cli import ExitCode
from spatialbabel.files import FileFormatError

HELP = "import real indoor scenes (Hypersim, glTF, OBJ) as a split of the open domain"

#: The importers' version, written in the manifest; a change in what they write bumps it
#: (2: the classes of the objects the FOV filter drops, qa.jsonl, the evaluation subset).
IMPORTER_VERSION: Final = "2"


def _names(values: Sequence[str] | None) -> list[str]:
    return [name for value in values or () for name in value.split(",") if name]


def _common(parser: argparse.ArgumentParser) -> None:
    from importers.scenes import DEFAULT_EXCLUDED

    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="folder of the split to write"
    )
    parser.add_argument(
        "--exclude",
        nargs="*",
        default=list(DEFAULT_EXCLUDED),
        metavar="CLASS",
        help=f"classes left out of the scenes (default: {' '.join(DEFAULT_EXCLUDED)}; "
        "give none to keep every class)",
    )
    parser.add_argument(
        "--subset",
        type=int,
        default=None,
        metavar="N",
        help="make eval the stratified N-scene evaluation subset, by object-count quintile (the "
        "paper: 200 of Hypersim's 405); default: every scene in eval",
    )
    parser.add_argument(
        "--phase1-size",
        type=int,
        default=0,
        metavar="M",
        help="with --subset: put M of the other scenes in phase1, S3-FT's (default 0: the rest unused)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the subset draw and of the questions (default %(default)s)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    sources = parser.add_subparsers(dest="source", metavar="SOURCE", required=True)
    hypersim = sources.add_parser(
        "hypersim",
        help="Hypersim scene folders (ai_VVV_NNN, or a folder holding them)",
        description="One scene per camera frame that has its tone-mapped preview image.",
    )
    hypersim.add_argument("roots", nargs="+", type=Path, metavar="DIR")
    hypersim.add_argument(
        "--cameras", nargs="*", default=None, metavar="NAME", help="trajectories (default: all)"
    )
    hypersim.add_argument(
        "--frames",
        nargs="*",
        type=int,
        default=None,
        metavar="N",
        help="frame indices (default: all)",
    )
    hypersim.add_argument(
        "--every", type=int, default=1, metavar="K", help="keep every K-th chosen frame (default 1)"
    )
    _common(hypersim)
    mesh = sources.add_parser(
        "mesh",
        help="glTF 2.0 (.glb, .gltf) or OBJ files, one node per object",
        description="One scene per file; its picture is --image or the image file beside it "
        "with its name (room.glb -> room.png or room.jpg).",
    )
    mesh.add_argument("files", nargs="+", type=Path, metavar="FILE")
    mesh.add_argument(
        "--labels",
        type=Path,
        default=None,
        metavar="JSON",
        help='label map: node-name patterns -> class, e.g. {"Sofa*": "sofa", "Floor": null} '
        "(default: the taxonomy reads each node's name)",
    )
    mesh.add_argument("--image", type=Path, default=None, help="the picture (one FILE only)")
    mesh.add_argument(
        "--camera-eye",
        nargs=3,
        type=float,
        default=None,
        metavar=("X", "Y", "Z"),
        help="camera position, scene frame (Y up, metres); default: the file's camera",
    )
    mesh.add_argument(
        "--camera-target",
        nargs=3,
        type=float,
        default=None,
        metavar=("X", "Y", "Z"),
        help="the point the camera looks at (with --camera-eye)",
    )
    mesh.add_argument(
        "--fov-y", type=float, default=60.0, help="vertical field of view, degrees (default 60)"
    )
    mesh.add_argument(
        "--width", type=int, default=None, help="image width (default: the picture's)"
    )
    mesh.add_argument(
        "--height", type=int, default=None, help="image height (default: the picture's)"
    )
    mesh.add_argument(
        "--up", choices=("y", "z"), default="y", help="OBJ only: the file's up axis (default y)"
    )
    mesh.add_argument(
        "--unit", type=float, default=1.0, help="OBJ only: metres per file unit (default 1)"
    )
    _common(mesh)


def _describe(counts: dict[str, Any], skipped: Counter[str]) -> str:
    excluded = ", ".join(f"{k} {v}" for k, v in counts["excluded"].items()) or "none"
    passed = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(skipped.items())) or "none"
    return (
        f"{counts['scenes']} scenes, {counts['objects']} objects "
        f"({counts['objects_per_scene_unfiltered']} per scene before the FOV filter, "
        f"{counts['objects_per_scene']} after; {counts['fov_dropped']} dropped outside the "
        f"camera's view); classes left out: {excluded}; passed over: {passed}"
    )


def _run_hypersim(args: argparse.Namespace) -> tuple[Iterator[Any], Counter[str], dict[str, Any]]:
    from importers.hypersim import HypersimOptions, HypersimReport, read_hypersim

    options = HypersimOptions(tuple(_names(args.cameras)), tuple(args.frames or ()), args.every)
    report = HypersimReport()
    parameters = {
        "source": "hypersim",
        "roots": [str(p) for p in args.roots],
        "cameras": list(options.cameras),
        "frames": list(options.frames),
        "every": options.every,
    }
    return read_hypersim(args.roots, options, report), report.skipped, parameters


def _run_mesh(args: argparse.Namespace) -> tuple[Iterator[Any], Counter[str], dict[str, Any]]:
    from importers.mesh_scene import CameraSpec, LabelMap, MeshReport, read_mesh_scene

    if args.image is not None and len(args.files) != 1:
        raise ValueError("--image goes with one FILE; give each file its picture beside it")
    if (args.camera_eye is None) != (args.camera_target is None):
        raise ValueError("--camera-eye and --camera-target go together")
    labels = LabelMap.load(args.labels) if args.labels is not None else LabelMap()
    camera = (
        CameraSpec(
            tuple(args.camera_eye), tuple(args.camera_target), args.fov_y, args.width, args.height
        )
        if args.camera_eye is not None
        else None
    )
    report = MeshReport()

    def scenes() -> Iterator[Any]:
        for path in args.files:
            yield read_mesh_scene(
                path, labels, report, camera=camera, image=args.image, up=args.up, unit=args.unit
            )

    parameters = {
        "source": "mesh",
        "files": [str(p) for p in args.files],
        "labels": str(args.labels) if args.labels is not None else None,
        "camera": None
        if camera is None
        else {
            "eye": list(camera.eye),
            "target": list(camera.target),
            "fov_y_deg": camera.fov_y_deg,
        },
        "up": args.up,
        "unit": args.unit,
    }
    return scenes(), report.skipped, parameters


def run(args: argparse.Namespace) -> int:
    from importers.scenes import assemble, prepare_out, write_split

    try:
        prepare_out(args.out)
        reader = _run_hypersim if args.source == "hypersim" else _run_mesh
        sources, skipped, parameters = reader(args)
        excluded = _names(args.exclude)
        parameters["exclude"] = excluded
        parameters["seed"] = args.seed
        parameters["subset"] = args.subset
        parameters["phase1_size"] = args.phase1_size
        if args.subset is not None and args.subset < 1:
            raise ValueError(f"--subset must be at least 1, got {args.subset}")

        def assembled() -> Iterator[Any]:
            for source in sources:
                made = assemble(source, excluded)
                if not made.scene.objects:
                    skipped["view_without_objects"] += 1
                    continue
                yield made

        counts = write_split(
            args.out,
            assembled(),
            importer=f"spatialbabel-import-{args.source}",
            version=IMPORTER_VERSION,
            parameters=parameters,
            skipped=skipped,
            excluded_classes=excluded,
            seed=args.seed,
            subset=args.subset,
            phase1_size=args.phase1_size,
        )
    except FileFormatError:
        raise  # the CLI reports it with exit 3
    except ValueError as error:
        print(f"spatialbabel import: {error}", file=sys.stderr)
        return ExitCode.USAGE
    print(
        f"imported into {args.out}: {_describe(counts, skipped)}; {counts['questions']} questions"
    )
    if args.subset is not None:
        from spatialbabel.split import Split

        subsets = Split(args.out).subsets
        sizes = ", ".join(f"{name} {len(subsets[name])}" for name in ("eval", "phase1", "unused"))
        strata = ", ".join(
            f"{name} {entry['objects'][0]}-{entry['objects'][1]} objects ({entry['scenes']} scenes, "
            f"{subsets['counts']['eval'].get(name, 0)} in eval)"
            for name, entry in subsets["strata"].items()
        )
        print(f"subsets (seed {args.seed}): {sizes}; strata: {strata}")
    if counts["scenes"] == 0:
        print("spatialbabel import: no scene was made", file=sys.stderr)
        return ExitCode.PROBLEMS
    return ExitCode.OK
