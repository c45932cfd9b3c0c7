"""``spatialbabel domains``: the primitive domain against the open domain, side by side.

Reads two scoring runs (``spatialbabel score --out DIR``), one on a split of primitive scenes
and one on real indoor scenes (``spatialbabel import``), and prints per model and language
the Reconstruct Score, class accuracy and scale fidelity of each with the drop from the first
to the second (``scoring.tables.domain_drop_table``); ``--out`` also writes it as Markdown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.files import FileFormatError, atomic_write_text, read_json

HELP = "compare scores on primitive scenes with scores on real scenes (open domain): the drop"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "primitive",
        type=Path,
        metavar="PRIMITIVE",
        help="scores folder (or scores.json) of the primitive split",
    )
    parser.add_argument(
        "open",
        type=Path,
        metavar="OPEN",
        help="scores folder (or scores.json) of the open-domain split",
    )
    parser.add_argument("--mode", default="direct", help="reconstruction mode (default direct)")
    parser.add_argument(
        "--out", type=Path, default=None, metavar="FILE", help="also write the table as Markdown"
    )


def _means(path: Path) -> dict[tuple[str, str, str], dict[str, float]]:
    from scoring.tables import cell_means_from_scores

    file = path / "scores.json" if path.is_dir() else path
    data = read_json(file)
    try:
        return cell_means_from_scores(data, str(file))
    except ValueError as error:
        raise FileFormatError(file, str(error).removeprefix(f"{file}: ")) from None


def run(args: argparse.Namespace) -> int:
    from scoring.tables import domain_drop_grid, domain_drop_table

    primitive, open_domain = _means(args.primitive), _means(args.open)
    _, rows = domain_drop_grid(primitive, open_domain, args.mode)
    if not rows:
        print(
            f"spatialbabel domains: no (model, language) in mode {args.mode!r} is scored in both",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS
    print(f"Primitive against open domain, mode {args.mode!r} (drop = primitive - open)")
    print(domain_drop_table(primitive, open_domain, args.mode))
    if args.out is not None:
        title = f"# Primitive against open domain, mode {args.mode}\n\n"
        atomic_write_text(
            args.out,
            title + domain_drop_table(primitive, open_domain, args.mode, markdown=True) + "\n",
        )
        print(f"\nwritten to {args.out}")
    return ExitCode.OK
