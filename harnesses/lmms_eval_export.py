"""``spatialbabel export lmms-eval``: an lmms-eval task package over an exported dataset.

One YAML per config of the dataset (a task: ``spatialbabel_<config>``), a group per task kind
(``spatialbabel_reconstruct``, ``spatialbabel_qa``, ``spatialbabel_<suite>``) and one over all
(``spatialbabel``), the ``utils.py`` whose hooks call SpatialBabel
(``harnesses.lmms_eval_hooks``), and ``spatialbabel_tasks.json`` saying where the dataset is.
Each task's ``generation_kwargs`` are its requests' decoding settings in lmms-eval's words.
Run with ``lmms-eval --include_path DIR --tasks spatialbabel ...``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from harnesses.lmms_eval_hooks import TASKS_FILE, metrics_of, task_name
from harnesses.record import ConfigRecord, ExportRecord
from spatialbabel.files import atomic_write_text, dump_json

GROUP: Final = "spatialbabel"
#: Request body keys and the ``generation_kwargs`` key lmms-eval's models read for them.
GENERATION_KEYS: Final = {"max_completion_tokens": "max_new_tokens", "max_tokens": "max_new_tokens"}

UTILS: Final = '''"""lmms-eval hooks of the SpatialBabel tasks in this folder (written by `spatialbabel export
lmms-eval`): the prompts, parsers and graders are SpatialBabel's own, so SpatialBabel must be
installed where lmms-eval runs. Environment: SPATIALBABEL_MODEL names the model in the tables;
SPATIALBABEL_SCORES keeps each task's scores.json and tables in a folder."""

from pathlib import Path

from harnesses.lmms_eval_hooks import Hooks

_hooks = Hooks(Path(__file__).resolve().parent)
doc_to_visual = _hooks.doc_to_visual
doc_to_text = _hooks.doc_to_text
doc_to_messages = _hooks.doc_to_messages
process_results = _hooks.process_results
{aggregations}
'''


def generation_kwargs(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A request's decoding settings as lmms-eval's ``generation_kwargs``: the output budget as
    ``max_new_tokens``, the temperature (greedy, ``do_sample: false``, at 0 or when the request
    sends none, as lmms-eval's models decode by default), every other setting under its own
    name, and no stop string (lmms-eval's default, a blank line, would cut code replies)."""
    kwargs: dict[str, Any] = {}
    for key, value in settings.items():
        kwargs[GENERATION_KEYS.get(key, key)] = value
    temperature = kwargs.get("temperature")
    kwargs["do_sample"] = bool(temperature)
    kwargs["until"] = []
    return kwargs


def _scalar(value: Any) -> str:
    """A YAML scalar (JSON's forms are YAML's)."""
    return json.dumps(value, ensure_ascii=False)


def _block(name: str, mapping: Mapping[str, Any], indent: str = "") -> list[str]:
    lines = [f"{indent}{name}:"]
    for key, value in mapping.items():
        lines.append(f"{indent}  {key}: {_scalar(value)}")
    return lines


def task_yaml(config: ConfigRecord, dataset_path: str) -> str:
    c = config.config
    lines = [
        f"# SpatialBabel {c.task}, {c.mode}" + (f", {c.language}" if c.language else ""),
        f"# (written by spatialbabel export lmms-eval; {config.rows} requests)",
        f"task: {task_name(c)}",
        f"dataset_path: {_scalar(dataset_path)}",
        f"dataset_name: {c.name}",
        "test_split: test",
        "output_type: generate_until",
        "doc_to_visual: !function utils.doc_to_visual",
        "doc_to_text: !function utils.doc_to_text",
        "doc_to_messages: !function utils.doc_to_messages",
        "doc_to_target: answer",
        "process_results: !function utils.process_results",
    ]
    lines += _block("generation_kwargs", generation_kwargs(config.generation))
    lines.append("metric_list:")
    for metric in metrics_of(c):
        lines += [
            f"  - metric: {metric}",
            f"    aggregation: !function utils.aggregate_{metric}",
            "    higher_is_better: true",
        ]
    lines += _block("metadata", {"version": 1, "spatialbabel_config": c.name})
    return "\n".join(lines) + "\n"


def group_yaml(name: str, tasks: list[str]) -> str:
    lines = [f"group: {name}", "task:"] + [f"  - {task}" for task in tasks]
    lines += _block("metadata", {"version": 1})
    return "\n".join(lines) + "\n"


def export_lmms_eval(
    export: ExportRecord, out: Path, *, dataset_path: str | None = None
) -> list[str]:
    """Write the task package into ``out``; returns the task names. ``dataset_path`` is what the
    YAMLs load (default: the export folder; a Hub repository once it is pushed there)."""
    out.mkdir(parents=True, exist_ok=True)
    folder = str(export.folder.resolve())
    path = dataset_path or folder
    tasks: list[str] = []
    groups: dict[str, list[str]] = {}
    metrics: set[str] = set()
    for config in export.configs:
        name = task_name(config.config)
        atomic_write_text(out / f"{name}.yaml", task_yaml(config, path))
        tasks.append(name)
        groups.setdefault(f"{GROUP}_{config.config.task}", []).append(name)
        metrics.update(metrics_of(config.config))
    for group, members in groups.items():
        atomic_write_text(out / f"_{group}.yaml", group_yaml(group, members))
    atomic_write_text(out / f"_{GROUP}.yaml", group_yaml(GROUP, list(groups)))
    aggregations = "\n".join(
        f'aggregate_{metric} = _hooks.aggregation("{metric}")' for metric in sorted(metrics)
    )
    atomic_write_text(out / "utils.py", UTILS.format(aggregations=aggregations))
    record = {
        "dataset": folder,
        "dataset_path": path,
        "tasks": tasks,
        "groups": {GROUP: list(groups), **groups},
    }
    atomic_write_text(out / TASKS_FILE, dump_json(record))
    return tasks


__all__ = ["GROUP", "export_lmms_eval", "generation_kwargs", "group_yaml", "task_yaml"]
