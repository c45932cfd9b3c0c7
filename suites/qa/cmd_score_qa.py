"""``spatialbabel score-qa``: grade QA answers against a split's questions."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from spatialbabel.cli import ExitCode
from spatialbabel.errors import SceneValidationError
from spatialbabel.files import FileFormatError, write_json
from spatialbabel.qa import Question, parse_mode
from spatialbabel.scene import Scene
from spatialbabel.split import Split
from suites.answers import print_problems
from suites.qa.best_worst import best_worst_rows, format_best_worst
from suites.qa.code_cot_languages import read_picks
from suites.qa.codecot import parser_available
from suites.qa.paper_protocol import PROTOCOLS
from suites.qa.scores import format_table, read_answers, score_answer, summarise

HELP = (
    "Grade answers to a split's spatial questions: accuracy per model, mode and category, with CIs."
)

RESULT_FILE = "qa_scores.json"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--split",
        type=Path,
        required=True,
        metavar="DIR",
        help="the split (its qa.jsonl and scenes/)",
    )
    parser.add_argument(
        "--answers",
        type=Path,
        required=True,
        metavar="FILE",
        help="JSONL answers {question_id, scene_id, model, mode, output}, one per line (what `spatialbabel run` writes)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help=f"where {RESULT_FILE} is written"
    )
    parser.add_argument(
        "--batch-output",
        action="store_true",
        help="the answers file is the output of an OpenAI batch run of `spatialbabel prompts --task qa`",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=None,
        metavar="UNITS",
        help="localization tolerance in scene units (default: each question's own, 0.1 unless generated otherwise)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the bootstrap resampling (default 0)"
    )
    parser.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="project",
        help="the answer reader: project (default; docs/qa.md) or paper (the paper's Appendix C "
        "evaluator)",
    )
    parser.add_argument(
        "--languages-from",
        type=Path,
        default=None,
        metavar="SCORES",
        help="a scores folder (spatialbabel score): also show Code-CoT in each model's best and "
        "worst reconstruction language minus direct, with paired CIs",
    )


class _Scenes:
    """Ground-truth scenes, read from the split when a Code-CoT answer first needs one."""

    def __init__(self, split: Split) -> None:
        self.split = split
        self.loaded: dict[str, Scene] = {}

    def __call__(self, scene_id: str) -> Scene:
        if scene_id not in self.loaded:
            self.loaded[scene_id] = self.split.scene(scene_id)
        return self.loaded[scene_id]


def run(args: argparse.Namespace) -> int:
    if args.tolerance is not None and args.tolerance <= 0:
        print("spatialbabel score-qa: --tolerance must be positive", file=sys.stderr)
        return ExitCode.USAGE
    split = Split.open(args.split)
    questions = split.questions(Question.from_dict)
    other_tasks: list[int] = []
    answers, problems = read_answers(
        args.answers, questions, batch=args.batch_output, other_tasks=other_tasks
    )
    if other_tasks:
        print(
            f"spatialbabel score-qa: {len(other_tasks)} line(s) of {args.answers} answer another task (reconstruction or a suite); left to its scorer",
            file=sys.stderr,
        )
    scenes = _Scenes(split)
    try:
        details = [
            score_answer(
                questions[a.question_id],
                a,
                scenes,
                tolerance=args.tolerance,
                protocol=args.protocol,
            )
            for a in answers
        ]
    except SceneValidationError as error:
        raise FileFormatError(args.split, str(error)) from None
    summary = summarise(details, seed=args.seed)
    for mode in sorted({a.mode for a in answers}):
        kind, language = parse_mode(mode)
        if kind == "code_cot" and language is not None and not parser_available(language):
            print(
                f"spatialbabel score-qa: no {language} parser in this installation; {mode} "
                "answers are graded without the reconstruction check",
                file=sys.stderr,
            )
    per_scene = Counter(q.scene_id for q in questions.values())
    coverage: dict[str, dict[str, Any]] = {}
    for detail in details:
        entry = coverage.setdefault(detail["model"], {}).setdefault(
            detail["mode"], {"answered": 0, "questions": len(questions), "truncated": 0}
        )
        entry["answered"] += 1
        entry["truncated"] += int(detail["truncated"])
    best_worst = (
        best_worst_rows(details, read_picks(args.languages_from), seed=args.seed)
        if args.languages_from is not None
        else None
    )
    report = {
        "split": str(args.split),
        "answers": str(args.answers),
        "tolerance": args.tolerance,
        "seed": args.seed,
        "protocol": args.protocol,
        "counts": {
            "questions": len(questions),
            "scenes": len(per_scene),
            "answers": len(details),
            "truncated": sum(1 for d in details if d["truncated"]),
            "problems": len(problems),
        },
        "coverage": coverage,
        "summary": summary,
        "problems": [p.to_dict() for p in problems],
        "details": details,
    }
    if best_worst is not None:
        report["best_worst"] = [row.to_dict() for row in best_worst]
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(args.out / RESULT_FILE, report)
    print(format_table(summary) if details else "no answers to score")
    if best_worst is not None:
        print("\n" + format_best_worst(best_worst))
    if print_problems(args.answers, problems, left="could not be scored"):
        return ExitCode.PROBLEMS
    return ExitCode.OK
