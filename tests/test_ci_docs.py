"""docs/ci.md stays true: its workflows are valid YAML doing what the page says, and every
``spatialbabel`` command in it is accepted by the command line as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from spatialbabel.cli import COMMANDS, build_parser

DOC = Path(__file__).resolve().parents[1] / "docs" / "ci.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(), flags=re.S | re.M)


def workflows() -> tuple[dict[str, Any], dict[str, Any]]:
    github, gitlab = (yaml.safe_load(text) for text in blocks("yaml"))
    return github, gitlab


def commands() -> list[str]:
    github, gitlab = workflows()
    found = [step.get("run", "") for step in github["jobs"]["scores"]["steps"]]
    found += gitlab["scores"]["script"]
    found += [line.split("#")[0] for text in blocks("bash") for line in text.splitlines()]
    return [" ".join(c.split()) for c in found if c.strip().startswith("spatialbabel ")]


def test_the_github_workflow_caches_pip_scores_compares_and_posts() -> None:
    github, _ = workflows()
    steps = github["jobs"]["scores"]["steps"]
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["cache"] == "pip"
    runs = " ".join(s.get("run", "") for s in steps)
    assert "spatialbabel score" in runs and "spatialbabel compare ci/baseline scores" in runs
    assert 'cat compare/summary.md >> "$GITHUB_STEP_SUMMARY"' in runs
    assert "gh pr comment" in runs


def test_the_gitlab_job_caches_pip_scores_compares_and_posts() -> None:
    _, gitlab = workflows()
    job = gitlab["scores"]
    assert job["variables"]["PIP_CACHE_DIR"] == "$CI_PROJECT_DIR/.cache/pip"
    assert job["cache"]["paths"] == [".cache/pip"]
    assert any(line.startswith("spatialbabel compare") for line in job["script"])
    assert job["artifacts"]["reports"]["junit"] == "compare/junit.xml"
    post = job["after_script"][0]
    assert "merge_requests/{}/notes" in post
    compile(post.split("<<'EOF'\n")[1].split("\nEOF")[0], "after_script", "exec")


@pytest.mark.parametrize("command", commands())
def test_every_command_is_accepted_as_written(command: str) -> None:
    tokens = shlex.split(command)[1:]
    assert tokens[0] in COMMANDS
    args = build_parser(tokens[0]).parse_args(tokens)  # exits on an unknown flag
    assert args.command == tokens[0]
