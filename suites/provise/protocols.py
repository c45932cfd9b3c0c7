"""ProVisE's frozen protocols: one JSON file per task under ``suites/provise/protocols/``.

A protocol holds the guidance prompt (how the answer is shown in pixels), the answer contract
(the visual form, its ink colours, the text form and its contract), the parser as a list of
typed operations (``suites.provise.ops``), the invalid-output rules and the metric. A file is
checked against ``protocol.schema.json`` and its program against the operations' signatures
when it is loaded; its SHA-256 is its identity, recorded in every item built under it and in
every grade it gives, so a changed protocol cannot grade items built under the old one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from suites.base import SuiteError
from suites.provise.ops import INITIAL, ProgramError, check_program

PROTOCOL_DIR: Final = Path(__file__).with_name("protocols")
SCHEMA_FILE: Final = PROTOCOL_DIR / "protocol.schema.json"

#: What each invalid-output check reads.
CHECK_TYPES: Final = {
    "min_pixels": "mask",
    "max_fraction": "mask",
    "max_midtones": "image",
    "min_value": "number",
    "max_value": "number",
}
#: The type of result each metric scores.
METRIC_TYPES: Final = {
    "exact_match": ("label", "number"),
    "point_in_mask": ("point",),
    "mask_precision": ("mask",),
    "dfd_success": ("path",),
    "path_success": ("path",),
}
#: The text answer forms each metric can score.
METRIC_TEXT: Final = {
    "exact_match": ("count", "option", "boolean"),
    "point_in_mask": ("point",),
    "mask_precision": ("points",),
    "dfd_success": ("path",),
    "path_success": ("path",),
}


def hex_bgr(code: str) -> tuple[int, int, int]:
    """``#RRGGBB`` as OpenCV's (blue, green, red)."""
    return (int(code[5:7], 16), int(code[3:5], 16), int(code[1:3], 16))


@dataclass(frozen=True)
class Protocol:
    """One task's protocol as loaded; ``sha256`` is the hash of the file's bytes."""

    path: Path
    sha256: str
    name: str
    task: str
    guidance: str
    answer: Mapping[str, str]
    steps: tuple[Mapping[str, Any], ...]
    result: str
    invalid: tuple[Mapping[str, Any], ...]
    metric: str
    threshold: float | None
    #: The metric's other parameters (path_success: ``end_radius``, ``clearance``).
    metric_params: Mapping[str, float]
    types: Mapping[str, str]
    #: How a drawn answer is registered to the input (``pixels.register``): ``ecc`` for an
    #: edit of the input (bars cut, resized, aligned on grey levels); ``bars`` for an image
    #: drawn from scratch (a depth map, a mask: bars cut and resized only).
    registration: str
    version: int

    @property
    def text_form(self) -> str:
        return self.answer["text"]

    @property
    def text_contract(self) -> str:
        return self.answer["text_contract"]

    @property
    def ink(self) -> tuple[int, int, int]:
        return hex_bgr(self.answer["ink"])

    @property
    def second_ink(self) -> tuple[int, int, int] | None:
        code = self.answer.get("second_ink")
        return None if code is None else hex_bgr(code)


@cache
def _validator() -> Any:
    import jsonschema

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def parse_protocol(path: Path, data: bytes) -> Protocol:
    """A protocol from its file's bytes; a ``SuiteError`` names the file and what is wrong."""
    try:
        document = json.loads(data)
    except json.JSONDecodeError as error:
        raise SuiteError(f"{path}: not valid JSON: {error.msg} at line {error.lineno}") from None
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(e.path))
    if errors:
        where = "/".join(str(p) for p in errors[0].path) or "(top)"
        raise SuiteError(f"{path}: {where}: {errors[0].message}")
    try:
        types = check_program(document["parser"], INITIAL)
    except ProgramError as error:
        raise SuiteError(f"{path}: parser {error}") from None
    result = document["result"]
    metric = document["metric"]["name"]
    if types.get(result) not in METRIC_TYPES[metric]:
        raise SuiteError(
            f"{path}: result {result!r} is a {types.get(result, 'undefined name')}; "
            f"metric {metric} scores a {' or '.join(METRIC_TYPES[metric])}"
        )
    if document["answer"]["text"] not in METRIC_TEXT[metric]:
        raise SuiteError(
            f"{path}: metric {metric} cannot score a text answer of form {document['answer']['text']!r}"
        )
    if "text_contract" not in document["answer"]:
        raise SuiteError(f"{path}: answer/text_contract is missing")
    for rule in document["invalid"]:
        wanted = CHECK_TYPES[rule["check"]]
        if types.get(rule["of"]) != wanted:
            raise SuiteError(
                f"{path}: invalid rule {rule['check']} reads {rule['of']!r}, which is not a {wanted}"
            )
    if metric in ("dfd_success", "path_success") and "threshold" not in document["metric"]:
        raise SuiteError(f"{path}: metric {metric} needs a threshold")
    if metric == "path_success":
        for key in ("end_radius", "clearance"):
            if key not in document["metric"]:
                raise SuiteError(f"{path}: metric path_success needs {key}")
    return Protocol(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        name=document["name"],
        task=document["task"],
        guidance=document["guidance"],
        answer=dict(document["answer"]),
        steps=tuple(document["parser"]),
        result=result,
        invalid=tuple(document["invalid"]),
        metric=metric,
        threshold=document["metric"].get("threshold"),
        metric_params={
            k: float(v) for k, v in document["metric"].items() if k not in ("name", "threshold")
        },
        types=types,
        registration=document["registration"],
        version=document["version"],
    )


def load_protocol(path: Path) -> Protocol:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SuiteError(f"{path}: {error.strerror or error}") from None
    return parse_protocol(path, data)


@cache
def protocol(task: str) -> Protocol:
    """The protocol of ``task`` (``protocols/<task>.json``), loaded and checked once."""
    loaded = load_protocol(PROTOCOL_DIR / f"{task}.json")
    if loaded.task != task:
        raise SuiteError(f"{loaded.path}: says task {loaded.task!r}, not {task!r}")
    return loaded


__all__ = ["PROTOCOL_DIR", "Protocol", "hex_bgr", "load_protocol", "parse_protocol", "protocol"]
