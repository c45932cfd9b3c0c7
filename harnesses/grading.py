"""Scoring a harness's replies with SpatialBabel's own commands, so every route gives the
numbers ``spatialbabel score``, ``score-qa`` and ``suite score`` give.

The replies are written as an OpenAI batch output file keyed by the requests' ids (the file a
batch run of ``spatialbabel prompts`` returns), and the command of the config's task runs on it
against the export's ``truth/`` folder, exactly as a user would run it; its result files stay
in ``out`` and its numbers are read back from them. ``grade_one`` grades a single reply with the
same graders, for the per-reply verdicts a harness logs beside each sample.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from harnesses.rows import Config
from harnesses.sources import QA, RECONSTRUCT

BATCH_FILE: Final = "replies.batch.jsonl"
#: The result file each command writes, by task kind.
RESULT_FILES: Final = {RECONSTRUCT: "scores.json", QA: "qa_scores.json"}
SUITE_RESULT_FILE: Final = "scores.json"
#: The model name of a harness's replies when the harness does not say.
DEFAULT_MODEL: Final = "harness"


@dataclass(frozen=True)
class HarnessReply:
    """A harness's reply to one request: the request's id, the text, who answered, and why the
    reply ended (``length`` for one cut at the token limit)."""

    custom_id: str
    output: str
    model: str = DEFAULT_MODEL
    finish_reason: str | None = "stop"


def batch_output_line(reply: HarnessReply) -> dict[str, Any]:
    """The reply as a line of an OpenAI batch output file."""
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": reply.output},
        "finish_reason": reply.finish_reason,
    }
    return {
        "id": f"harness-{reply.custom_id}",
        "custom_id": reply.custom_id,
        "response": {"status_code": 200, "body": {"model": reply.model, "choices": [choice]}},
        "error": None,
    }


def write_batch_output(path: Path, replies: Iterable[HarnessReply]) -> int:
    lines = [json.dumps(batch_output_line(r), ensure_ascii=False) + "\n" for r in replies]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines)


def command_argv(config: Config, truth: Path, replies: Path, out: Path) -> list[str]:
    """The ``spatialbabel`` command line that scores ``config``'s replies."""
    if config.task == RECONSTRUCT:
        return [
            "score",
            "--split",
            str(truth),
            "--subset",
            "all",
            "--batch-output",
            "--predictions",
            str(replies),
            "--out",
            str(out),
            "--workers",
            "1",
        ]
    if config.task == QA:
        return ["score-qa", "--split", str(truth), "--batch-output"] + [
            "--answers",
            str(replies),
            "--out",
            str(out),
        ]
    return ["suite", "score", "--suite", config.task, "--items", str(truth), "--batch-output"] + [
        "--answers",
        str(replies),
        "--out",
        str(out),
    ]


@dataclass(frozen=True)
class Scored:
    """What the command made of the replies: its exit code, the table it printed, its result
    file, and the headline numbers of ``model`` in the config (``numbers``)."""

    config: Config
    model: str
    exit_code: int
    table: str
    result: dict[str, Any]
    numbers: dict[str, float]
    out: Path


def _mean(estimate: Mapping[str, Any] | None) -> float:
    value = None if estimate is None else estimate.get("mean")
    return float(value) if isinstance(value, int | float) else math.nan


def reconstruct_numbers(result: Mapping[str, Any], config: Config, model: str) -> dict[str, float]:
    """The cell of (model, language, mode) in a ``scores.json``: every estimate's mean."""
    for cell in result.get("cells", []):
        if (cell["model"], cell["language"], cell["mode"]) == (model, config.language, config.mode):
            return {name: _mean(e) for name, e in cell["estimates"].items()}
    return {}


def qa_numbers(result: Mapping[str, Any], config: Config, model: str) -> dict[str, float]:
    """Accuracy of ``model`` in the config's mode in a ``qa_scores.json``: overall and per
    category."""
    entry = result.get("summary", {}).get(model)
    if entry is None:
        return {}
    numbers = {"accuracy": _mean(entry["by_mode"].get(config.mode))}
    for category, estimate in entry["by_mode_category"].get(config.mode, {}).items():
        numbers[category] = _mean(estimate)
    return numbers


