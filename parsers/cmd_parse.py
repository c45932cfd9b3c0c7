"""``spatialbabel parse``: read model replies and print the canonical scenes they describe."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from parsers import ParseResult, parse
from spatialbabel import LANGUAGES
from spatialbabel.cli import ExitCode

HELP = "Parse model replies (files, or - for stdin) into canonical scene JSON with diagnostics."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="reply text files; - reads stdin")
    parser.add_argument(
        "--language",
        "-l",
        required=True,
        choices=LANGUAGES,
        help="scene-code language of the replies",
    )
    parser.add_argument(
        "--format",
        choices=("canonical", "scene", "full"),
        default="canonical",
        help="canonical: the canonical JSON schema (default); scene: the full Scene JSON; full: the scene with diagnostics",
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="do not print diagnostics to stderr"
    )
    parser.epilog = "Exit codes: 0 every reply yields objects; 1 some reply yields none; 3 a file cannot be read."


def _render(result: ParseResult, fmt: str) -> str:
    if fmt == "full":
        return json.dumps(result.to_dict(), indent=2)
    if fmt == "scene":
        return result.scene.to_json().rstrip("\n")
    from parsers import write

    return write(result.scene, "json").rstrip("\n")


def run(args: argparse.Namespace) -> int:
    status = ExitCode.OK
    for name in args.files:
        try:
            text = (
                sys.stdin.read()
                if name == "-"
                else Path(name).read_text(encoding="utf-8", errors="replace")
            )
        except OSError as error:
            print(f"{name}: cannot read: {error.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        result = parse(text, args.language)
        if len(args.files) > 1:
            print(f"# {name}")
        print(_render(result, args.format))
        if not args.quiet:
            for diagnostic in result.diagnostics:
                print(f"{name}:{diagnostic}", file=sys.stderr)
        if not result.ok:
            print(f"{name}: parse failed: {result.failure_reason}", file=sys.stderr)
            status = ExitCode.PROBLEMS
    return status
