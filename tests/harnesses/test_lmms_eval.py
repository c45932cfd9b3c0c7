"""The lmms-eval task package against the real lmms-eval: stand-in models of lmms-eval's own
interface (a simple one, given doc_to_visual and doc_to_text, and a chat one, given
doc_to_messages) return the canned replies, see exactly the requests `spatialbabel prompts`
and `suite prompts` write (texts, images, decoding settings), and every task's result equals
the number `spatialbabel score`, `score-qa` or `suite score` gives on the same replies."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from harnesses.lmms_eval_export import generation_kwargs
from harnesses.lmms_eval_hooks import metrics_of, task_name
from harnesses.sources import Request
from spatialbabel.cli import main
from tests.harnesses.conftest import MODEL, Built

pytest.importorskip("lmms_eval")

from lmms_eval.api.model import lmms
from lmms_eval.evaluator import simple_evaluate
from lmms_eval.tasks import TaskManager
from PIL import Image

pytestmark = pytest.mark.slow


def _pixels(image: Any) -> bytes:
    if isinstance(image, bytes):
        image = Image.open(io.BytesIO(image))
    return bytes(image.tobytes())


class _Canned(lmms):  # type: ignore[misc]  # untyped: the harness's own base class
    """Returns the canned reply of each request's id, and checks what it was asked."""

    def __init__(self, replies: dict[str, str], requests: dict[str, Request]) -> None:
        super().__init__()
        self.replies = replies
        self.requests = requests
        self.asked: list[str] = []

    def _check(
        self, doc: dict[str, Any], gen_kwargs: dict[str, Any], text: str, images: list[Any]
    ) -> str:
        request = self.requests[doc["id"]]
        assert text == request.text
        assert gen_kwargs == generation_kwargs(request.settings)
        assert gen_kwargs["max_new_tokens"] == request.settings["max_completion_tokens"]
        assert [_pixels(i) for i in images] == [_pixels(m.data) for m in request.media]
        self.asked.append(doc["id"])
        return self.replies[doc["id"]]

    def loglikelihood(self, requests: Any) -> Any:
        raise NotImplementedError

    def generate_until_multi_round(self, requests: Any) -> Any:
        raise NotImplementedError


class CannedSimple(_Canned):
    is_simple = True

    def generate_until(self, requests: Any) -> list[str]:
        out = []
        for request in requests:
            context, gen_kwargs, doc_to_visual, doc_id, task, split = request.args
            doc = self.task_dict[task][split][doc_id]
            out.append(self._check(doc, gen_kwargs, context, doc_to_visual(doc)))
        return out


class CannedChat(_Canned):
    is_simple = False

    def generate_until(self, requests: Any) -> list[str]:
        out = []
        for request in requests:
            _, doc_to_messages, gen_kwargs, doc_id, task, split = request.args
            doc = self.task_dict[task][split][doc_id]
            system, user = doc_to_messages(doc)
            assert system == {
                "role": "system",
                "content": [{"type": "text", "text": self.requests[doc["id"]].system}],
            }
            *media, text = user["content"]
            assert user["role"] == "user" and text["type"] == "text"
            assert all(part["type"] == "image" for part in media)
            out.append(self._check(doc, gen_kwargs, text["text"], [p["url"] for p in media]))
        return out


@pytest.fixture(scope="module")
def package(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lmms") / "tasks"
    assert (
        main(["export", "lmms-eval", "--dataset", str(built.export.folder), "--out", str(out)]) == 0
    )
    return out


def _evaluate(model: _Canned, package: Path, tasks: list[str]) -> dict[str, Any]:
    results = simple_evaluate(
        model=model,
        tasks=tasks,
        task_manager=TaskManager(include_path=str(package), include_defaults=False),
        bootstrap_iters=0,
        log_samples=True,
    )
    assert results is not None
    return results


def test_every_task_scores_as_spatialbabel(
    built: Built, package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPATIALBABEL_MODEL", MODEL)
    monkeypatch.setenv("SPATIALBABEL_SCORES", str(tmp_path / "scores"))
    model = CannedSimple(built.replies, built.requests())
    results = _evaluate(model, package, ["spatialbabel"])
    assert sorted(model.asked) == sorted(built.replies)
    for config in built.export.configs:
        found = results["results"][task_name(config.config)]
        expected = built.baseline(config.config)
        for metric in metrics_of(config.config):
            assert found[f"{metric},none"] == pytest.approx(expected[metric], abs=0, nan_ok=True)
        # The usual command's files, kept where SPATIALBABEL_SCORES says.
        assert any((tmp_path / "scores" / config.config.name).glob("*.json"))
    # Each sample carries its own verdict, from the graders the commands use.
    qa = results["samples"][task_name(built.export.config("qa_direct").config)]
    verdicts = [sample["accuracy"]["verdict"] for sample in qa]
    assert {v["correct"] for v in verdicts} == {True, False}


def test_chat_models_get_the_system_turn(
    built: Built, package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPATIALBABEL_MODEL", MODEL)
    configs = [c for c in built.export.configs if c.config.mode in ("direct",)]
    model = CannedChat(built.replies, built.requests())
    results = _evaluate(model, package, [task_name(c.config) for c in configs])
    for config in configs:
        found = results["results"][task_name(config.config)]
        expected = built.baseline(config.config)
        for metric in metrics_of(config.config):
            assert found[f"{metric},none"] == pytest.approx(expected[metric], abs=0, nan_ok=True)
