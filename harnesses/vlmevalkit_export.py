"""``spatialbabel export vlmevalkit``: VLMEvalKit datasets over an exported dataset.

One TSV per config in VLMEvalKit's custom-dataset format (``SpatialBabel_<config>.tsv``:
``index``, ``image`` as base64, a Python list of them for several images, or, for a row whose
images repeat an earlier row's, that row's index, as VLMEvalKit reads it; ``question``,
``answer``, ``category``; then the request's ``id``, ``scene_id``, ``mode``, ``system`` and
``generation``), the dataset class ``spatialbabel_vlmeval.py`` (its ``build_prompt`` gives the
row's images and user text, its ``evaluate`` grades with SpatialBabel's commands),
``spatialbabel_datasets.json``, and a copy of the export's ``truth/`` that grading reads. VLMEvalKit's image datasets take no video: a config whose
requests show an MP4 is refused (build SpatialMind's items with frames, the default), and a
config whose requests show no image (SpaceCast's ``+text`` variants) is left out, and said so.
"""

from __future__ import annotations

import base64
import csv
import io
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from harnesses.record import ConfigRecord, ExportRecord
from harnesses.vlmevalkit_hooks import DATASETS_FILE, dataset_name
from spatialbabel.files import atomic_write_bytes, atomic_write_text, dump_json

COLUMNS: Final = (
    "index",
    "image",
    "question",
    "answer",
    "category",
    "id",
    "scene_id",
    "mode",
    "system",
    "generation",
)
CLASS_FILE: Final = "spatialbabel_vlmeval.py"

CLASS_SOURCE: Final = '''"""SpatialBabel's datasets for VLMEvalKit (written by `spatialbabel export vlmevalkit`).

Each dataset is one SpatialBabel task and mode; its rows are the requests `spatialbabel run`
sends (images and user text; the system text and decoding settings are one per dataset:
give them to the model, SpatialBabelDataset.system_prompt(name) and .generation(name)).
evaluate() grades with SpatialBabel's own commands, so SpatialBabel must be installed.

    from spatialbabel_vlmeval import SpatialBabelDataset
    from vlmeval.inference import infer_data_job
    dataset = SpatialBabelDataset("{example}")
    infer_data_job(model, work_dir, model_name, dataset)
    dataset.evaluate(prediction_file)   # work_dir/<model_name>_{example}.xlsx

To name the class in VLMEvalKit's --config files, register it first:
    import vlmeval.dataset; vlmeval.dataset.SpatialBabelDataset = SpatialBabelDataset
"""

from pathlib import Path

from vlmeval.dataset.image_base import ImageBaseDataset

from harnesses.vlmevalkit_hooks import DatasetHooks

_hooks = DatasetHooks(Path(__file__).resolve().parent)


class SpatialBabelDataset(ImageBaseDataset):
    TYPE = "VQA"
    MODALITY = "IMAGE"
    DATASET_URL = {{name: str(_hooks.tsv(name)) for name in _hooks.names()}}
    DATASET_MD5 = {{name: None for name in _hooks.names()}}
    # The dataset's own prompt, whatever prompt a model would build for it.
    force_use_dataset_prompt = True

    def load_data(self, dataset):
        return _hooks.load(dataset)

    def build_prompt(self, line):
        if isinstance(line, int):
            line = self.data.iloc[line]
        return _hooks.message(line, self.dump_image(line))

    @staticmethod
    def system_prompt(dataset):
        return _hooks.system_prompt(dataset)

    @staticmethod
    def generation(dataset):
        return _hooks.generation(dataset)

    def evaluate(self, eval_file, **judge_kwargs):
        scored = _hooks.evaluate(self.dataset_name, eval_file)
        return dict(scored.numbers)
'''


def _rows(export: ExportRecord, config: ConfigRecord) -> Iterator[dict[str, Any]]:
    import pyarrow.parquet as pq

    for name in config.files:
        table = pq.ParquetFile(export.folder / name)
        for group in range(table.num_row_groups):
            yield from table.read_row_group(group).to_pylist()


