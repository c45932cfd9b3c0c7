"""``spatialbabel prompts``: the requests of a split as an OpenAI batch file (JSONL).

One line per request: ``reconstruct/<scene_id>/<language>/<mode>`` for every scene, language
and reconstruction mode (``direct``, ``nl_cot``), ``qa/<question_id>/<mode>`` for every
question and QA mode, or ``s3ft-phase1/<scene_id>/threejs`` for every ``phase1`` scene (S3-FT's
phase-1 prompt: a whole Three.js program); the scene's frontal image goes in as a base64 data
URL. Each request carries the paper's decoding settings unless a flag overrides them: the
output budget of its task and mode (``spatialbabel.run.batch.default_max_tokens``), temperature 0
and no top_p. The file is written as it is made (it can reach gigabytes), then renamed into
place, and is the same bytes for the same split and flags.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from spatialbabel import LANGUAGES
from spatialbabel.cli import ExitCode
from spatialbabel.files import (
    FileFormatError,
    atomic_write_chunks,
)
from spatialbabel.qa import parse_mode
from spatialbabel.run.batch import (
    CODE_MAX_TOKENS,
    DIRECT_ANSWER_MAX_TOKENS,
    NL_COT_MAX_TOKENS,
    RECONSTRUCT_MODES,
    S3FT_PHASE1,
    add_decoding_arguments,
    check_reconstruct_mode,
    decoding_problem,
    s3ft_phase1_id,
)
from spatialbabel.split import Split
from synth.prompts import (
    DEFAULT_MODEL,
    batch_request,
    image_data_url,
    reconstruct_id,
    reconstruct_prompt,
    s3ft_phase1_prompt,
)

HELP = "Write a split's reconstruction, QA or S3-FT phase-1 prompts as an OpenAI batch request file (JSONL)."

#: The modes written when ``--modes`` is not given: every mode of the task.
DEFAULT_MODES = {"reconstruct": RECONSTRUCT_MODES, "qa": ("direct", "nl_cot", "code_cot")}
TASKS = ("reconstruct", "qa", S3FT_PHASE1)
#: The only scenes S3-FT learns from: its phase-1 requests ask for these unless told.
S3FT_SUBSET = "phase1"


def _names(values: Sequence[str]) -> list[str]:
    """Flags given as several words, comma lists, or both."""
    return [name for value in values for name in value.split(",") if name]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--split",
        type=Path,
        required=True,
        metavar="DIR",
        help="the split (scenes/, images/, qa.jsonl)",
    )
    parser.add_argument(
        "--task",
        required=True,
        choices=TASKS,
        help=f"which prompts to write ({S3FT_PHASE1}: S3-FT's phase-1 prompt, a whole Three.js "
        "program of each phase1 scene, docs/s3ft.md)",
    )
    parser.add_argument(
        "--languages",
        nargs="+",
        default=list(LANGUAGES),
        metavar="LANG",
        help=f"reconstruction languages, and those of a bare code_cot mode (default: all: {', '.join(LANGUAGES)})",
    )
    parser.add_argument(
        "--modes",
        nargs="+",
        default=None,
        metavar="MODE",
        help="reconstruction modes: direct, nl_cot (default: both); QA modes: direct, nl_cot, "
        "code_cot:<language>, or code_cot for each of --languages (default: all three)",
    )
    parser.add_argument(
        "--subset",
        default=None,
        metavar="NAME",
        help="only the scenes of this subset of subsets.json (eval, phase1, unused; "
        f"default: every scene, and for {S3FT_PHASE1} the {S3FT_SUBSET} subset)",
    )
    parser.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        help=f"the model named in every request (default {DEFAULT_MODEL})",
    )
    add_decoding_arguments(
        parser,
        max_tokens_help="max_completion_tokens of every request (default: the paper's, by task "
        f"and mode: {CODE_MAX_TOKENS} for code (reconstruction, code_cot, {S3FT_PHASE1}), "
        f"{NL_COT_MAX_TOKENS} for nl_cot QA, {DIRECT_ANSWER_MAX_TOKENS} for direct QA)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the JSONL batch file to write"
    )
    parser.add_argument(
        "--languages-from",
        type=Path,
        default=None,
        metavar="SCORES",
        help="a scores folder (spatialbabel score): QA modes code_cot:best and code_cot:worst "
        "become --model's best and worst reconstruction language there (recorded in "
        "<out stem>.languages.json)",
    )


def task_modes(args: argparse.Namespace) -> list[str]:
    """The modes asked (``--modes``, or every mode of the task), as given."""
    return _names(args.modes) if args.modes is not None else list(DEFAULT_MODES[args.task])


def reconstruct_modes(modes: Sequence[str]) -> list[str]:
    """The reconstruction modes to ask, each once; a ValueError names an unknown one."""
    return list(dict.fromkeys(check_reconstruct_mode(mode) for mode in modes))


def expand_modes(modes: Sequence[str], languages: Sequence[str]) -> list[str]:
    """The modes to ask, with a bare ``code_cot`` made one mode per language; each validated."""
    result: list[str] = []
    for mode in modes:
        for one in (
            [f"code_cot:{language}" for language in languages] if mode == "code_cot" else [mode]
        ):
            parse_mode(one)
            if one not in result:
                result.append(one)
    return result


def scene_ids(root: Path, subset: str | None) -> list[str]:
    """The split's scene ids (sorted), or those of ``subset``."""
    split = Split.open(root)
    return sorted(split.subset_ids(subset)) if subset is not None else list(split.scene_ids)


