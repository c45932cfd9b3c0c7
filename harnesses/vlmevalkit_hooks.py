"""What the exported VLMEvalKit dataset class calls (``spatialbabel_vlmeval.py`` takes it from
here): reading its TSVs, building a row's message, and grading a prediction file with the usual
commands (``harnesses.grading``), so ``evaluate`` gives the numbers ``spatialbabel score``,
``score-qa`` or ``suite score`` gives on the same replies.

VLMEvalKit's prediction file keeps every column of the TSV beside ``prediction``; the replies
are keyed by the ``id`` column (the request's ``custom_id``), and the model is named by the
file's name (``<model>_<dataset>.xlsx``, VLMEvalKit's convention).
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from harnesses.grading import HarnessReply, Scored, score_replies
from harnesses.rows import Config

DATASETS_FILE: Final = "spatialbabel_datasets.json"
DATASET_PREFIX: Final = "SpatialBabel_"


def dataset_name(config: Config) -> str:
    return f"{DATASET_PREFIX}{config.name}"


def read_tsv(path: Path) -> list[dict[str, str]]:
    """A TSV as written by the export, every cell a string."""
    csv.field_size_limit(sys.maxsize)
    with path.open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream, delimiter="\t"))


class DatasetHooks:
    """The datasets of one VLMEvalKit export folder (the one holding ``spatialbabel_datasets.json``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.record = json.loads((folder / DATASETS_FILE).read_text(encoding="utf-8"))

    def names(self) -> list[str]:
        return list(self.record["datasets"])

    def tsv(self, name: str) -> Path:
        return self.folder / self.record["datasets"][name]["tsv"]

    def config(self, name: str) -> Config:
        return Config.from_dict(self.record["datasets"][name]["config"])

    def system_prompt(self, name: str) -> str:
        """The system text of every request of the dataset (VLMEvalKit sets it per model)."""
        return str(self.record["datasets"][name]["system"])

    def generation(self, name: str) -> dict[str, Any]:
        """The decoding settings of every request of the dataset, as the request file has them."""
        return dict(self.record["datasets"][name]["generation"])

    def load(self, name: str) -> Any:
        """The TSV as VLMEvalKit's datasets hold it (a pandas DataFrame, cells as text)."""
        import pandas as pd

        return pd.read_csv(self.tsv(name), sep="\t", dtype=str, keep_default_na=False)

    @staticmethod
    def message(line: Mapping[str, Any], image_paths: list[str]) -> list[dict[str, str]]:
        """A row's message: its images in order, then the user text."""
        return [
            *({"type": "image", "value": path} for path in image_paths),
            {"type": "text", "value": str(line["question"])},
        ]

    def evaluate(self, name: str, eval_file: str | Path, *, model: str | None = None) -> Scored:
        """Grade VLMEvalKit's prediction file of dataset ``name`` with the usual command; its
        files go to ``<eval_file stem>_spatialbabel/`` beside the prediction file."""
        path = Path(eval_file)
        frame = _load_predictions(path)
        model = model or _model_of(path, name)
        replies = [
            HarnessReply(
                str(row["id"]), "" if _missing(row["prediction"]) else str(row["prediction"]), model
            )
            for row in frame.to_dict("records")
        ]
        out = path.with_name(f"{path.stem}_spatialbabel")
        return score_replies(self.folder, self.config(name), replies, out)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _model_of(path: Path, name: str) -> str:
    stem = path.stem
    return (
        stem[: -len(name) - 1] if stem.endswith(f"_{name}") and len(stem) > len(name) + 1 else stem
    )


def _load_predictions(path: Path) -> Any:
    """A prediction file as VLMEvalKit writes it (xlsx, tsv, csv, json or pkl)."""
    try:
        from vlmeval.smp import load
    except ImportError:
        import pandas as pd

        readers = {".xlsx": pd.read_excel, ".csv": pd.read_csv, ".json": pd.read_json}
        if path.suffix == ".tsv":
            return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        if path.suffix not in readers:
            raise ValueError(f"{path}: cannot read a {path.suffix} prediction file") from None
        return readers[path.suffix](path)
    return load(str(path))


__all__ = ["DATASETS_FILE", "DATASET_PREFIX", "DatasetHooks", "dataset_name", "read_tsv"]
