"""``spatialbabel run`` against a real OpenAI-compatible server on a real port (the stub), with
429s, 500s, hangs, malformed JSON and dropped connections: every request ends answered or
reported, none twice, and the replies score exactly as the same replies given as a file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.stub_server import Canned, FaultKind, FaultPlan, StubServer, canned_replies
from spatialbabel.cli import ExitCode, main
from spatialbabel.run.batch import read_batch_output
from tests.runner.workspace import Workspace, build, lines, scores

pytest.importorskip("openai")

FAST = ["--no-progress", "--backoff", "0.05", "--timeout", "2", "--concurrency", "4"]
MODELS = ["--model", "mock-careful", "--model", "mock-hasty", "--model", "mock-mirrored"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return build(tmp_path_factory.mktemp("runner"))


def scheduled(schedule: dict[tuple[str, str], list[FaultKind]]) -> FaultPlan:
    """Faults by (model, key): the i-th attempt gets the i-th fault, later ones none."""

    def plan(model: str, key: str, attempt: int) -> FaultKind | None:
        faults = schedule.get((model, key), [])
        return faults[attempt] if attempt < len(faults) else None

    return plan


def run(
    ws: Workspace, out: Path, server: StubServer, *extra: str, requests: Path | None = None
) -> int:
    return main(
        ["run", str(requests or ws.requests), "--out", str(out), "--base-url", server.base_url]
        + FAST
        + list(extra)
    )


def score(ws: Workspace, predictions: Path, out: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(
        ["score", "--split", str(ws.split), "--subset", "all", "--predictions", str(predictions)]
        + ["--out", str(out), "--workers", "1", "--resamples", "200", *extra]
    )
    return code, scores(out)


def same_tables(a: dict[str, Any], b: dict[str, Any]) -> None:
    # Aggregation takes the replies in a canonical order, so line order changes no bit.
    for name in ("cells", "models", "tiers", "model_tiers"):
        assert a[name] == b[name], name


@pytest.fixture
def replies(workspace: Workspace) -> dict[tuple[str, str], Canned]:
    return canned_replies(workspace.requests, workspace.predictions)


def test_every_fault_ends_answered_once_and_scores_like_the_file(
    workspace: Workspace,
    replies: dict[tuple[str, str], Canned],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    kinds: list[list[FaultKind]] = [["429"], ["500", "500"], ["hang"], ["malformed"], ["drop"], []]
    pairs = sorted(replies)
    assert len(pairs) == 18
    schedule = {pair: kinds[i % len(kinds)] for i, pair in enumerate(pairs)}
    out = tmp_path / "replies.jsonl"
    with StubServer(replies, faults=scheduled(schedule), retry_after=1.0, hang=5.0) as server:
        assert run(workspace, out, server, *MODELS, "--timeout", "1") == ExitCode.OK
        assert server.answered() == dict.fromkeys(pairs, 1)
        # A 429's retry waits for Retry-After (1 s), though the backoff alone is 0.05 s.
        by_pair: dict[tuple[str, str], list[float]] = {}
        for attempt in server.attempts:
            by_pair.setdefault((attempt.model, attempt.key), []).append(attempt.at)
        for pair, faults in schedule.items():
            assert len(by_pair[pair]) == len(faults) + 1
            if faults == ["429"]:
                assert by_pair[pair][1] - by_pair[pair][0] >= 1.0
        sent = len(server.attempts)
        # A rerun finds every reply in the cache and sends nothing.
        again = tmp_path / "again.jsonl"
        assert (
            run(workspace, again, server, *MODELS, "--cache", str(tmp_path / "replies.cache.jsonl"))
            == 0
        )
        assert len(server.attempts) == sent
    assert again.read_bytes() == out.read_bytes()
    printed = capsys.readouterr().out
    assert "18 answered, 0 failed" in printed and "retries" in printed
    records = lines(out)
    assert len({(r["request_id"], r["model"]) for r in records}) == len(records) == 18
    for record in records:
        assert record["finish_reason"] == "stop" and record["usage"]["completion_tokens"] > 0
        assert record["latency_s"] >= 0 and "error" not in record
    code, from_run = score(workspace, out, tmp_path / "scores_run")
    assert code == ExitCode.OK
    code, from_file = score(workspace, workspace.predictions, tmp_path / "scores_file")
    assert code == ExitCode.OK
    same_tables(from_run, from_file)


def test_failed_requests_are_reported_with_their_ids_and_sent_again_on_rerun(
    workspace: Workspace,
    replies: dict[tuple[str, str], Canned],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pairs = sorted(p for p in replies if p[0] == "mock-careful")
    broken, refused = pairs[0], pairs[1]
    schedule: dict[tuple[str, str], list[FaultKind]] = {broken: ["500"] * 10, refused: ["400"]}
    out = tmp_path / "replies.jsonl"
    with StubServer(replies, faults=scheduled(schedule)) as server:
        code = run(workspace, out, server, "--model", "mock-careful", "--max-retries", "2")
        assert code == ExitCode.PROBLEMS
        attempts = [a for a in server.attempts if (a.model, a.key) == broken]
        assert len(attempts) == 3
    err = capsys.readouterr().err
    failed = [r for r in lines(out) if "error" in r]
    assert len(lines(out)) == 6 and len(failed) == 2
    for record in failed:
        assert record["output"] == "" and record["request_id"] in err
    assert any(
        "HTTP 500" in r["error"] and "gave up after 3 attempts" in r["error"] for r in failed
    )
    assert any("HTTP 400" in r["error"] for r in failed)
    code, data = score(workspace, out, tmp_path / "scores")
    assert code == ExitCode.PROBLEMS
    assert data["summary"]["problems"]["failed"] == 2
    assert data["summary"]["problems"]["missing"] == 0
    assert data["summary"]["lines_scored"] == 4
    messages = " ".join(p["message"] for p in data["problems"])
    assert all(r["request_id"] in messages for r in failed)
    # The server recovers: a rerun sends the two failed requests only.
    with StubServer(replies) as server:
        assert run(workspace, out, server, "--model", "mock-careful") == ExitCode.OK
        assert len(server.attempts) == 2
    assert not any("error" in r for r in lines(out))


def test_an_authentication_failure_stops_the_run(
    workspace: Workspace,
    replies: dict[tuple[str, str], Canned],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "replies.jsonl"
    with StubServer(replies, faults=lambda model, key, attempt: "401") as server:
        code = run(workspace, out, server, "--model", "mock-careful", "--concurrency", "1")
        assert code == ExitCode.PROBLEMS
        assert len(server.attempts) == 1
    err = capsys.readouterr().err
    assert "stopped: HTTP 401" in err and "5 request(s) not sent" in err


def test_the_api_key_comes_from_the_environment_and_is_written_nowhere(
    workspace: Workspace,
    replies: dict[tuple[str, str], Canned],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("STUB_KEY", "sk-test-4b1d")
    out = tmp_path / "replies.jsonl"
    with StubServer(replies) as server:
        code = run(workspace, out, server, "--model", "mock-careful", "--api-key-env", "STUB_KEY")
        assert code == ExitCode.OK
        assert {a.authorization for a in server.attempts} == {"Bearer sk-test-4b1d"}
    for path in tmp_path.iterdir():
        assert "sk-test-4b1d" not in path.read_text()


def test_qa_answers_through_the_server_grade_like_the_answers_file(
    workspace: Workspace, tmp_path: Path
) -> None:
    replies = canned_replies(workspace.qa_requests, workspace.answers)
    out = tmp_path / "answers.jsonl"
    faults = scheduled({pair: ["500"] for pair in sorted(replies)[::3]})
    with StubServer(replies, faults=faults) as server:
        code = run(workspace, out, server, "--model", "m1", requests=workspace.qa_requests)
        assert code == ExitCode.OK
    records = lines(out)
    assert len(records) == len(replies) and all("scene_id" not in r for r in records)
    summaries = []
    for answers in (out, workspace.answers):
        target = tmp_path / answers.stem
        args = ["score-qa", "--split", str(workspace.split), "--answers", str(answers)]
        assert main([*args, "--out", str(target)]) == ExitCode.OK
        summaries.append(scores(target, "qa_scores.json")["summary"])
    assert summaries[0] == summaries[1]


def test_a_mixed_file_writes_each_task_in_its_format_and_each_scorer_takes_its_own(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reconstruct = lines(workspace.requests)
    qa = lines(workspace.qa_requests)[:2]
    suite = {**qa[0], "custom_id": "spacecast/item-1/after-move"}
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(json.dumps(r) + "\n" for r in [*reconstruct, *qa, suite]))
    # One model answers both kinds; the suite item asks what qa[0] asks.
    texts = {
        key: text
        for (model, key), text in canned_replies(workspace.requests, workspace.predictions).items()
        if model == "mock-careful"
    }
    for (_, key), text in canned_replies(workspace.qa_requests, workspace.answers).items():
        texts[key] = text
    replies = {("mock-careful", key): text for key, text in texts.items()}
    out = tmp_path / "out.jsonl"
    with StubServer(replies) as server:
        code = run(workspace, out, server, "--model", "mock-careful", requests=mixed)
        assert code == ExitCode.OK
    records = lines(out)
    assert len(records) == len(reconstruct) + 3
    assert all("scene_id" in r for r in records[: len(reconstruct)])
    assert all("question_id" in r for r in records[len(reconstruct) : -1])
    batch = list(read_batch_output(out))
    suite_line = batch[-1]
    assert suite_line.reply is not None and suite_line.reply.custom_id == suite["custom_id"]
    assert suite_line.reply.text and suite_line.reply.usage["total_tokens"] > 0
    code, data = score(workspace, out, tmp_path / "scores")
    assert code == ExitCode.OK and data["summary"]["skipped_other_tasks"] == 3
    assert "3 line(s)" in capsys.readouterr().err
    target = tmp_path / "qa"
    args = ["score-qa", "--split", str(workspace.split), "--answers", str(out)]
    assert main([*args, "--out", str(target)]) == ExitCode.OK
    assert scores(target, "qa_scores.json")["counts"]["answers"] == 2


def test_batch_format_is_read_by_score_batch_output(
    workspace: Workspace, replies: dict[tuple[str, str], Canned], tmp_path: Path
) -> None:
    out = tmp_path / "batch.jsonl"
    with StubServer(replies) as server:
        assert run(workspace, out, server, *MODELS, "--format", "batch") == ExitCode.OK
    assert all(r["response"]["status_code"] == 200 for r in lines(out))
    code, from_batch = score(workspace, out, tmp_path / "s1", "--batch-output")
    assert code == ExitCode.OK
    _, from_file = score(workspace, workspace.predictions, tmp_path / "s2")
    same_tables(from_batch, from_file)


def test_a_token_limit_cuts_replies_and_says_so(
    workspace: Workspace, replies: dict[tuple[str, str], Canned], tmp_path: Path
) -> None:
    out = tmp_path / "short.jsonl"
    with StubServer(replies) as server:
        code = run(workspace, out, server, "--model", "mock-careful", "--max-tokens", "20")
        assert code == ExitCode.OK
    for record in lines(out):
        assert record["finish_reason"] == "length" and record["usage"]["completion_tokens"] == 20


def _journal_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.fixture
def slow_server(replies: dict[tuple[str, str], str]) -> Iterator[StubServer]:
    with StubServer(replies, latency=0.15) as server:
        yield server


def test_a_killed_run_resumes_with_nothing_lost_or_sent_twice(
    workspace: Workspace,
    replies: dict[tuple[str, str], Canned],
    slow_server: StubServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, cache = tmp_path / "replies.jsonl", tmp_path / "replies.cache.jsonl"
    command = [sys.executable, "-m", "spatialbabel.cli", "run", str(workspace.requests)]
    command += ["--out", str(out), "--base-url", slow_server.base_url, *MODELS]
    command += ["--no-progress", "--concurrency", "2"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while _journal_lines(cache) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert not out.exists()
    kept = _journal_lines(cache)
    assert 5 <= kept < 18
    # A kill in the middle of a write leaves a cut-off line: recovered on resume.
    with cache.open("ab") as stream:
        stream.write(b'{"key": "cut-off-mid-wri')
    before = len(slow_server.attempts)
    assert (
        main(
            [
                "run",
                str(workspace.requests),
                "--out",
                str(out),
                "--base-url",
                slow_server.base_url,
                *MODELS,
                "--no-progress",
            ]
        )
        == 0
    )
    assert "dropped a cut-off last line" in capsys.readouterr().err
    # The resumed run sends exactly what the journal lacks; the server answered again only
    # the requests it had received before the kill whose replies had not reached the journal.
    assert len(slow_server.attempts) - before == 18 - kept
    answered = slow_server.answered()
    assert set(answered) == set(replies) and sum(answered.values()) == before + 18 - kept
    records = lines(out)
    assert len(records) == 18
    assert len({(r["request_id"], r["model"]) for r in records}) == 18
    assert _journal_lines(cache) == 18


def test_sigterm_stops_cleanly_writes_what_was_answered_and_the_rerun_finishes(
    workspace: Workspace, slow_server: StubServer, tmp_path: Path
) -> None:
    out, cache = tmp_path / "replies.jsonl", tmp_path / "replies.cache.jsonl"
    command = [sys.executable, "-m", "spatialbabel.cli", "run", str(workspace.requests)]
    command += ["--out", str(out), "--base-url", slow_server.base_url, *MODELS]
    command += ["--no-progress", "--concurrency", "2"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _journal_lines(cache) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=30)
    assert child.returncode == ExitCode.INTERRUPTED, err
    assert "not sent; run the same command again" in err
    written = lines(out)
    assert 3 <= len(written) < 18 and len(written) == _journal_lines(cache)
    assert main([*command[3:]]) == ExitCode.OK
    assert len(lines(out)) == 18
