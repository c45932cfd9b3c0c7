"""``build``: from a split and a model's ``phase1`` replies to training data in three formats.

Each reply is filtered, parsed into its pseudo-ground truth, scored against the true scene and
turned into its records, one work unit per reply on an executor (local processes, or Ray:
``spatialbabel.run.executor``), since a scene's work depends on nothing else. Then the scenes are split 90/10 (``s3ft.splitting``) and everything is written::

    out/records.jsonl            every record, format-neutral, with its split
    out/replies.jsonl            what became of each reply (kept, no objects, rejected: why)
    out/pseudo_truth.jsonl       the pseudo-ground-truth scene of each kept reply, one per line
    out/openai_{train,val}.jsonl     OpenAI chat format
    out/messages_{train,val}.jsonl   messages + images (LLaMA-Factory, ms-swift)
    out/dataset_info.json            LLaMA-Factory's description of the two files
    out/images/                      the images those files point to
    out/hf/                          Hugging Face DatasetDict (train, val) for TRL
    out/stats.json                   the statistics (``spatialbabel s3ft stats``)
"""

from __future__ import annotations

import importlib.util
import shutil
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from s3ft.formats import (
    IMAGES_DIR,
    ImageUrls,
    copy_images,
    messages_file,
    openai_file,
    write_llama_factory_info,
    write_messages,
    write_openai,
)
from s3ft.phase1 import Phase1Split
from s3ft.pseudo import ReplyVerdict, pseudo_truth
from s3ft.records import Record, scene_records
from s3ft.replies import ReplyFormat, ReplySet, SceneCodeReply, read_replies
from s3ft.splitting import DEFAULT_SEED, DEFAULT_VAL_FRACTION, SPLITS, validation_scenes
from s3ft.stats import KIND, SceneQuality, build_stats
from scoring.reply import score_reply
from spatialbabel import Scene
from spatialbabel.errors import SpatialBabelError
from spatialbabel.files import FileFormatError, read_json, write_json, write_jsonl
from spatialbabel.run.executor import Executor, UnitLoop, WorkerContext

FORMATS: Final = ("openai", "messages", "hf")
PSEUDO_FILE: Final = "pseudo_truth.jsonl"
STATS_FILE: Final = "stats.json"
#: Everything a build writes into its folder, removed before a rebuild writes it again.
OUTPUTS: Final = (
    "records.jsonl",
    "replies.jsonl",
    STATS_FILE,
    "dataset_info.json",
    PSEUDO_FILE,
    IMAGES_DIR,
    "hf",
    *(openai_file(s) for s in SPLITS),
    *(messages_file(s) for s in SPLITS),
)


class BuildError(SpatialBabelError):
    """The build cannot run as asked (cross-view on a one-view split, a foreign --out)."""


@dataclass(frozen=True)
class BuildOptions:
    cross_view: bool = False
    natural_language: bool = True
    seed: int = DEFAULT_SEED
    val_fraction: float = DEFAULT_VAL_FRACTION
    formats: tuple[str, ...] = FORMATS
    image_base_url: str | None = None
    absolute_paths: bool = False
    workers: int = 1

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["formats"] = list(self.formats)
        del data["workers"]
        return data


@dataclass(frozen=True)
class SceneOutcome:
    verdict: ReplyVerdict
    pseudo: Scene | None = None
    records: tuple[Record, ...] = ()
    quality: SceneQuality | None = None


@dataclass(frozen=True)
class BuildResult:
    replies: ReplySet
    outcomes: tuple[SceneOutcome, ...]
    records: tuple[Record, ...]
    stats: dict[str, Any]
    written: tuple[Path, ...] = field(default_factory=tuple)


def build_scene(
    reply: SceneCodeReply,
    truth: Scene,
    views: Sequence[int],
    split: Phase1Split,
    options: BuildOptions,
) -> SceneOutcome:
    """Everything one reply gives: its verdict, and when kept its pseudo-ground truth, its
    records and how it scores against the true scene."""
    verdict, pseudo = pseudo_truth(reply, truth)
    if pseudo is None:
        return SceneOutcome(verdict)
    records = scene_records(
        pseudo,
        image_of=lambda view: split.image(truth.scene_id, view),
        views=views,
        seed=options.seed,
        natural_language=options.natural_language,
        rules=split.rules,
    )
    scored = score_reply(pseudo.scene, truth)
    quality = SceneQuality(
        truth.scene_id,
        len(pseudo.scene.objects),
        len(truth.objects),
        scored.score,
        scored.values.get("f1"),
    )
    return SceneOutcome(verdict, pseudo.scene, tuple(records), quality)


@dataclass(frozen=True)
class _Work:
    """What every worker holds for the whole build."""

    split: Phase1Split
    views: tuple[int, ...]
    options: BuildOptions


def _setup(
    context: WorkerContext, split: Phase1Split, views: tuple[int, ...], options: BuildOptions
) -> _Work:
    return _Work(split, views, options)


def _build_unit(work: _Work, reply: SceneCodeReply) -> SceneOutcome:
    return build_scene(
        reply, work.split.scenes[reply.scene_id], work.views, work.split, work.options
    )


def _describe(reply: SceneCodeReply) -> str:
    return f"the reply for {reply.scene_id}"


