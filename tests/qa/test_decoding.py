"""Every request file states its decoding (issue 28, item 5): the papers' greedy decoding
(temperature 0; SpaceCast's "deterministic decoding"), each task's token budget, and no top_p
(the papers set none), overridable by the same flags in every writer, and sent by ``run``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.requests import Settings, settle
from spatialbabel.cli import ExitCode, main
from spatialbabel.files import read_jsonl
from tests.qa.tiny_split import make_split
from tests.suites import toy_suite

TOY = toy_suite.SUITE  # importing the module registers the toy suite

#: Every command that writes a request file.
WRITERS = ("reconstruct", "qa", "s3ft-phase1", "suite")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("decoding")
    make_split(root / "split", count=4)
    items = root / "items"
    assert (
        main(
            [
                "suite",
                "build",
                "--suite",
                "toy",
                "--split",
                str(root / "split"),
                "--out",
                str(items),
            ]
        )
        == 0
    )
    return {"split": root / "split", "items": items, "root": root}


def _command(writer: str, folders: dict[str, Path], out: Path) -> list[str]:
    if writer == "suite":
        return [
            "suite",
            "prompts",
            "--suite",
            "toy",
            "--items",
            str(folders["items"]),
            "--out",
            str(out),
        ]
    extra = ["--languages", "json"] if writer != "s3ft-phase1" else []
    return [
        "prompts",
        "--split",
        str(folders["split"]),
        "--task",
        writer,
        *extra,
        "--out",
        str(out),
    ]


def _bodies(path: Path) -> list[dict[str, Any]]:
    return [line.record["body"] for line in read_jsonl(path) if line.record is not None]


@pytest.mark.parametrize("writer", WRITERS)
def test_every_request_states_the_papers_decoding(
    writer: str, folders: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "requests.jsonl"
    assert main(_command(writer, folders, out)) == ExitCode.OK
    bodies = _bodies(out)
    assert bodies
    for body in bodies:
        # The order the writers always used: a file whose settings did not change keeps its bytes.
        assert list(body) == ["model", "messages", "max_completion_tokens", "temperature"]
        assert body["temperature"] == 0.0 and body["max_completion_tokens"] >= 1
    # Giving the default explicitly writes the same bytes.
    again = tmp_path / "again.jsonl"
    assert main([*_command(writer, folders, again), "--temperature", "0"]) == ExitCode.OK
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("writer", WRITERS)
def test_the_flags_override_every_writer(
    writer: str, folders: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "requests.jsonl"
    flags = ["--temperature", "0.7", "--top-p", "0.9", "--max-tokens", "77"]
    assert main([*_command(writer, folders, out), *flags]) == ExitCode.OK
    for body in _bodies(out):
        assert (body["temperature"], body["top_p"], body["max_completion_tokens"]) == (0.7, 0.9, 77)
    assert main([*_command(writer, folders, out), "--no-temperature"]) == ExitCode.OK
    assert all("temperature" not in body and "top_p" not in body for body in _bodies(out))


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--top-p", "0"], "--top-p"),
        (["--top-p", "1.5"], "--top-p"),
        (["--temperature", "-1"], "--temperature"),
        (["--temperature", "nan"], "--temperature"),
        (["--max-tokens", "0"], "--max-tokens"),
    ],
)
def test_bad_settings_are_refused_by_name(
    writer: str,
    flags: list[str],
    named: str,
    folders: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "requests.jsonl"
    assert main([*_command(writer, folders, out), *flags]) == ExitCode.USAGE
    assert named in capsys.readouterr().err and not out.exists()


def test_run_sends_top_p_only_when_told() -> None:
    custom_id = "spacecast/i1/cot"
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "?"}]}
    assert "top_p" not in settle(body, custom_id, None, Settings())
    assert settle(body, custom_id, None, Settings(top_p=0.8))["top_p"] == 0.8
    assert settle({**body, "top_p": 0.5}, custom_id, None, Settings())["top_p"] == 0.5
    assert settle({**body, "top_p": 0.5}, custom_id, None, Settings(top_p=0.8))["top_p"] == 0.8
    # A suite's request written before item 5 (no temperature) is sent with the papers' 0.
    assert settle(body, custom_id, None, Settings())["temperature"] == 0.0
    assert main(["run", "/nonexistent.jsonl", "--top-p", "2", "--out", "/tmp/x"]) == ExitCode.USAGE
