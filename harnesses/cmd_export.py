"""``spatialbabel export hf|lmms-eval|vlmevalkit``: SpatialBabel in the harnesses users run.

``hf SPLIT_OR_ITEMS... --out DIR`` writes a Hugging Face dataset folder (``harnesses.hf_export``);
``lmms-eval --dataset DIR --out TASKS`` an lmms-eval task package over it
(``harnesses.lmms_eval_export``); ``vlmevalkit --dataset DIR --out FOLDER`` VLMEvalKit's
TSVs and dataset class (``harnesses.vlmevalkit_export``). docs/harnesses.md has the routes.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.errors import SpatialBabelError

HELP = (
    "Export splits and suites' items for other harnesses: a Hugging Face dataset, an lmms-eval "
    "task package, VLMEvalKit datasets."
)
TARGETS = ("hf", "lmms-eval", "vlmevalkit")
#: The modules each target needs beyond the plain install, and the extra that brings them.
NEEDS = {"datasets": "hf", "pyarrow": "hf", "huggingface_hub": "hf", "pandas": "hf"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=TARGETS, help="what to write")
    parser.add_argument(
        "sources",
        nargs="*",
        type=Path,
        metavar="SPLIT_OR_ITEMS",
        help="hf: a split and/or suites' items folders (spatialbabel suite build)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="the folder to write"
    )
    parser.add_argument(
        "--dataset",
        type=Path,
        metavar="DIR",
        help="lmms-eval, vlmevalkit: the folder `spatialbabel export hf` wrote",
    )
    parser.add_argument(
        "--dataset-path",
        metavar="PATH_OR_REPO",
        help="lmms-eval: what the tasks load (default: the --dataset folder; a Hub repository "
        "once the folder is pushed there)",
    )
    split = parser.add_argument_group("hf, for a split (as `spatialbabel prompts` takes them)")
    split.add_argument(
        "--tasks",
        nargs="+",
        choices=("reconstruct", "qa"),
        default=["reconstruct", "qa"],
        help="the split's tasks (default: both; qa only when the split has questions)",
    )
    split.add_argument("--languages", nargs="+", metavar="LANG", help="default: all six")
    split.add_argument(
        "--reconstruct-modes", nargs="+", metavar="MODE", help="default: direct nl_cot"
    )
    split.add_argument(
        "--qa-modes",
        nargs="+",
        metavar="MODE",
        help="default: direct nl_cot and code_cot in every language",
    )
    split.add_argument(
        "--subset", metavar="NAME", help="only the scenes of this subset (eval, phase1, unused)"
    )
    items = parser.add_argument_group("hf, for items folders")
    items.add_argument(
        "--variants", nargs="+", metavar="VARIANT", help="default: every variant of each suite"
    )
    card = parser.add_argument_group("hf, the dataset card and files")
    card.add_argument(
        "--license",
        default="apache-2.0",
        metavar="ID",
        help="the licence the card states (default apache-2.0, the project's)",
    )
    card.add_argument(
        "--max-shard-mb",
        type=int,
        default=500,
        metavar="MB",
        help="largest Parquet shard, in MB (default 500)",
    )


def rebuild_command(args: argparse.Namespace) -> str:
    """The command line that writes the same folder again (the card records it)."""
    argv = ["spatialbabel", "export", "hf", *map(str, args.sources), "--out", str(args.out)]
    for flag, value in (
        ("--tasks", args.tasks if args.tasks != ["reconstruct", "qa"] else None),
        ("--languages", args.languages),
        ("--reconstruct-modes", args.reconstruct_modes),
        ("--qa-modes", args.qa_modes),
        ("--subset", [args.subset] if args.subset else None),
        ("--variants", args.variants),
        ("--license", [args.license] if args.license != "apache-2.0" else None),
        ("--max-shard-mb", [str(args.max_shard_mb)] if args.max_shard_mb != 500 else None),
    ):
        if value:
            argv += [flag, *value]
    return shlex.join(argv)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _hf(args: argparse.Namespace) -> int:
    from harnesses.hf_export import Source, export_hf
    from harnesses.rows import SplitSelection

    if not args.sources:
        print("spatialbabel export hf: give a split or items folders", file=sys.stderr)
        return ExitCode.USAGE
    if args.max_shard_mb < 1:
        print("spatialbabel export hf: --max-shard-mb must be at least 1", file=sys.stderr)
        return ExitCode.USAGE
    selection = SplitSelection(
        tasks=tuple(args.tasks),
        languages=tuple(args.languages) if args.languages else None,
        reconstruct_modes=tuple(args.reconstruct_modes) if args.reconstruct_modes else None,
        qa_modes=tuple(args.qa_modes) if args.qa_modes else None,
        subset=args.subset,
    )
    variants = tuple(args.variants) if args.variants else None
    start = time.perf_counter()
    try:
        record = export_hf(
            [Source(path, selection, variants) for path in args.sources],
            args.out,
            command=rebuild_command(args),
            license_id=args.license,
            max_shard_bytes=args.max_shard_mb * 1_000_000,
        )
    except SpatialBabelError:
        raise
    except ValueError as error:
        print(f"spatialbabel export hf: {error}", file=sys.stderr)
        return ExitCode.USAGE
    seconds = time.perf_counter() - start
    rows = sum(c["rows"] for c in record["configs"])
    print(
        f"{rows} rows in {len(record['configs'])} configs written to {args.out} "
        f"({_size(args.out) / 1e6:.1f} MB, {seconds:.1f} s)"
    )
    for config in record["configs"]:
        print(f"  {config['name']}: {config['rows']}")
    return ExitCode.OK


def _from_dataset(args: argparse.Namespace) -> int:
    from harnesses.record import read_record

    if args.dataset is None:
        print(f"spatialbabel export {args.target}: --dataset is required", file=sys.stderr)
        return ExitCode.USAGE
    if args.sources:
        print(
            f"spatialbabel export {args.target}: takes --dataset (the folder export hf wrote), "
            "not sources",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    export = read_record(args.dataset)
    try:
        if args.target == "lmms-eval":
            from harnesses.lmms_eval_export import export_lmms_eval

            names = export_lmms_eval(export, args.out, dataset_path=args.dataset_path)
            print(f"{len(names)} lmms-eval tasks written to {args.out}; run them with:")
            print(f"  lmms-eval --include_path {args.out} --tasks spatialbabel --model ...")
        else:
            from harnesses.vlmevalkit_export import export_vlmevalkit

            skipped: dict[str, str] = {}
            names = export_vlmevalkit(export, args.out, skipped=skipped)
            print(f"{len(names)} VLMEvalKit datasets written to {args.out}:")
            for name in names:
                print(f"  {name}")
            for reason in skipped.values():
                print(f"  left out: {reason}")
    except SpatialBabelError:
        raise
    except ValueError as error:
        print(f"spatialbabel export {args.target}: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    try:
        return _hf(args) if args.target == "hf" else _from_dataset(args)
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top not in NEEDS:
            raise
        print(
            f"spatialbabel export {args.target}: {top} is not installed; install it with: "
            f"pip install 'spatialbabel[{NEEDS[top]}]'",
            file=sys.stderr,
        )
        return ExitCode.MISSING_DEPENDENCY
