"""Canned replies keyed by request id, the same whichever route asks: reconstructions from the
demo's mock model (the true scene bent: noise, missed and invented objects, cut-off replies),
QA and suite answers right or wrong by a hash of the id, so every score lies strictly between
0 and 1 and any mix-up of ids or truths moves it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from demo.replies import MOCK_MODELS, mock_reply
from spatialbabel import Scene
from spatialbabel.run.batch import parse_request_id


def _draw(custom_id: str) -> int:
    return int(hashlib.sha256(custom_id.encode()).hexdigest()[:8], 16)


def _qa_answer(answer: Any, right: bool) -> str:
    if isinstance(answer, list):
        values = answer if right else [v + 1.0 for v in answer]
        return "(" + ", ".join(f"{v:.3f}" for v in values) + ")"
    if isinstance(answer, bool):
        return ("yes" if answer else "no") if right else ("no" if answer else "yes")
    if isinstance(answer, int):
        return str(answer if right else answer + 1)
    return str(answer) if right else "neither"


def reply(custom_id: str, truth: str) -> str:
    """The canned reply to one request; ``truth`` is the row's ``truth`` column. Outer
    whitespace is stripped, as lmms-eval strips every reply."""
    request = parse_request_id(custom_id)
    record = json.loads(truth)
    draw = _draw(custom_id)
    if request.task == "reconstruct":
        language = request.parts[1]
        rng = np.random.default_rng(draw)
        return mock_reply(Scene.from_dict(record), MOCK_MODELS[1], language, rng).strip()
    right = draw % 2 == 0
    if request.task == "qa":
        return f"Final answer: {_qa_answer(record['answer'], right)}"
    answer = str(record["answer"])
    wrong = "B" if answer != "B" else "A"
    return f"Answer: {answer if right else wrong}"


def batch_output(path: Path, replies: Iterable[tuple[str, str]], model: str) -> Path:
    """An OpenAI batch output file of (custom_id, reply) pairs."""
    lines = []
    for custom_id, text in replies:
        body = {
            "model": model,
            "choices": [
                {"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            ],
        }
        lines.append(
            json.dumps({"custom_id": custom_id, "response": {"status_code": 200, "body": body}})
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rows_of(folder: Path, config: str) -> list[Mapping[str, Any]]:
    """A config's rows as ``datasets`` loads them."""
    import datasets

    return list(datasets.load_dataset(str(folder), config, split="test"))
