"""What the tests of the parsers with a real Python engine (Blender, Open3D) share: reading a
fixture reply, the golden check of a fixture, running every fixture in the engine, the parity
rate, and a scene of every class in random poses for the writers' round trip through the
engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from audit.engine_scenes import EngineRun, expected_scene, reply_code, run_engine
from parsers import parse
from spatialbabel import CLASSES, PALETTE, Scene, SceneObject
from tests.engines.fixture_runs import compare_scenes, engine_reply

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def read_fixture(language: str, case: str) -> str:
    return (FIXTURES / language / f"{case}.txt").read_text(encoding="utf-8")


def check_golden_reply(language: str, case: str, required_codes: set[str]) -> None:
    """The reply parses to its expected scene, without an internal error, and raises at least
    ``required_codes``."""
    result = parse(read_fixture(language, case), language, scene_id=case)
    expected = Scene.load(FIXTURES / language / f"{case}.expected.json")
    assert compare_scenes(result.scene, expected) == []
    codes = {d.code for d in result.diagnostics}
    assert "parse.internal" not in codes
    assert required_codes <= codes, codes


def run_fixtures(language: str, cases: list[str]) -> dict[str, EngineRun]:
    """Every fixture's code run in the language's engine, by case."""
    replies = [
        (case, reply_code(engine_reply(language, case, read_fixture(language, case)), language))
        for case in cases
    ]
    return {run.name: run for run in run_engine(language, replies)}


def matching_count(language: str, cases: list[str], runs: dict[str, EngineRun]) -> int:
    """How many fixtures parse to the scene their engine run built."""
    return sum(
        not compare_scenes(
            parse(read_fixture(language, c), language).scene, expected_scene(runs[c], language)
        )
        for c in cases
    )


def every_class_scene(seed: int) -> Scene:
    """One object of each class, each in a random pose and a palette colour of its own."""
    rng = np.random.default_rng(seed)
    return Scene(
        "written",
        tuple(
            SceneObject(
                f"o{i}",
                c,
                tuple(rng.uniform(-2, 2, 3)),
                tuple(rng.uniform(-180, 180, 3)),
                (1.2, 0.3, 1.2) if c == "torus" else tuple(rng.uniform(0.3, 2, 3)),
                color=list(PALETTE)[i],
            )
            for i, c in enumerate(CLASSES)
        ),
    )