def _image(split: Split, scene_id: str) -> str:
    path = split.image_path(scene_id)
    if not path.is_file():
        raise FileFormatError(path, "no such file (the frontal image of the scene)")
    data = path.read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise FileFormatError(path, "not a PNG image")
    return image_data_url(data)


def requests(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The batch requests, scene by scene; each scene's image is read once."""
    split = Split.open(args.split)
    languages = _names(args.languages)
    options = {
        "model": args.model,
        "max_tokens": args.max_tokens,
        "temperature": args.temperature,
        "top_p": args.top_p,
    }
    if args.task == S3FT_PHASE1:
        for scene_id in scene_ids(split.root, args.subset or S3FT_SUBSET):
            scene, image = split.scene(scene_id), _image(split, scene_id)
            yield batch_request(
                s3ft_phase1_id(scene_id), s3ft_phase1_prompt(scene), image, **options
            )
        return
    ids = scene_ids(split.root, args.subset)
    if args.task == "reconstruct":
        modes = reconstruct_modes(task_modes(args))
        for scene_id in ids:
            scene, image = split.scene(scene_id), _image(split, scene_id)
            for language in languages:
                for mode in modes:
                    yield batch_request(
                        reconstruct_id(scene_id, language, mode),
                        reconstruct_prompt(scene, language, mode),
                        image,
                        **options,
                    )
        return
    modes = expand_modes(task_modes(args), languages)
    yield from qa_requests(split, ids, modes, options)


def qa_requests(
    split: Split, ids: Sequence[str], modes: Sequence[str], options: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """QA's requests are the ``qa`` suite's (``suites.qa``), with the split as its items
    folder: question by question of the scenes ``ids``, each in every mode."""
    from suites.items import ItemSet
    from suites.prompts import requests as suite_requests
    from suites.qa.suite import QASuite, split_items

    suite = QASuite()
    items = split_items(split.root, ids)
    suite.prepare(split.root, items)
    for scene_id in dict.fromkeys(item.scene_id for item in items):
        # The split's own checks, scene by scene, before its image goes in as the input.
        suite.scene(scene_id)
        _image(split, scene_id)
    yield from suite_requests(suite, ItemSet(split.root, {}, tuple(items)), modes, **options)


def run(args: argparse.Namespace) -> int:
    problem = decoding_problem(args.max_tokens, args.temperature, args.top_p)
    if problem is not None:
        print(f"spatialbabel prompts: --{problem.replace('_', '-')}", file=sys.stderr)
        return ExitCode.USAGE
    if args.task == S3FT_PHASE1 and args.modes is not None:
        print(
            f"spatialbabel prompts: {S3FT_PHASE1} has one prompt (a whole three.js program); "
            "--modes does not apply",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    # The QA suite pulls in the scorer, heavy to import; only code_cot:best/worst need it.
    from suites.qa.code_cot_languages import (
        LanguagePick,
        asks_picks,
        pick_for,
        read_picks,
        resolve_modes,
        scores_path,
        write_side_file,
    )

    pick: LanguagePick | None = None
    if args.task == "qa" and asks_picks(task_modes(args)):
        if args.languages_from is None:
            print(
                "spatialbabel prompts: code_cot:best and code_cot:worst need --languages-from SCORES",
                file=sys.stderr,
            )
            return ExitCode.USAGE
        pick = pick_for(read_picks(args.languages_from), args.model, args.languages_from)
        args.modes = resolve_modes(task_modes(args), pick)
        print(f"languages from {scores_path(args.languages_from)}: {pick.describe()}")
    unknown = [name for name in _names(args.languages) if name not in LANGUAGES]
    if unknown:
        print(
            f"spatialbabel prompts: unknown language {unknown[0]!r}; known: {', '.join(LANGUAGES)}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    try:
        if args.task == "reconstruct":
            reconstruct_modes(task_modes(args))
        elif args.task == "qa":
            expand_modes(task_modes(args), _names(args.languages))
    except ValueError as error:
        print(f"spatialbabel prompts: {error}", file=sys.stderr)
        return ExitCode.USAGE
    if args.task == S3FT_PHASE1 and not scene_ids(args.split, args.subset or S3FT_SUBSET):
        print(
            f"spatialbabel prompts: {Split(args.split).subsets_path}: the "
            f"{args.subset or S3FT_SUBSET} subset is empty (generate with --phase1-size N, or "
            "import with --subset N --phase1-size M)",
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    written = 0

    def lines() -> Iterator[bytes]:
        nonlocal written
        for request in requests(args):
            written += 1
            yield (json.dumps(request, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")

    atomic_write_chunks(args.out, lines())
    print(f"wrote {written} {args.task} request(s) to {args.out}")
    if pick is not None:
        print(f"recorded the languages in {write_side_file(args.out, pick)}")
    return ExitCode.OK
