"""Write each fixture's expected scene from what the real engine builds.

    python -m tests.engines.make_expected threejs blender open3d unity [--case NAME]

For threejs the reply runs in node + three (``audit.three_engine``), for blender and open3d
in the engine (``audit.engine_scenes.run_engine``), for unity in Mono against the UnityEngine
facade (``audit.unity_engine.run_unity``), and the scene it built is saved as
``fixtures/<language>/<case>.expected.json``; a reply whose helper has no body runs as its
completed twin ``<case>.completed.txt`` (``fixture_runs.engine_reply``). A case whose code the
engine rejects, or that builds nothing, is reported and not written.
"""

from __future__ import annotations

import argparse
import sys

from audit.engine_scenes import reply_code, run_engine
from audit.three_engine import engine_scene, ensure_three, run_three, vertex_checks
from audit.three_engine import reply_code as three_code
from spatialbabel import Scene
from tests.engines.fixture_runs import (
    FIXTURES,
    engine_reply,
    engine_reply_path,
    fixture_cases,
    fixture_expected_scene,
    fixture_replies,
    unity_fixture_scene,
)


def write_expected(language: str, only: list[str] | None = None) -> int:
    cases = [(name, text) for name, text in fixture_cases(language) if not only or name in only]
    runs = run_engine(
        language,
        [(name, reply_code(engine_reply(language, name, text), language)) for name, text in cases],
    )
    problems = 0
    for run in runs:
        scene = fixture_expected_scene(run, language)
        if run.error or not scene.objects:
            print(
                f"{language}/{run.name}: engine error {run.error!r}, {len(scene.objects)} objects; not written",
                file=sys.stderr,
            )
            problems += 1
            continue
        scene.save(FIXTURES / language / f"{run.name}.expected.json")
        notes = scene.meta.get("left_out", [])
        print(
            f"{language}/{run.name}: {len(scene.objects)} objects"
            + (f"; left out: {notes}" if notes else "")
        )
    return problems


def write_three_expected(only: list[str] | None = None) -> int:
    """Every three.js fixture's expected scene, from what three builds in node."""
    ensure_three()
    problems = 0
    for reply in fixture_replies(FIXTURES / "threejs"):
        if only and reply.stem not in only:
            continue
        ran = engine_reply_path(reply)
        result = run_three(three_code(ran.read_text(encoding="utf-8")))
        if result["errors"]:
            print(f"{reply.name}: three reports errors: {result['errors']}", file=sys.stderr)
        checks = vertex_checks(result)
        if checks:
            print(f"{reply.name}: {checks}", file=sys.stderr)
            problems += 1
        scene = engine_scene(result, reply.stem)
        if ran != reply:
            scene = Scene(
                scene.scene_id,
                scene.objects,
                meta={"expected_from": f"three r187 running the completed twin {ran.name}"},
            )
        scene.save(reply.with_name(f"{reply.stem}.expected.json"))
        print(f"{reply.stem}: {len(scene.objects)} objects ({result['dropped']} lines dropped)")
    return problems


def write_unity_expected(only: list[str] | None = None) -> int:
    from audit.unity_engine import run_unity

    cases = [(name, text) for name, text in fixture_cases("unity") if not only or name in only]
    runs = run_unity(
        [(name, reply_code(engine_reply("unity", name, text), "unity")) for name, text in cases]
    )
    problems = 0
    for name, _ in cases:
        run = runs[name]
        scene = unity_fixture_scene(run)
        if run.compile_error or run.errors or not scene.objects:
            print(
                f"unity/{name}: {run.compile_error or run.errors}, {len(scene.objects)} objects;"
                " not written",
                file=sys.stderr,
            )
            problems += 1
            continue
        scene.save(FIXTURES / "unity" / f"{name}.expected.json")
        print(f"unity/{name}: {len(scene.objects)} objects")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("languages", nargs="+", choices=["threejs", "blender", "open3d", "unity"])
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    args = parser.parse_args(argv)
    writers = {"threejs": write_three_expected, "unity": write_unity_expected}
    problems = sum(
        writers[language](args.case) if language in writers else write_expected(language, args.case)
        for language in args.languages
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
