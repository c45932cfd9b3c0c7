"""``spatialbabel score-qa``: grade QA answers against a split's questions."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from scoring.qa_codecot import parser_available
from scoring.qa_scoring import format_table, read_answers, score_answer, summarise
from spatialbabel.cli import ExitCode
from spatialbabel.errors import SceneValidationError
from spatialbabel.files import FileFormatError, write_json
from spatialbabel.qa import Question, parse_mode
from spatialbabel.scene import Scene
from spatialbabel.split import Split

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
            score_answer(questions[a.question_id], a, scenes, tolerance=args.tolerance)
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
    report = {
        "split": str(args.split),
        "answers": str(args.answers),
        "tolerance": args.tolerance,
        "seed": args.seed,
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
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(args.out / RESULT_FILE, report)
    print(format_table(summary) if details else "no answers to score")
    for problem in problems:
        print(f"{args.answers}:{problem.line}: {problem.message}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} line(s) of {args.answers} could not be scored", file=sys.stderr)
        return ExitCode.PROBLEMS
    return ExitCode.OK