def build_scenes(
    replies: Sequence[SceneCodeReply],
    split: Phase1Split,
    views: Sequence[int],
    options: BuildOptions,
    *,
    executor: Executor | None = None,
) -> list[SceneOutcome]:
    """``build_scene`` of every reply, in order, on ``executor`` (default: ``options.workers``
    local processes; a small build stays in this process)."""
    loop = UnitLoop(
        setup=_setup, run=_build_unit, args=(split, tuple(views), options), describe=_describe
    )
    if executor is not None:
        return executor.map(loop, replies)
    from spatialbabel.run.local_pool import LocalExecutor

    local = LocalExecutor(options.workers)
    try:
        return local.map(loop, replies)
    finally:
        local.close()


def prepare_out(out: Path) -> None:
    """Make ``out`` ready: a new or empty folder, or an earlier build whose outputs are removed.
    Any other folder with files is refused, so a typo never deletes someone's work."""
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()):
        stats = out / STATS_FILE
        earlier = False
        if stats.is_file():
            try:
                earlier = read_json(stats).get("kind") == KIND
            except FileFormatError:
                earlier = False
        if not earlier:
            raise BuildError(
                f"{out} is not empty and holds no earlier S3-FT build; choose a new --out"
            )
        for name in OUTPUTS:
            path = out / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    out.mkdir(parents=True, exist_ok=True)


def _write(out: Path, split: Phase1Split, result: BuildResult, options: BuildOptions) -> list[Path]:
    records = result.records
    written = [out / "records.jsonl", out / "replies.jsonl"]
    write_jsonl(written[0], [r.to_dict() for r in records])
    write_jsonl(written[1], [o.verdict.to_dict() for o in result.outcomes])
    # One file, not one per scene: each atomic write syncs to disk, which a slow disk makes
    # the cost of the whole build.
    pseudo = [o.pseudo.to_dict() for o in result.outcomes if o.pseudo is not None]
    write_jsonl(out / PSEUDO_FILE, pseudo)
    written.append(out / PSEUDO_FILE)
    by_split = {s: [r for r in records if r.split == s] for s in SPLITS}
    embedded = "hf" in options.formats or (
        "openai" in options.formats and options.image_base_url is None
    )
    names = {r.image for r in records} if embedded else set()
    images = {name: (split.root / name).read_bytes() for name in names}
    if "openai" in options.formats:
        urls = ImageUrls(images, options.image_base_url)
        for name, items in by_split.items():
            write_openai(out / openai_file(name), items, urls)
            written.append(out / openai_file(name))
    if "messages" in options.formats or (
        "openai" in options.formats and options.image_base_url is not None
    ):
        copy_images(records, split.root, out)
        written.append(out / IMAGES_DIR)
    if "messages" in options.formats:
        for name, items in by_split.items():
            write_messages(
                out / messages_file(name), items, out, absolute_paths=options.absolute_paths
            )
            written.append(out / messages_file(name))
        write_llama_factory_info(out, SPLITS)
        written.append(out / "dataset_info.json")
    if "hf" in options.formats:
        from s3ft.hf_dataset import write_hf_dataset

        written.append(write_hf_dataset(out, by_split, images))
    return written


def build(
    split_root: Path,
    replies_path: Path,
    out: Path | None,
    *,
    options: BuildOptions | None = None,
    model: str | None = None,
    mode: str | None = None,
    reply_format: ReplyFormat | None = None,
    strict: bool = False,
    executor: Executor | None = None,
) -> BuildResult:
    """The whole build. With ``out`` None nothing is written and the result says what would
    have been; with ``strict``, input problems stop it before any work (the result then holds
    the replies read and their problems only)."""
    started = time.perf_counter()
    options = options or BuildOptions()
    if "hf" in options.formats and out is not None and importlib.util.find_spec("datasets") is None:
        # Fail before any work; the import itself waits until the records are made.
        raise ModuleNotFoundError("No module named 'datasets'", name="datasets")
    split = Phase1Split.load(split_root)
    if options.cross_view and split.views < 2:
        raise BuildError(
            f"{split_root}: --cross-view needs several views per scene; this split has "
            f"{split.views} (generate it with --views 4)"
        )
    views = tuple(range(split.views)) if options.cross_view else (0,)
    replies = read_replies(
        replies_path,
        phase1=split.scenes,
        subsets=split.others,
        model=model,
        mode=mode,
        reply_format=reply_format,
    )
    if strict and replies.problems:
        return BuildResult(replies, (), (), {})
    split.check_images(sorted({r.scene_id for r in replies.replies}), len(views))
    outcomes = build_scenes(replies.replies, split, views, options, executor=executor)
    outcomes.sort(key=lambda o: o.verdict.scene_id)
    held_out = validation_scenes(split.scenes, seed=options.seed, fraction=options.val_fraction)
    records = tuple(
        replace(r, split="val" if r.scene_id in held_out else "train")
        for o in outcomes
        for r in o.records
    )
    stats = build_stats(
        replies=replies,
        verdicts=[o.verdict for o in outcomes],
        scenes=[o.quality for o in outcomes if o.quality is not None],
        records=records,
        options={**options.to_dict(), "views": list(views)},
        phase1_scenes=len(split.scenes),
        seconds=0.0,
        seed=options.seed,
    )
    result = BuildResult(replies, tuple(outcomes), records, stats)
    if out is None:
        return result
    prepare_out(out)
    written = _write(out, split, result, options)
    stats["seconds"] = round(time.perf_counter() - started, 3)
    write_json(out / STATS_FILE, stats)
    return replace(result, stats=stats, written=(*written, out / STATS_FILE))


__all__ = [
    "FORMATS",
    "OUTPUTS",
    "PSEUDO_FILE",
    "STATS_FILE",
    "BuildError",
    "BuildOptions",
    "BuildResult",
    "SceneOutcome",
    "build",
    "build_scene",
    "build_scenes",
    "prepare_out",
]
