"""The demo's QA step: the mock models answer the split's questions, graded by both readers.

No real model runs here. A mock model (``demo.replies.MOCK_MODELS``) answers a
question from the scene it believes it sees: the true scene bent its documented way, and
bent more the less it works through the scene (the paradox the paper reports: the same
models answer worse directly than through code). The question's own program, run on that
scene, gives its answer:

| mode | the scene it answers from | the reply |
|---|---|---|
| ``direct`` | positions off by ``DIRECT_NOISE`` more | the answer |
| ``nl_cot`` | positions off by ``NL_COT_NOISE`` more | each object in words with rough coordinates, then the answer |
| ``code_cot:<language>`` | the model's noise, scaled by how far the language's Reconstruct Score lies below its best (``LANGUAGE_NOISE``) | the scene as code in that language (``parsers.write``), then the answer |

Each model words its answers its own way (``STYLES``), as real ones do: a ``Final answer:``
line, the markdown ``**Final Answer:**``, a plain sentence that may make the reference object
its subject ("The blue sphere is to the right of the red cube."), or a hedge ("3 or 4",
"left, not right"). The two readers of ``score-qa`` (``--protocol project`` and ``paper``) part
on exactly these, so the demo shows both. The step writes each model's QA requests with
``code_cot:best`` and ``code_cot:worst`` picked from the demo's scores (``spatialbabel prompts
--languages-from``), answers them, and grades them under both protocols with the best/worst
table. Like the CLI this is wiring: parsers and scorer are imported when called.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

import numpy as np

from demo.replies import _FENCES, MOCK_MODELS, MockModel, _bend
from spatialbabel.cli import ExitCode
from spatialbabel.files import read_jsonl, split_paths, write_jsonl
from spatialbabel.geometry.relations import OPPOSITE, RELATION_PHRASES
from spatialbabel.qa import ProgramError, Question, parse_mode, run_program
from spatialbabel.run.batch import QA, parse_request_id
from spatialbabel.scene import Scene

#: Extra position noise (scene units) when a model answers without working through the scene.
DIRECT_NOISE: Final = 0.6
NL_COT_NOISE: Final = 0.3
#: Code-CoT noise grows by this factor per unit of Reconstruct Score below the model's best.
LANGUAGE_NOISE: Final = 8.0
#: The QA modes each mock model is asked in.
QA_MODES: Final = ("direct", "nl_cot", "code_cot:best", "code_cot:worst")
#: How often each model words its answer each way (the rest: a ``Final answer:`` line).
STYLES: Final[dict[str, dict[str, float]]] = {
    "mock-careful": {"bold": 0.2},
    "mock-hasty": {"sentence": 0.35, "hedge": 0.25, "bold": 0.1},
    "mock-mirrored": {"bold": 0.5, "sentence": 0.25},
}

_LOSES: Final = {"larger": "smaller than", "taller": "shorter than", "closer": "farther from the camera than"}  # fmt: skip


def _style(model: str, rng: np.random.Generator) -> str:
    draw, total = rng.random(), 0.0
    for name, share in STYLES.get(model, {}).items():
        total += share
        if draw < total:
            return name
    return "marker"


def _answer_words(question: Question, value: Any) -> str:
    if question.category == "localization":
        return "({:.2f}, {:.2f}, {:.2f})".format(*value)
    return str(value)


def _other(question: Question, value: Any) -> str:
    return next(str(c) for c in question.choices if c != value)


def _stated(question: Question, value: Any, style: str) -> str:
    """The reply's last words, the answer ``value`` worded in ``style``."""
    words = _answer_words(question, value)
    if style == "bold":
        return f"**Final Answer:** {words}"
    if style == "hedge" and question.category == "counting":
        return f"Final answer: {value} or {int(value) + 1}"
    if style == "hedge" and question.category in ("relationship", "comparison"):
        return f"Final answer: {words}, not {_other(question, value)}"
    if style == "sentence" and question.category == "relationship":
        target, anchor = question.objects[0].ref, question.objects[1].ref
        seen_back = RELATION_PHRASES[OPPOSITE[value]]
        return f"{anchor[0].upper()}{anchor[1:]} is {seen_back} {target}."
    if style == "sentence" and question.category == "comparison":
        loser = _other(question, value)
        return f"{loser[0].upper()}{loser[1:]} is {_LOSES[question.kind]} {value}."
    if style == "sentence" and question.category == "counting":
        return f"I count {value} of them in total."
    if style == "sentence" and question.category == "existence":
        return f"{str(value).capitalize()}, from what I can see."
    return f"Final answer: {words}"


