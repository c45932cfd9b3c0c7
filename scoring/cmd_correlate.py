"""``spatialbabel correlate SCORES QA_SCORES``: Reconstruct F1 against QA accuracy, across
models (the paper's Table 10).

Reads a reconstruction scoring run (``spatialbabel score --out DIR``) and a QA scoring run
(``spatialbabel score-qa --out DIR``) of the same models, and prints per model its Reconstruct
F1 (or ``--metric``) averaged over its languages in ``--mode`` beside its QA accuracy in
``--qa-mode``, then Pearson's r and Spearman's rho with their p-values and the number of
models, with the note that few models make weak evidence. ``--out`` writes it as Markdown,
``--json`` as JSON.

Exit codes: 0 a correlation was computed; 1 fewer than 3 models are in both runs (the table is
still printed); 2 bad arguments; 3 an unreadable scores file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spatialbabel.cli import ExitCode
from spatialbabel.files import FileFormatError, atomic_write_text, dump_json, read_json

HELP = "correlate each model's Reconstruct F1 with its QA accuracy (Pearson, Spearman)"

#: The file score-qa writes into its output folder.
QA_RESULT_FILE = "qa_scores.json"


def configure(parser: argparse.ArgumentParser) -> None:
    from scoring.tables import language_mean_columns

    parser.add_argument(
        "scores", type=Path, metavar="SCORES", help="scores folder (or scores.json) of `score`"
    )
    parser.add_argument(
        "qa_scores",
        type=Path,
        metavar="QA_SCORES",
        help=f"scores folder (or {QA_RESULT_FILE}) of `score-qa`",
    )
    parser.add_argument(
        "--metric",
        choices=language_mean_columns(),
        default="f1",
        help="the reconstruction column averaged over languages (default f1, the paper's)",
    )
    parser.add_argument("--mode", default="direct", help="reconstruction mode (default direct)")
    parser.add_argument("--qa-mode", default="direct", help="QA mode (default direct)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="also as Markdown")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also as JSON")


def run(args: argparse.Namespace) -> int:
    from scoring.correlation import MIN_MODELS, correlate, qa_accuracy_by_model
    from scoring.tables import correlation_table, language_means, read_cell_means

    means = language_means(read_cell_means(args.scores))
    qa_file = args.qa_scores / QA_RESULT_FILE if args.qa_scores.is_dir() else args.qa_scores
    try:
        qa = qa_accuracy_by_model(read_json(qa_file), args.qa_mode, str(qa_file))
    except ValueError as error:
        raise FileFormatError(qa_file, str(error).removeprefix(f"{qa_file}: ")) from None
    found = correlate(means, qa, metric=args.metric, mode=args.mode, qa_mode=args.qa_mode)
    title = (
        f"Reconstruct {args.metric} (mode {args.mode}, mean over languages) against QA accuracy "
        f"(mode {args.qa_mode}), per model"
    )
    print(title)
    print(correlation_table(found))
    if args.out is not None:
        atomic_write_text(args.out, f"# {title}\n\n{correlation_table(found, markdown=True)}\n")
        print(f"\nwritten to {args.out}")
    if args.json is not None:
        atomic_write_text(args.json, dump_json({"schema_version": 1, **found.to_dict()}))
    if found.n < MIN_MODELS:
        print(
            f"spatialbabel correlate: {found.n} model(s) in both runs; {MIN_MODELS} are needed",
            file=sys.stderr,
        )
        return ExitCode.PROBLEMS
    return ExitCode.OK
