"""The VLMEvalKit export: TSVs in VLMEvalKit's custom-dataset format whose rows are the request
files' requests (ids, user texts, the images' exact bytes in base64, each scene's images once),
and a dataset class whose evaluate grades with SpatialBabel's commands: on a prediction file as
VLMEvalKit writes it, and (where VLMEvalKit is installed: the vlmevalkit extra, which cannot sit
beside lmms-eval, docs/harnesses.md) through VLMEvalKit's own inference loop with a stand-in
model of its interface, the numbers equal `spatialbabel score`, `score-qa` and `suite score`."""

from __future__ import annotations

import ast
import base64
import hashlib
import importlib.util
import io
import json
from pathlib import Path

import pytest

from harnesses.vlmevalkit_export import COLUMNS
from harnesses.vlmevalkit_hooks import DatasetHooks, dataset_name, read_tsv
from spatialbabel.cli import main
from tests.harnesses.conftest import MODEL, Built

CHECKED = ("reconstruct_json_direct", "qa_direct", "qa_code_cot_dsl", "toy_cot", "spacecast_direct")


@pytest.fixture(scope="module")
def folder(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vlmeval") / "datasets"
    assert (
        main(["export", "vlmevalkit", "--dataset", str(built.export.folder), "--out", str(out)])
        == 0
    )
    return out


def _images(cell: str) -> list[bytes]:
    values = ast.literal_eval(cell) if cell.startswith("[") else [cell]
    return [base64.b64decode(v) for v in values]


def test_tsv_rows_are_the_requests(built: Built, folder: Path) -> None:
    requests = built.requests()
    record = json.loads((folder / "spatialbabel_datasets.json").read_text())
    # A config whose requests show no image (SpaceCast's text condition) is left out, and said.
    imageless = {
        c.config.name
        for c in built.export.configs
        if not any(row["images"] for row in built.rows(c.config.name))
    }
    assert set(record.get("skipped", {})) == imageless
    if "spacecast" in built.items:
        assert imageless == {"spacecast_cot_text", "spacecast_direct_text"}
    for config in built.export.configs:
        if config.config.name in imageless:
            assert not (folder / f"{dataset_name(config.config)}.tsv").exists()
            continue
        rows = read_tsv(folder / f"{dataset_name(config.config)}.tsv")
        assert tuple(rows[0]) == COLUMNS
        assert [r["id"] for r in rows] == [r["id"] for r in built.rows(config.config.name)]
        by_index: dict[str, list[bytes]] = {}
        for row in rows:
            request = requests[row["id"]]
            cell = row["image"]
            images = by_index[cell] if len(cell) <= 64 else _images(cell)
            assert images == [m.data for m in request.media]
            by_index.setdefault(row["index"], images)
            assert row["question"] == request.text and row["system"] == request.system
            assert json.loads(row["generation"]) == dict(request.settings)
        # A scene's image is written once however many questions ask about it.
        written = [r for r in rows if len(r["image"]) > 64]
        assert len(written) == len({r["image"] for r in written})
    assert (folder / "truth" / "split" / "qa.jsonl").is_file()
    assert record["datasets"][dataset_name(built.export.config("qa_direct").config)]["system"]


def test_evaluate_a_prediction_file_scores_as_spatialbabel(
    built: Built, folder: Path, tmp_path: Path
) -> None:
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("openpyxl")
    hooks = DatasetHooks(folder)
    for name in CHECKED:
        if name not in {c.config.name for c in built.export.configs}:
            continue
        config = built.export.config(name).config
        frame = hooks.load(dataset_name(config)).drop(columns=["image"])
        frame["prediction"] = [built.replies[i] for i in frame["id"]]
        path = tmp_path / f"{MODEL}_{dataset_name(config)}.xlsx"
        frame.to_excel(path, index=False)
        scored = hooks.evaluate(dataset_name(config), path)
        assert scored.model == MODEL
        assert scored.numbers == pytest.approx(built.baseline(config), abs=0, nan_ok=True)
        assert scored.out == tmp_path / f"{path.stem}_spatialbabel"
        assert any(scored.out.glob("*.json"))
    assert pandas is not None


def _pixels(path: str) -> str:
    from PIL import Image

    return hashlib.sha256(Image.open(path).convert("RGB").tobytes()).hexdigest()


@pytest.mark.slow
def test_vlmevalkit_inference_and_evaluate(
    built: Built, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("vlmeval")
    from PIL import Image
    from vlmeval.inference import infer_data_job
    from vlmeval.smp import get_pred_file_path
    from vlmeval.vlm.base import BaseModel

    monkeypatch.setenv("LMUData", str(tmp_path / "LMUData"))
    (tmp_path / "LMUData").mkdir()
    spec = importlib.util.spec_from_file_location(
        "spatialbabel_vlmeval", folder / "spatialbabel_vlmeval.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    requests = built.requests()
    # The stand-in model knows a request by its text and its images' pixels.
    by_request = {}
    for custom_id, request in requests.items():
        pixels = tuple(
            hashlib.sha256(Image.open(io.BytesIO(m.data)).convert("RGB").tobytes()).hexdigest()
            for m in request.media
        )
        by_request[(request.text, pixels)] = custom_id

    class Canned(BaseModel):  # type: ignore[misc]  # untyped: the harness's own base class
        INTERLEAVE = True

        def generate_inner(self, message: list[dict[str, str]], dataset: str | None = None) -> str:
            *images, text = message
            assert all(part["type"] == "image" for part in images) and text["type"] == "text"
            key = (text["value"], tuple(_pixels(part["value"]) for part in images))
            return built.replies[by_request[key]]

    for name in CHECKED:
        if name not in {c.config.name for c in built.export.configs}:
            continue
        config = built.export.config(name).config
        dataset = module.SpatialBabelDataset(dataset_name(config))
        assert module.SpatialBabelDataset.system_prompt(dataset_name(config)) == next(
            r.system for i, r in requests.items() if i.startswith(config.task)
        )
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        infer_data_job(Canned(), str(work), MODEL, dataset)
        numbers = dataset.evaluate(get_pred_file_path(str(work), MODEL, dataset_name(config)))
        assert numbers == pytest.approx(built.baseline(config), abs=0, nan_ok=True)
