"""``spatialbabel prompts``: the requests of a split as an OpenAI batch file (JSONL).

One line per request: ``reconstruct/<scene_id>/<language>`` for every scene and language, or
``qa/<question_id>/<mode>`` for every question and mode; the scene's frontal image goes in as a
base64 data URL. The file is written as it is made (it can reach gigabytes), then renamed into
place, and is the same bytes for the same split and flags.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from spatialbabel import LANGUAGES, Scene
from spatialbabel.cli import ExitCode
from spatialbabel.files import (
    FileFormatError,
    atomic_write_chunks,
    read_json,
    read_jsonl,
    split_paths,
)
from spatialbabel.qa import QAFormatError, Question, parse_mode
from synth.prompts import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    batch_request,
    image_data_url,
    qa_id,
    qa_prompt,
    reconstruct_id,
    reconstruct_prompt,
)

HELP = "Write a split's reconstruction or QA prompts as an OpenAI batch request file (JSONL)."

DEFAULT_MODES = ("direct", "nl_cot", "code_cot")


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
        "--task", required=True, choices=("reconstruct", "qa"), help="which prompts to write"
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
        default=list(DEFAULT_MODES),
        metavar="MODE",
        help="QA modes: direct, nl_cot, code_cot:<language>, or code_cot for each of --languages (default: all three)",
    )
    parser.add_argument(
        "--subset",
        default=None,
        metavar="NAME",
        help="only the scenes of this subset of subsets.json (eval, phase1, unused)",
    )
    parser.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        help=f"the model named in every request (default {DEFAULT_MODEL})",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=DEFAULT_MAX_TOKENS,
        help=f"max_completion_tokens of each request (default {DEFAULT_MAX_TOKENS})",
    )
    parser.add_argument(
        "--temperature",
        type=float,
        default=None,
        help="sampling temperature; left out of the requests unless given (reasoning models refuse it)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the JSONL batch file to write"
    )


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
    paths = split_paths(root)
    if subset is not None:
        listed = read_json(paths["subsets"]).get(subset)
        if not isinstance(listed, list) or not all(isinstance(i, str) for i in listed):
            raise FileFormatError(
                paths["subsets"], f"no subset {subset!r} (expected a list of scene ids)"
            )
        return sorted(listed)
    if not paths["scenes"].is_dir():
        raise FileFormatError(paths["scenes"], "no such folder: is this a split?")
    return sorted(p.stem for p in paths["scenes"].glob("*.json"))


def _load_scene(root: Path, scene_id: str) -> Scene:
    path = split_paths(root)["scenes"] / f"{scene_id}.json"
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    return Scene.load(path)


def _image(root: Path, scene_id: str) -> str:
    path = split_paths(root)["images"] / f"{scene_id}.png"
    if not path.is_file():
        raise FileFormatError(path, "no such file (the frontal image of the scene)")
    data = path.read_bytes()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise FileFormatError(path, "not a PNG image")
    return image_data_url(data)


def load_split_questions(root: Path) -> dict[str, list[Question]]:
    """The split's questions grouped by scene, in file order."""
    path = split_paths(root)["qa"]
    if not path.is_file():
        raise FileFormatError(path, "no such file")
    grouped: dict[str, list[Question]] = {}
    for item in read_jsonl(path):
        if item.record is None:
            raise FileFormatError(path, item.error or "unreadable line", line=item.line)
        try:
            question = Question.from_dict(item.record)
        except (QAFormatError, TypeError) as error:
            raise FileFormatError(path, str(error), line=item.line) from None
        grouped.setdefault(question.scene_id, []).append(question)
    return grouped


def requests(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The batch requests, scene by scene; each scene's image is read once."""
    root: Path = args.split
    languages = _names(args.languages)
    options = {"model": args.model, "max_tokens": args.max_tokens, "temperature": args.temperature}
    ids = scene_ids(root, args.subset)
    if args.task == "reconstruct":
        for scene_id in ids:
            scene, image = _load_scene(root, scene_id), _image(root, scene_id)
            for language in languages:
                yield batch_request(
                    reconstruct_id(scene_id, language),
                    reconstruct_prompt(scene, language),
                    image,
                    **options,
                )
        return
    modes = expand_modes(_names(args.modes), languages)
    questions = load_split_questions(root)
    for scene_id in ids:
        if scene_id not in questions:
            continue
        scene, image = _load_scene(root, scene_id), _image(root, scene_id)
        for question in questions[scene_id]:
            for mode in modes:
                yield batch_request(
                    qa_id(question.question_id, mode),
                    qa_prompt(question, scene, mode),
                    image,
                    **options,
                )


def run(args: argparse.Namespace) -> int:
    if args.max_tokens < 1:
        print("spatialbabel prompts: --max-tokens must be at least 1", file=sys.stderr)
        return ExitCode.USAGE
    unknown = [name for name in _names(args.languages) if name not in LANGUAGES]
    if unknown:
        print(
            f"spatialbabel prompts: unknown language {unknown[0]!r}; known: {', '.join(LANGUAGES)}",
            file=sys.stderr,
        )
        return ExitCode.USAGE
    try:
        expand_modes(_names(args.modes), _names(args.languages))
    except QAFormatError as error:
        print(f"spatialbabel prompts: {error}", file=sys.stderr)
        return ExitCode.USAGE
    written = 0

    def lines() -> Iterator[bytes]:
        nonlocal written
        for request in requests(args):
            written += 1
            yield (json.dumps(request, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")

    atomic_write_chunks(args.out, lines())
    print(f"wrote {written} {args.task} request(s) to {args.out}")
    return ExitCode.OK
