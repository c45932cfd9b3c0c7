"""``spatialbabel domains``: the primitive domain against the open domain, side by side.

Reads two scoring runs (``spatialbabel score --out DIR``), one on a split of primitive scenes
and one on real indoor scenes (``spatialbabel import``), and prints per model and language
the Reconstruct Score, class accuracy and scale fidelity of each with the drop from the first
to the second (``scoring.tables.domain_drop_table``); then, as the paper's Appendix F reports
it, each model's drop of the Reconstruct Score and its five components averaged over the
languages, and the per-language profile of the drop with the rank correlation of the
languages between the domains. ``--out`` also writes them as Markdown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.files import atomic_write_text

HELP = "compare scores on primitive scenes with scores on real scenes (open domain): the drop"

MODEL_TITLE = "Drop per model, each column averaged over the languages scored in both (the paper's Appendix F)"
PROFILE_TITLE = (
    "Per-language profile of the Reconstruct Score drop, and Spearman's ρ of the languages' "
    "scores between the domains (near 1: the profile is kept)"
)


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


def run(args: argparse.Namespace) -> int:
    from scoring.tables import (
        aligned_table,
        domain_drop_grid,
        domain_drop_table,
        domain_model_drop_grid,
        domain_profile_grid,
        markdown_table,
        read_cell_means,
    )

    primitive, open_domain = read_cell_means(args.primitive), read_cell_means(args.open)
    _, rows = domain_drop_grid(primitive, open_domain, args.mode)
    if not rows:
        print(
            f"spatialbabel domains: no (model, language) in mode {args.mode!r} is scored in both",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS
    per_model = domain_model_drop_grid(primitive, open_domain, args.mode)
    profile = domain_profile_grid(primitive, open_domain, args.mode)
    print(f"Primitive against open domain, mode {args.mode!r} (drop = primitive - open)")
    print(domain_drop_table(primitive, open_domain, args.mode))
    print(f"\n{MODEL_TITLE}")
    print(aligned_table(*per_model))
    print(f"\n{PROFILE_TITLE}")
    print(aligned_table(*profile))
    if args.out is not None:
        text = "\n".join(
            [
                f"# Primitive against open domain, mode {args.mode}",
                "",
                domain_drop_table(primitive, open_domain, args.mode, markdown=True),
                "",
                f"## {MODEL_TITLE}",
                "",
                markdown_table(*per_model),
                "",
                f"## {PROFILE_TITLE}",
                "",
                markdown_table(*profile),
                "",
            ]
        )
        atomic_write_text(args.out, text)
        print(f"\nwritten to {args.out}")
    return ExitCode.OK
