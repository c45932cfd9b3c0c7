"""The dataset card (``README.md``) of an export: the YAML header that ``datasets`` and the Hub
read (configs and their data files, features, splits and sizes, licence), written with
``datasets``' and ``huggingface_hub``'s own card classes, then what the dataset is, how it was
made, the command that rebuilds it and how its answers are scored."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harnesses.hf_export import WrittenConfig

PRETTY_NAME = "SpatialBabel"


def _size_category(rows: int) -> str:
    if rows < 1_000:
        return "n<1K"
    bounds = [(10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    for bound, name in bounds:
        if rows < bound:
            return name
    return "1M<n<10M"


def header(written: Sequence[WrittenConfig], record: dict[str, Any]) -> str:
    """The card's YAML header, without its ``---`` fences."""
    from datasets import DatasetInfo, SplitDict, SplitInfo
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCardData

    from harnesses.hf_export import DATA_DIR, SPLIT_NAME, features

    card = DatasetCardData(
        license=record["license"],
        pretty_name=PRETTY_NAME,
        task_categories=["image-text-to-text", "visual-question-answering"],
        tags=["spatial-reasoning", "3d", "code-generation", "synthetic", "spatialbabel"],
        size_categories=[_size_category(sum(w.record.rows for w in written))],
    )
    first = written[0].record.config.name
    MetadataConfigs(
        {
            w.record.config.name: {
                "data_files": [
                    {
                        "split": SPLIT_NAME,
                        "path": f"{DATA_DIR}/{w.record.config.name}/{SPLIT_NAME}-*.parquet",
                    }
                ],
                **({"default": True} if w.record.config.name == first else {}),
            }
            for w in written
        }
    ).to_dataset_card_data(card)
    infos = {}
    for w in written:
        splits = SplitDict()
        splits.add(SplitInfo(SPLIT_NAME, num_bytes=w.num_bytes, num_examples=w.record.rows))
        infos[w.record.config.name] = DatasetInfo(
            features=features(w.record.has_video),
            splits=splits,
            download_size=w.download_size,
            dataset_size=w.num_bytes,
            config_name=w.record.config.name,
        )
    DatasetInfosDict(infos).to_dataset_card_data(card)
    return str(card.to_yaml())


def _setting(generation: dict[str, Any], key: str) -> str:
    value = generation.get(key)
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) and math.isfinite(value) else str(value)


def _source_lines(source: dict[str, Any]) -> list[str]:
    if source["kind"] == "split":
        return [
            f"- the split `{source['path']}` (manifest sha256 `{source['manifest_sha256']}`, "
            f"generator {source.get('generator_version')}, seed {source.get('seed')}), "
            f"{source['scenes']} scenes"
            + (f" of subset `{source['subset']}`" if source.get("subset") else "")
            + f"; prompts version {source['prompt_version']}; truth in `{source['truth']}/`",
        ]
    return [
        f"- the items of suite `{source['suite']}` version {source['suite_version']} in "
        f"`{source['path']}` ({source['items']} items; items.jsonl sha256 "
        f"`{source['items_sha256']}`, built from the split whose manifest sha256 is "
        f"`{source['split_manifest_sha256']}`); truth in `{source['truth']}/`",
    ]


def body(written: Sequence[WrittenConfig], record: dict[str, Any]) -> str:
    lines = [
        f"# {PRETTY_NAME}: requests and ground truth",
        "",
        "Every row is one request of SpatialBabel as `spatialbabel run` sends it: `id` is its "
        "`custom_id`, `system` and `prompt` its system and user text, `images` its images in "
        "order (and `video` the MP4 of an item that shows one), `generation` its decoding "
        "settings as JSON. `answer` is the right answer as JSON and `truth` what the scorer "
        "reads, as JSON: the scene file (reconstruction), the question's record (QA) or the "
        "suite's item. `category` is the language (reconstruction), the question's category "
        "(QA) or the item's task (suites).",
        "",
        "| config | task | mode | language | rows | max tokens | temperature |",
        "|---|---|---|---|---|---|---|",
    ]
    for w in written:
        c, g = w.record.config, w.record.generation
        lines.append(
            f"| `{c.name}` | {c.task} | {c.mode} | {c.language or '-'} | {w.record.rows} | "
            f"{_setting(g, 'max_completion_tokens')} | {_setting(g, 'temperature')} |"
        )
    lines += ["", "## How it was made", ""]
    lines.append(f"With SpatialBabel {record['spatialbabel_version']}, from")
    for source in record["sources"]:
        lines += _source_lines(source)
    lines += [
        "",
        "The command that rebuilds it (the same sources give the same bytes):",
        "",
        "```bash",
        record["command"],
        "```",
        "",
        "## Loading and scoring",
        "",
        "```python",
        "from datasets import load_dataset",
        f'rows = load_dataset("PATH_OR_REPO", "{written[0].record.config.name}", split="test")',
        "```",
        "",
        "Answer the rows, then write the replies as an OpenAI batch output file (one "
        '`{"custom_id": id, "response": {"status_code": 200, "body": {"model": ..., '
        '"choices": [{"message": {"content": reply}}]}}}` per line) and score it with the '
        "usual commands against the files under `truth/`: `spatialbabel score --split "
        "truth/split --subset all --batch-output --predictions FILE --out DIR` (reconstruction), "
        "`spatialbabel score-qa --split truth/split --batch-output --answers FILE --out DIR` "
        "(QA), `spatialbabel suite score --suite NAME --items truth/NAME --batch-output "
        "--answers FILE --out DIR` (suites). `spatialbabel export lmms-eval` and "
        "`spatialbabel export vlmevalkit` make task packages of this folder for those "
        "harnesses, which score through the same code.",
        "",
    ]
    return "\n".join(lines)


def card_text(written: Sequence[WrittenConfig], record: dict[str, Any]) -> str:
    return f"---\n{header(written, record)}\n---\n\n{body(written, record)}"


__all__ = ["PRETTY_NAME", "body", "card_text", "header"]
