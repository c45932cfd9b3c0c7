"""The functions an exported lmms-eval task package calls (its ``utils.py`` takes them from here).

``doc_to_visual``, ``doc_to_text`` and ``doc_to_messages`` give the request exactly as the
dataset row holds it (the row is the request file's line: same images, same system and user
text); ``process_results`` grades one reply with SpatialBabel's own graders (the verdict lmms-eval
logs beside the sample) and passes the reply on; each metric's aggregation scores all the
replies of its task with the usual command (``harnesses.grading``) and returns that command's
number, so the task's result is the number ``spatialbabel score``, ``score-qa`` or ``suite
score`` gives on the same replies.

lmms-eval strips the outer whitespace of every reply before ``process_results``; it keeps no
finish reason, so no reply counts as cut at the token limit.

Environment: ``SPATIALBABEL_MODEL`` names the model in the tables (default ``lmms-eval``);
``SPATIALBABEL_SCORES`` is a folder where each task's command writes its files
(``<folder>/<config>/``: scores.json and the tables), kept after the run.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from harnesses.grading import HarnessReply, Scored, grade_one, score_replies
from harnesses.rows import Config, config_of
from harnesses.sources import QA, RECONSTRUCT

TASKS_FILE: Final = "spatialbabel_tasks.json"
MODEL_VARIABLE: Final = "SPATIALBABEL_MODEL"
SCORES_VARIABLE: Final = "SPATIALBABEL_SCORES"
DEFAULT_MODEL: Final = "lmms-eval"

#: The metrics of a task, by its kind: the name lmms-eval reports, and the number of the
#: scoring command's result it is (``harnesses.grading.numbers_of``).
METRICS: Final[dict[str, tuple[str, ...]]] = {
    RECONSTRUCT: ("score", "f1", "parse"),
    QA: ("accuracy",),
}
SUITE_METRICS: Final = ("overall",)


def metrics_of(config: Config) -> tuple[str, ...]:
    return METRICS.get(config.task, SUITE_METRICS)


def task_name(config: Config) -> str:
    return f"spatialbabel_{config.name}"


class Hooks:
    """The hooks of one task package (the folder holding ``spatialbabel_tasks.json``)."""

    def __init__(self, package: Path) -> None:
        self.package = package
        self.record = json.loads((package / TASKS_FILE).read_text(encoding="utf-8"))
        self._truth: Path | None = None
        self._scored: dict[str, Scored] = {}

    # -- where the export's truth is ------------------------------------------------------------

    @property
    def export(self) -> Path:
        """The export folder whose ``truth/`` grades the replies: the local dataset folder, or
        its ``truth/`` files fetched from the Hub when the tasks point at a repository."""
        if self._truth is None:
            local = Path(self.record["dataset"])
            if local.is_dir():
                self._truth = local
            else:
                from huggingface_hub import snapshot_download

                self._truth = Path(
                    snapshot_download(
                        self.record["dataset_path"],
                        repo_type="dataset",
                        allow_patterns=["truth/**", "spatialbabel_export.json"],
                    )
                )
        return self._truth

    # -- the request ----------------------------------------------------------------------------

    def doc_to_visual(self, doc: Mapping[str, Any]) -> list[Any]:
        """The request's images (as the dataset decodes them), or its video as a file path."""
        visuals: list[Any] = list(doc.get("images") or [])
        video = doc.get("video")
        if video:
            visuals.append(str(_video_file(bytes(video))))
        return visuals

    def doc_to_text(
        self, doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None
    ) -> str:
        """The request's user text, as ``spatialbabel prompts`` wrote it."""
        return str(doc["prompt"])

    def doc_to_messages(
        self, doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The request as chat messages (lmms-eval's chat models): the system turn, then the
        user turn with the images (or the video) before the text, as the request file has them."""
        content: list[dict[str, Any]] = [
            {"type": "image", "url": image} for image in doc.get("images") or []
        ]
        video = doc.get("video")
        if video:
            content.append({"type": "video", "url": str(_video_file(bytes(video)))})
        content.append({"type": "text", "text": str(doc["prompt"])})
        return [
            {"role": "system", "content": [{"type": "text", "text": str(doc["system"])}]},
            {"role": "user", "content": content},
        ]

    # -- grading --------------------------------------------------------------------------------

    def process_results(
        self, doc: Mapping[str, Any], results: Sequence[str], **_: Any
    ) -> dict[str, dict[str, Any]]:
        """One reply: graded on its own (the verdict lmms-eval logs), and passed on to every
        metric's aggregation."""
        reply = HarnessReply(str(doc["id"]), results[0] if results else "", _model())
        config = config_of(reply.custom_id)
        verdict = grade_one(self.export, config, reply, str(doc["truth"]))
        value = {"id": reply.custom_id, "output": reply.output, "verdict": _plain(verdict)}
        return {metric: value for metric in metrics_of(config)}

    def scored(self, values: Sequence[Mapping[str, Any]]) -> Scored:
        """The usual command's result on the replies of one task (computed once per metric set)."""
        replies = [HarnessReply(v["id"], v["output"], _model()) for v in values]
        configs = {config_of(r.custom_id) for r in replies}
        if len(configs) != 1:
            raise ValueError(f"replies of {len(configs)} configs in one aggregation")
        config = configs.pop()
        key = hashlib.sha256(
            json.dumps([[r.custom_id, r.output, r.model] for r in replies]).encode()
        ).hexdigest()
        if key not in self._scored:
            where = os.environ.get(SCORES_VARIABLE)
            if where:
                self._scored[key] = score_replies(
                    self.export, config, replies, Path(where) / config.name
                )
            else:
                with tempfile.TemporaryDirectory(prefix="spatialbabel-") as scratch:
                    self._scored[key] = score_replies(self.export, config, replies, Path(scratch))
        return self._scored[key]

    def aggregation(self, metric: str) -> Callable[[Sequence[Mapping[str, Any]]], float]:
        """The aggregation of one metric: its number in the usual command's result."""

        def aggregate(values: Sequence[Mapping[str, Any]]) -> float:
            return float(self.scored(values).numbers.get(metric, float("nan")))

        aggregate.__name__ = f"aggregate_{metric}"
        return aggregate


def _model() -> str:
    return os.environ.get(MODEL_VARIABLE) or DEFAULT_MODEL


def _plain(value: Any) -> Any:
    """A verdict as plain JSON values (lmms-eval writes the samples as JSON)."""
    return json.loads(json.dumps(value, default=str))


def _video_file(data: bytes) -> Path:
    """The MP4 bytes of a row in a file (lmms-eval's video models read a path), named by their
    hash so each video is written once."""
    folder = Path(tempfile.gettempdir()) / "spatialbabel-videos"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.mp4"
    if not path.is_file():
        draft = path.with_suffix(f".{os.getpid()}.part")
        draft.write_bytes(data)
        draft.replace(path)
    return path


__all__ = [
    "DEFAULT_MODEL",
    "METRICS",
    "MODEL_VARIABLE",
    "SCORES_VARIABLE",
    "SUITE_METRICS",
    "TASKS_FILE",
    "Hooks",
    "metrics_of",
    "task_name",
]
