"""Prompts and ``spatialbabel prompts``: every line valid OpenAI batch input, the right requests,
the frames written in each engine's own axes, deterministic output."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from parsers import parse
from spatialbabel import LANGUAGES, Scene, language_frame
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl
from spatialbabel.qa import Question
from synth.prompts import (
    DSL_EXAMPLE,
    GUIDES,
    JSON_EXAMPLE,
    coordinate_hint,
    qa_prompt,
    reconstruct_prompt,
    to_scene_frame,
)
from tests.qa.tiny_split import make_split

SCHEMA = json.loads(
    (Path(__file__).parent / "openai_batch_request.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _lines(path: Path) -> list[dict[str, Any]]:
    records = []
    for item in read_jsonl(path):
        assert item.record is not None, item.error
        records.append(item.record)
    return records


def _validate(records: list[dict[str, Any]], split: Path) -> None:
    for record in records:
        errors = sorted(VALIDATOR.iter_errors(record), key=str)
        assert not errors, f"{record['custom_id']}: {errors[0].message}"
        user = record["body"]["messages"][1]
        images = [p for p in user["content"] if p["type"] == "image_url"]
        assert len(images) == 1
        scene_id = record["custom_id"].split("/")[1].split("-q")[0]
        data = base64.b64decode(images[0]["image_url"]["url"].split(",", 1)[1])
        assert data == (split / "images" / f"{scene_id}.png").read_bytes()
    assert len({r["custom_id"] for r in records}) == len(records)


def test_the_schema_rejects_what_the_batch_api_would() -> None:
    good: dict[str, Any] = {
        "custom_id": "a",
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": {
            "model": "m",
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image_url",
                            "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="},
                        }
                    ],
                }
            ],
        },
    }
    assert VALIDATOR.is_valid(good)
    for broken in (
        {**good, "method": "GET"},
        {**good, "url": "/v1/responses"},
        {k: v for k, v in good.items() if k != "custom_id"},
        {**good, "body": {"messages": good["body"]["messages"]}},
        {
            **good,
            "body": {
                **good["body"],
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "image_url", "image_url": {"url": "http://x/y.png"}}],
                    }
                ],
            },
        },
        {**good, "extra": 1},
    ):
        assert not VALIDATOR.is_valid(broken)


def test_reconstruct_requests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    split = tmp_path / "split"
    scenes = make_split(split)
    out = tmp_path / "requests.jsonl"
    assert (
        main(
            [
                "prompts",
                "--split",
                str(split),
                "--task",
                "reconstruct",
                "--out",
                str(out),
                "--model",
                "some-vlm",
                "--temperature",
                "0",
            ]
        )
        == ExitCode.OK
    )
    assert "wrote 18 reconstruct request(s)" in capsys.readouterr().out
    records = _lines(out)
    _validate(records, split)
    assert [r["custom_id"] for r in records] == [
        f"reconstruct/{s.scene_id}/{lang}/direct" for s in scenes for lang in LANGUAGES
    ]
    assert all(r["body"]["model"] == "some-vlm" and r["body"]["temperature"] == 0 for r in records)
    system = {r["body"]["messages"][0]["content"] for r in records}
    assert len(system) == 1  # one fixed system instruction


def test_qa_requests_expand_code_cot_and_follow_the_subset(tmp_path: Path) -> None:
    split = tmp_path / "split"
    make_split(split)
    questions = [Question.from_dict(i.record) for i in read_jsonl(split / "qa.jsonl") if i.record]
    out = tmp_path / "qa.jsonl"
    code = main(
        [
            "prompts",
            "--split",
            str(split),
            "--task",
            "qa",
            "--languages",
            "json,blender",
            "--modes",
            "direct",
            "code_cot",
            "nl_cot",
            "--subset",
            "eval",
            "--out",
            str(out),
        ]
    )
    assert code == ExitCode.OK
    records = _lines(out)
    _validate(records, split)
    eval_ids = {"scene_000000", "scene_000001"}
    modes = ["direct", "code_cot:json", "code_cot:blender", "nl_cot"]
    expected = [
        f"qa/{q.question_id}/{m}" for q in questions if q.scene_id in eval_ids for m in modes
    ]
    assert [r["custom_id"] for r in records] == expected
    assert "temperature" not in records[0]["body"]


def test_the_output_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    split = tmp_path / "split"
    make_split(split, count=2)
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        assert (
            main(["prompts", "--split", str(split), "--task", "qa", "--out", str(tmp_path / name)])
            == ExitCode.OK
        )
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    # 3 modes, with code_cot for each of the six languages: 8 requests per question.
    questions = sum(1 for _ in read_jsonl(split / "qa.jsonl"))
    assert outputs[0].count(b"\n") == 8 * questions


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_coordinate_hint_is_written_in_the_engines_own_frame(
    language: str, tmp_path: Path
) -> None:
    scene = make_split(tmp_path, count=1)[0]
    hint = coordinate_hint(scene, language)
    numbers = r"\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)"
    eye, target = (np.array([float(v) for v in m]) for m in re.findall(numbers, hint)[:2])
    frame = language_frame(language)
    camera = scene.cameras[0]
    assert frame.point(eye) == pytest.approx(camera.position, abs=0.006)
    forward = -camera.pose[:3, 2]
    direction = np.array(frame.point(target)) - np.array(camera.position)
    assert np.dot(direction / np.linalg.norm(direction), forward) == pytest.approx(1.0, abs=1e-3)
    up_axis = {"blender": "Z up"}.get(language, "Y up")
    assert up_axis in hint
    assert ("left-handed" in hint) == (language == "unity")
    plane = {"blender": "z = 0.00"}.get(language, "y = 0.00")
    assert f"ground is the plane {plane}" in hint


def test_scene_frame_mapping_in_code_cot_prompts(tmp_path: Path) -> None:
    scene = make_split(tmp_path, count=1)[0]
    assert to_scene_frame("blender") == "(x, z, -y)"
    assert to_scene_frame("unity") == "(x, y, -z)"
    assert to_scene_frame("threejs") == "(x, y, z)"
    question = Question.from_dict(
        next(i.record for i in read_jsonl(tmp_path / "qa.jsonl") if i.record)
    )
    code = qa_prompt(question, scene, "code_cot:blender").text
    assert "(x, z, -y) in the scene frame" in code and GUIDES["blender"].body in code
    direct = qa_prompt(question, scene, "direct").text
    assert (
        question.question in direct and "```" not in direct and "Final answer: <answer>" in direct
    )
    assert qa_prompt(question, scene, "nl_cot").text != direct


def test_every_language_body_names_its_engine_and_the_palette(tmp_path: Path) -> None:
    scene = make_split(tmp_path, count=1)[0]
    for language in LANGUAGES:
        text = reconstruct_prompt(scene, language).text
        assert (
            GUIDES[language].body in text
            and "#e0141e" in text
            and f"```{GUIDES[language].fence}" in text
        )
        assert len(GUIDES[language].primitives) >= 4


def test_prompt_examples_parse_to_what_they_show() -> None:
    result = parse(f"```json\n{JSON_EXAMPLE}\n```", "json")
    assert [
        (o.class_name, o.color, o.position, o.rotation, o.size) for o in result.scene.objects
    ] == [
        ("cube", "red", (0.0, 0.5, 0.0), (0.0, 45.0, 0.0), (1.0, 1.0, 1.0)),
        ("sphere", "blue", (1.2, 0.3, -0.5), (0.0, 0.0, 0.0), (0.6, 0.6, 0.6)),
    ]


def test_dsl_example_parses_to_what_it_shows() -> None:
    pytest.importorskip("parsers.dsl", reason="the DSL parser is another issue's")
    result = parse(f"```scheme\n{DSL_EXAMPLE}\n```", "dsl")
    assert [(o.class_name, o.color, o.position, o.size) for o in result.scene.objects] == [
        ("cube", "red", (0.0, 0.5, 0.0), (1.0, 1.0, 1.0)),
        ("sphere", "blue", (1.2, 0.3, -0.5), (0.6, 0.6, 0.6)),
    ]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ["--task", "reconstruct", "--languages", "cobol"],
            ExitCode.USAGE,
            "unknown language 'cobol'",
        ),
        (
            ["--task", "qa", "--modes", "code_cot:cobol"],
            ExitCode.USAGE,
            "code_cot needs a language",
        ),
        (["--task", "qa", "--subset", "holdout"], ExitCode.BAD_INPUT, "no subset 'holdout'"),
        (["--task", "reconstruct", "--max-tokens", "0"], ExitCode.USAGE, "--max-tokens"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    split = tmp_path / "split"
    make_split(split, count=1)
    out = tmp_path / "out.jsonl"
    assert main(["prompts", "--split", str(split), *args, "--out", str(out)]) == code
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_missing_image_names_the_file_and_leaves_no_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    split = tmp_path / "split"
    scenes = make_split(split, count=2)
    missing = split / "images" / f"{scenes[1].scene_id}.png"
    missing.unlink()
    out = tmp_path / "out.jsonl"
    assert (
        main(["prompts", "--split", str(split), "--task", "reconstruct", "--out", str(out)])
        == ExitCode.BAD_INPUT
    )
    assert str(missing) in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.glob(".out.jsonl.*"))


def test_scene_ids_in_prompts_match_scenes(tmp_path: Path) -> None:
    scene = make_split(tmp_path, count=1)[0]
    other = Scene("elsewhere", scene.objects, scene.cameras)
    question = Question.from_dict(
        next(i.record for i in read_jsonl(tmp_path / "qa.jsonl") if i.record)
    )
    with pytest.raises(ValueError, match="not elsewhere"):
        qa_prompt(question, other, "direct")


def test_prompts_match_their_golden_files() -> None:
    from tests.qa.prompt_goldens import FOLDER, goldens

    for name, text in goldens().items():
        stored = (FOLDER / name).read_text(encoding="utf-8")
        assert stored.splitlines()[0] == text.splitlines()[0], (
            f"{name}: regenerate the goldens for this PROMPT_VERSION"
        )
        assert stored == text, (
            f"{name} changed: bump synth.prompts.PROMPT_VERSION and run python -m tests.qa.prompt_goldens"
        )
