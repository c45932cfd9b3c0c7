"""Write each fixture's expected scene from what the real engine builds.

    python -m tests.engines.make_expected blender open3d unity [--case NAME]

For blender and open3d the reply's code runs in the engine (``engine_scenes.run_engine``),
for unity in Mono against the UnityEngine facade (``unity_engine.run_unity``), and the scene it
built is saved as ``fixtures/<language>/<case>.expected.json``; a reply whose helper has no
body runs as its completed twin ``<case>.completed.txt`` (``engine_scenes.engine_reply``). A
case whose code the engine rejects, or that builds nothing, is reported and not written.
"""

from __future__ import annotations

import argparse
import sys

from tests.engines.engine_scenes import (
    FIXTURES,
    engine_reply,
    expected_scene,
    fixture_cases,
    reply_code,
    run_engine,
)


def write_expected(language: str, only: list[str] | None = None) -> int:
    cases = [(name, text) for name, text in fixture_cases(language) if not only or name in only]
    runs = run_engine(
        language,
        [(name, reply_code(engine_reply(language, name, text), language)) for name, text in cases],
    )
    problems = 0
    for run in runs:
        scene = expected_scene(run, language)
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


def write_unity_expected(only: list[str] | None = None) -> int:
    from tests.engines.unity_engine import expected_scene as unity_scene
    from tests.engines.unity_engine import run_unity

    cases = [(name, text) for name, text in fixture_cases("unity") if not only or name in only]
    runs = run_unity(
        [(name, reply_code(engine_reply("unity", name, text), "unity")) for name, text in cases]
    )
    problems = 0
    for name, _ in cases:
        run = runs[name]
        scene = unity_scene(run)
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
    parser.add_argument("languages", nargs="+", choices=["blender", "open3d", "unity"])
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    args = parser.parse_args(argv)
    problems = sum(
        write_unity_expected(args.case)
        if language == "unity"
        else write_expected(language, args.case)
        for language in args.languages
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