def _in_words(scene: Scene) -> str:
    return "\n".join(
        f"{k}. the {o.color} {o.class_name} at about x = {o.position[0]:.1f}, z = {o.position[2]:.1f}"
        for k, o in enumerate(scene.objects, start=1)
    )


def answer_reply(
    question: Question,
    truth: Scene,
    model: MockModel,
    mode: str,
    rng: np.random.Generator,
    *,
    scores: dict[str, float | None] | None = None,
) -> str:
    """The reply of ``model`` to ``question`` in ``mode``."""
    from parsers import write

    kind, language = parse_mode(mode)
    noise = model.position_noise
    if kind == "direct":
        noise += DIRECT_NOISE
    elif kind == "nl_cot":
        noise += NL_COT_NOISE
    elif scores and language in scores:
        finite = [v for v in scores.values() if v is not None]
        own = scores[language]
        noise *= 1.0 + LANGUAGE_NOISE * (max(finite) - own if own is not None else 1.0)
    believed = truth.with_objects(_bend(truth, replace(model, position_noise=noise), rng))
    try:
        value = run_program(question.program, believed)
        ending = _stated(question, value, _style(model.name, rng))
    except ProgramError:
        ending = "I cannot tell from the image."
    if kind == "direct":
        return ending
    if kind == "nl_cot":
        return f"Let me list the objects first:\n{_in_words(believed)}\n\n{ending}"
    assert language is not None
    code = write(believed, language).rstrip("\n")
    return (
        f"First the scene as code:\n\n```{_FENCES[language]}\n{code}\n```\n\n"
        f"Reading the answer from the scene above.\n\n{ending}"
    )


def qa_replies(
    split: Path, requests: Path, model_name: str, *, seed: int = 0
) -> list[dict[str, str]]:
    """Answer records for every QA request of ``requests`` (written for ``model_name``), in
    its order; the languages' scores come from its side file when it has one."""
    from suites.qa.code_cot_languages import side_file

    model = next(m for m in MOCK_MODELS if m.name == model_name)
    picks = side_file(requests)
    scores = json.loads(picks.read_text())["scores"] if picks.is_file() else None
    questions = {
        q.question_id: q
        for item in read_jsonl(split_paths(split)["qa"])
        if item.record is not None
        for q in [Question.from_dict(item.record)]
    }
    scenes: dict[str, Scene] = {}
    records = []
    for item in read_jsonl(requests):
        assert item.record is not None
        request = parse_request_id(item.record["custom_id"])
        if request.task != QA:
            continue
        question_id, mode = request.parts
        question = questions[question_id]
        if question.scene_id not in scenes:
            scenes[question.scene_id] = Scene.load(
                split_paths(split)["scenes"] / f"{question.scene_id}.json"
            )
        rng = np.random.default_rng(
            [seed, zlib.crc32(f"{model_name}/{question_id}/{mode}".encode())]
        )
        reply = answer_reply(question, scenes[question.scene_id], model, mode, rng, scores=scores)
        records.append(
            {
                "question_id": question_id,
                "scene_id": question.scene_id,
                "model": model_name,
                "mode": mode,
                "output": reply,
            }
        )
    return records


def qa_step(out: Path, split: Path, scores: Path) -> int:
    """Write each mock model's QA requests (its best and worst language from ``scores``),
    answer them, and grade the answers under both protocols."""
    from spatialbabel.cli import main
    from suites.qa.code_cot_languages import read_picks

    picked = read_picks(scores)
    models = [m.name for m in MOCK_MODELS if m.name in picked]
    if not models:
        print("no mock model has a language gap in the scores: QA step skipped")
        return ExitCode.OK
    records: list[dict[str, str]] = []
    for model in models:
        requests = out / f"requests-{model}.jsonl"
        status = main(
            ["prompts", "--split", str(split), "--task", "qa", "--modes", *QA_MODES]
            + ["--languages-from", str(scores), "--model", model, "--out", str(requests)]
        )
        if status != ExitCode.OK:
            return status
        records += qa_replies(split, requests, model)
    answers = out / "answers.jsonl"
    write_jsonl(answers, records)
    for protocol in ("project", "paper"):
        print(f"\n-- QA answers read by the {protocol} protocol", flush=True)
        status = main(
            ["score-qa", "--split", str(split), "--answers", str(answers)]
            + ["--out", str(out / protocol), "--protocol", protocol]
            + ["--languages-from", str(scores)]
        )
        if status != ExitCode.OK:
            return status
    return ExitCode.OK