def suite_numbers(result: Mapping[str, Any], config: Config, model: str) -> dict[str, float]:
    """The row of (model, variant) in a suite's ``scores.json``: overall and per task."""
    for row in result.get("rows", []):
        if (row["model"], row["variant"]) == (model, config.mode):
            numbers = {"overall": _mean(row["overall"])}
            numbers |= {task: _mean(e) for task, e in row["tasks"].items()}
            return numbers
    return {}


def numbers_of(result: Mapping[str, Any], config: Config, model: str) -> dict[str, float]:
    if config.task == RECONSTRUCT:
        return reconstruct_numbers(result, config, model)
    if config.task == QA:
        return qa_numbers(result, config, model)
    return suite_numbers(result, config, model)


def result_file(config: Config) -> str:
    return RESULT_FILES.get(config.task, SUITE_RESULT_FILE)


def score_replies(
    export: Path, config: Config, replies: Iterable[HarnessReply], out: Path
) -> Scored:
    """Score the replies to one config of the export folder ``export`` with the usual command;
    its files go to ``out``. Every reply must be one model's (the harness's run)."""
    from spatialbabel.cli import main

    replies = list(replies)
    models = {r.model for r in replies}
    if len(models) > 1:
        raise ValueError(f"replies of several models to one config: {sorted(models)}")
    model = models.pop() if models else DEFAULT_MODEL
    out.mkdir(parents=True, exist_ok=True)
    batch = out / BATCH_FILE
    write_batch_output(batch, replies)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(command_argv(config, export / config.truth, batch, out))
    path = out / result_file(config)
    if not path.is_file():
        raise RuntimeError(
            f"spatialbabel {command_argv(config, export / config.truth, batch, out)[0]} wrote no "
            f"{path.name} (exit {code}); its output: {printed.getvalue()[-2000:]}"
        )
    result = json.loads(path.read_text(encoding="utf-8"))
    return Scored(
        config, model, code, printed.getvalue(), result, numbers_of(result, config, model), out
    )


# --- one reply at a time, for the verdicts a harness logs per sample ---------------------------


@functools.lru_cache(maxsize=8)
def _prepared_suite(folder: Path, name: str) -> Any:
    """The suite, prepared with its items folder once (``suites.grading.grade_all`` does so
    before grading)."""
    from suites import load_suite
    from suites.items import read_items

    suite = load_suite(name)
    items = read_items(folder, suite)
    suite.prepare(items.folder, items.items)
    return suite


def grade_one(export: Path, config: Config, reply: HarnessReply, truth: str) -> dict[str, Any]:
    """One reply's verdict by the graders the commands use: the Reconstruct Score's parts of a
    reconstruction, the verdict of a QA answer, the ``Grade`` of a suite's item. ``truth`` is
    the row's ``truth`` column."""
    record = json.loads(truth)
    if config.task == RECONSTRUCT:
        from scoring.reply import score_output
        from spatialbabel import ModelOutput, Scene

        scene = Scene.from_dict(record)
        assert config.language is not None
        scored = score_output(
            ModelOutput(scene.scene_id, reply.model, config.language, config.mode, reply.output),
            scene,
        )
        return {"parsed": scored.parsed, "score": scored.score, **dict(scored.values)}
    if config.task == QA:
        from spatialbabel.qa import Question
        from suites.qa.grading import grade

        return dict(grade(Question.from_dict(record), reply.output).to_dict())
    from suites.base import Item
    from suites.base import Reply as SuiteReply
    from suites.grading import grade_reply

    suite = _prepared_suite(export / config.truth, config.task)
    item = Item.from_dict(record)
    return dict(
        grade_reply(
            suite, item, SuiteReply(item.item_id, reply.model, config.mode, reply.output)
        ).to_dict()
    )


__all__ = [
    "BATCH_FILE",
    "DEFAULT_MODEL",
    "HarnessReply",
    "Scored",
    "batch_output_line",
    "command_argv",
    "grade_one",
    "numbers_of",
    "score_replies",
    "write_batch_output",
]