def _image_cell(images: list[bytes]) -> str:
    encoded = [base64.b64encode(data).decode("ascii") for data in images]
    return encoded[0] if len(encoded) == 1 else repr(encoded)


class ImagelessConfig(ValueError):
    """A config whose requests show no image: ``export_vlmevalkit`` leaves it out."""


def tsv_bytes(export: ExportRecord, config: ConfigRecord) -> tuple[bytes, set[str]]:
    """A config's TSV, and the system texts of its rows."""
    if config.has_video:
        raise ValueError(
            f"config {config.config.name} shows videos, which VLMEvalKit's image datasets do "
            "not take: build the items with frames (SpatialMind's default) to export them"
        )
    stream = io.StringIO()
    writer = csv.writer(stream, delimiter="\t", lineterminator="\n")
    writer.writerow(COLUMNS)
    first_with: dict[str, int] = {}
    systems: set[str] = set()
    imageless = False
    for index, row in enumerate(_rows(export, config)):
        images = [image["bytes"] for image in row["images"]]
        if index == 0:
            imageless = not images
        if imageless != (not images):
            raise ValueError(f"{row['id']}: some requests of its config show images, some none")
        if imageless:
            continue
        cell = _image_cell(images)
        # VLMEvalKit reads an image cell of at most 64 characters as the index of the row
        # that holds the images: each scene's image is written once.
        if cell in first_with:
            cell = str(first_with[cell])
        else:
            first_with[cell] = index
        systems.add(row["system"])
        writer.writerow(
            [
                index,
                cell,
                row["prompt"],
                row["answer"],
                row["category"],
                row["id"],
                row["scene_id"],
                row["mode"],
                row["system"],
                row["generation"],
            ]
        )
    if imageless:
        raise ImagelessConfig(
            f"config {config.config.name}: its requests show no image (a text-only condition), "
            "which VLMEvalKit's image datasets do not take"
        )
    return stream.getvalue().encode("utf-8"), systems


def export_vlmevalkit(
    export: ExportRecord, out: Path, *, skipped: dict[str, str] | None = None
) -> list[str]:
    """Write the TSVs, the dataset class and its record into ``out``; returns the dataset names.
    A config whose requests show no image (SpaceCast's ``+text``) is left out, with the reason
    in ``skipped`` (by config name) and in the record's ``skipped``."""
    out.mkdir(parents=True, exist_ok=True)
    datasets: dict[str, Any] = {}
    left_out: dict[str, str] = {}
    for config in export.configs:
        name = dataset_name(config.config)
        try:
            data, systems = tsv_bytes(export, config)
        except ImagelessConfig as reason:
            left_out[config.config.name] = str(reason)
            continue
        if len(systems) != 1:
            raise ValueError(
                f"config {config.config.name}: its requests have {len(systems)} system texts; "
                "VLMEvalKit gives a model one"
            )
        atomic_write_bytes(out / f"{name}.tsv", data)
        datasets[name] = {
            "tsv": f"{name}.tsv",
            "config": config.config.to_dict(),
            "rows": config.rows,
            "system": systems.pop(),
            "generation": config.generation,
        }
    if not datasets:
        raise ValueError(f"{export.folder}: no configs to export")
    # The truth the scorers read comes along, so the folder grades on its own.
    for truth in sorted({c.config.truth for c in export.configs}):
        shutil.rmtree(out / truth, ignore_errors=True)
        shutil.copytree(export.folder / truth, out / truth)
    atomic_write_text(
        out / DATASETS_FILE,
        dump_json(
            {
                "export": str(export.folder.resolve()),
                "datasets": datasets,
                **({"skipped": left_out} if left_out else {}),
            }
        ),
    )
    if skipped is not None:
        skipped.update(left_out)
    atomic_write_text(out / CLASS_FILE, CLASS_SOURCE.format(example=next(iter(datasets))))
    return list(datasets)


__all__ = ["CLASS_FILE", "COLUMNS", "ImagelessConfig", "export_vlmevalkit", "tsv_bytes"]
