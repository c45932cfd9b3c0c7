"""What the harness tests share, built once per session: a tiny split (three scenes, no
Blender), the toy suite's items over it, SpaceCast's items over eight stacked layouts (several
views per item, drawn as tiny PNGs: the geometry is SpaceCast's own, no Blender), the Hugging
Face export of all three, canned replies keyed by the export's ids, and what the usual
commands make of those replies on the original split and items folders."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from harnesses.grading import numbers_of
from harnesses.record import ExportRecord, read_record
from harnesses.rows import Config
from harnesses.sources import Request, request_from_batch_line
from spatialbabel.cli import main
from spatialbabel.files import read_jsonl
from suites import load_suite
from tests.harnesses import canned
from tests.qa.tiny_split import make_split, tiny_png
from tests.suites import toy_suite  # noqa: F401  (registers the toy suite)

MODEL = "canned"


def spacecast_items(root: Path, split: Path) -> Path | None:
    """SpaceCast's items of eight small stacked layouts, with every view (the bird's-eye views
    included) a tiny PNG."""
    try:
        import fcl  # noqa: F401
    except ImportError:
        return None
    from spatialbabel import Ground, Scene
    from suites import load_suite
    from suites.items import write_items
    from suites.spacecast.conditions import bev_input
    from suites.spacecast.split_items import plan_split, render_jobs, word_split
    from synth.cameras import scene_cameras
    from synth.layout import LayoutRules, sample_layout
    from synth.tiers import TIERS

    scenes = []
    for i, tier in enumerate(("T2", "T3") * 4):
        rng = np.random.default_rng([7, i])
        objects = sample_layout(rng, TIERS[tier], LayoutRules(stack_prob=0.6))
        scenes.append(
            Scene(f"scene_{i:06d}", tuple(objects), scene_cameras(1, 512), Ground(), {"index": i})
        )
    planned = plan_split(scenes, seed=0, resolution=512)
    items = word_split(planned)
    out = root / "spacecast"
    render_jobs(planned, out)  # saves each scene's view truth, which the shortcuts read
    # Each scene's bird's-eye view too, as --spacecast-bev renders it, for the +bev variants.
    shown = {n for item in items for n in item.inputs} | {bev_input(i.scene_id) for i in items}
    for k, name in enumerate(sorted(shown)):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(tiny_png(rgb=(k % 250, 40, 90)))
    write_items(out, load_suite("spacecast"), items, split=split, options={})
    return out


@dataclass(frozen=True)
class Built:
    split: Path
    items: dict[str, Path]
    export: ExportRecord
    #: Canned reply by request id, for every row of every config.
    replies: dict[str, str]
    #: The request ids of `spatialbabel prompts` and `suite prompts`, in their files' order.
    request_ids: dict[str, list[str]]
    #: The usual commands' results on the original split and items, by task.
    results: dict[str, dict[str, Any]]

    def baseline(self, config: Config) -> dict[str, float]:
        """The numbers of the model in ``config`` by the usual commands on the original data."""
        return numbers_of(self.results[config.task], config, MODEL)

    def rows(self, config: str) -> list[Any]:
        return canned.rows_of(self.export.folder, config)

    def requests(self) -> dict[str, Request]:
        """Every request of the request files the usual commands wrote, by id."""
        files = ["r.jsonl", "q.jsonl", *(f"{name}.jsonl" for name in self.items)]
        return {
            line.record["custom_id"]: request_from_batch_line(line.record)
            for name in files
            for line in read_jsonl(self.split.parent / name)
            if line.record is not None
        }


def _prompts(argv: list[str], out: Path) -> list[dict[str, Any]]:
    assert main([*argv, "--out", str(out)]) == 0
    return [line.record for line in read_jsonl(out) if line.record is not None]


def _score(argv: list[str], out: Path) -> dict[str, Any]:
    code = main([*argv, "--out", str(out)])
    assert code == 0, code
    name = "qa_scores.json" if argv[0] == "score-qa" else "scores.json"
    return json.loads((out / name).read_text())


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    pytest.importorskip("datasets")
    pytest.importorskip("pyarrow")
    root = tmp_path_factory.mktemp("harness")
    split = root / "split"
    make_split(split, 3)
    items = {"toy": root / "toy"}
    assert (
        main(
            ["suite", "build", "--suite", "toy", "--split", str(split), "--out", str(items["toy"])]
        )
        == 0
    )
    spacecast = spacecast_items(root, split)
    if spacecast is not None:
        items["spacecast"] = spacecast
    folder = root / "dataset"
    sources = [str(split), *(str(p) for p in items.values())]
    assert main(["export", "hf", *sources, "--out", str(folder)]) == 0
    export = read_record(folder)
    replies: dict[str, str] = {}
    for config in export.configs:
        for row in canned.rows_of(folder, config.config.name):
            replies[row["id"]] = canned.reply(row["id"], row["truth"])
    requests = {
        "reconstruct": _prompts(
            ["prompts", "--split", str(split), "--task", "reconstruct"], root / "r.jsonl"
        ),
        "qa": _prompts(["prompts", "--split", str(split), "--task", "qa"], root / "q.jsonl"),
    }
    for name, path in items.items():
        suite = load_suite(name)
        requests[name] = _prompts(
            [
                "suite",
                "prompts",
                "--suite",
                name,
                "--items",
                str(path),
                "--variants",
                *suite.variants,
            ],
            root / f"{name}.jsonl",
        )
    request_ids = {task: [line["custom_id"] for line in lines] for task, lines in requests.items()}
    results: dict[str, dict[str, Any]] = {}
    for task, ids in request_ids.items():
        answers = canned.batch_output(
            root / f"{task}.answers.jsonl", ((i, replies[i]) for i in ids), MODEL
        )
        if task == "reconstruct":
            argv = [
                "score",
                "--split",
                str(split),
                "--subset",
                "all",
                "--batch-output",
                "--predictions",
                str(answers),
                "--workers",
                "1",
            ]
        elif task == "qa":
            argv = ["score-qa", "--split", str(split), "--batch-output", "--answers", str(answers)]
        else:
            argv = [
                "suite",
                "score",
                "--suite",
                task,
                "--items",
                str(items[task]),
                "--batch-output",
                "--answers",
                str(answers),
            ]
        results[task] = _score(argv, root / f"{task}.scores")
    yield Built(split, items, export, replies, request_ids, results)
