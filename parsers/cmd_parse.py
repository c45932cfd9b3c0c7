"""``spatialbabel parse``: read model replies and print the canonical scenes they describe.

Two ways in: reply files in one language (``FILE... --language L``), printed one after the
other; or a predictions file (``--predictions replies.jsonl``, the records ``spatialbabel
score`` reads), each reply in its own language, parsed on an executor's workers (local
processes, or Ray: ``spatialbabel.run.executor``) and written as one JSONL line per reply, in input
order, with every bad line reported by its number.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from parsers import ParseResult, parse
from parsers.compare_parsed import Key, ParsedReply, compare_parsed, read_parsed
from parsers.guess import guess_language
from spatialbabel import LANGUAGES
from spatialbabel.cli import (
    ExitCode,
    add_audit_arguments,
    audit_usage_problem,
    default_workers,
    run_audit_step,
)
from spatialbabel.files import FileFormatError, model_output_from_record, read_jsonl
from spatialbabel.open_classes import DOMAINS, Domain
from spatialbabel.run.executor import (
    ExecutorOptions,
    UnitFailed,
    UnitLoop,
    WorkerContext,
    add_executor_arguments,
    executor_options,
    open_executor,
)

HELP = "Parse model replies (files, or - for stdin, or a predictions JSONL) into canonical scene JSON with diagnostics."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="reply text files; - reads stdin")
    parser.add_argument(
        "--language",
        "-l",
        choices=LANGUAGES,
        help="scene-code language of the reply files (default: told from each reply: its engine's imports and names, its fence tag, else the file's extension)",
    )
    parser.add_argument(
        "--predictions",
        type=Path,
        metavar="JSONL",
        help="parse every reply of a predictions file (scene_id, model, language, mode, output per line) instead of FILEs",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="JSONL",
        help="with --predictions: write the parsed replies here (default: stdout)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="OLD_JSONL",
        help="with --predictions: list the replies whose parsed scene differs from OLD_JSONL "
        "(an earlier parse --predictions output): now failing or parsing, objects added, lost "
        "or changed beyond 1e-6; the parsed replies then go to --out only",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="with --predictions: parsing processes (default: the CPU count, at most 8; on "
        "Ray, the cluster's CPUs)",
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
    parser.add_argument(
        "--domain",
        choices=DOMAINS,
        default="primitive",
        help="primitive: the six shapes (default); open: real indoor scenes, each object's class "
        "read from what the reply calls it (docs/real-scenes.md)",
    )
    add_executor_arguments(parser)
    add_audit_arguments(parser)
    parser.add_argument(
        "--audit-out",
        type=Path,
        metavar="DIR",
        help="with --audit: folder for audit.json and audit.md (default: the folder of --out, "
        "else the current folder)",
    )
    parser.epilog = (
        "Exit codes: 0 every reply yields objects (with --compare: no reply changed); 1 some reply "
        "yields none, its language cannot be told, or a predictions line is malformed (with "
        "--compare: some reply changed, or a line of either file is bad); 2 bad arguments; 3 a "
        "file cannot be read or written."
    )


def _render(result: ParseResult, fmt: str) -> str:
    if fmt == "full":
        return json.dumps(result.to_dict(), indent=2)
    if fmt == "scene":
        return result.scene.to_json().rstrip("\n")
    from parsers import write

    return write(result.scene, "json").rstrip("\n")


def run(args: argparse.Namespace) -> int:
    if args.predictions is not None:
        if args.files:
            print(
                "spatialbabel parse: give reply FILEs or --predictions, not both", file=sys.stderr
            )
            return ExitCode.USAGE
        try:
            options = executor_options(args)
        except ValueError as error:
            print(f"spatialbabel parse: {error}", file=sys.stderr)
            return ExitCode.USAGE
        problem = audit_usage_problem(args)
        if problem is not None:
            print(f"spatialbabel parse: {problem}", file=sys.stderr)
            return ExitCode.USAGE
        status = _run_predictions(args, options)
        if args.audit and status in (ExitCode.OK, ExitCode.PROBLEMS):
            out = args.audit_out or (args.out.parent if args.out is not None else Path("."))
            audited = run_audit_step(
                "parse",
                args,
                args.predictions,
                out,
                predictions=str(args.predictions),
                # stdout carries the parsed replies when --out is not given
                stream=sys.stderr if args.out is None else sys.stdout,
            )
            if audited != ExitCode.OK:
                return audited
        return status
    if args.audit:
        print("spatialbabel parse: --audit needs --predictions", file=sys.stderr)
        return ExitCode.USAGE
    if args.compare is not None:
        print("spatialbabel parse: --compare needs --predictions", file=sys.stderr)
        return ExitCode.USAGE
    if not args.files:
        print("spatialbabel parse: give reply FILEs, or --predictions JSONL", file=sys.stderr)
        return ExitCode.USAGE
    return _run_files(args)


def _run_files(args: argparse.Namespace) -> int:
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
        language = args.language or guess_language(text, None if name == "-" else name)
        if language is None:
            print(
                f"{name}: cannot tell which language the reply is written in; give --language",
                file=sys.stderr,
            )
            status = ExitCode.PROBLEMS
            continue
        if args.language is None and not args.quiet:
            print(f"{name}: read as {language} (no --language given)", file=sys.stderr)
        result = parse(text, language, domain=args.domain)
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


# --- a predictions file ---------------------------------------------------------------------------
Job = tuple[int, dict[str, str]]


def _parse_setup(context: WorkerContext, domain: Domain) -> Domain:
    return domain


def _parse_job(domain: Domain, job: Job) -> dict[str, Any]:
    line, record = job
    result = parse(record["output"], record["language"], scene_id=record["scene_id"], domain=domain)
    entry: dict[str, Any] = {"line": line}
    entry.update({k: record[k] for k in ("scene_id", "model", "language", "mode")})
    entry.update(result.to_dict())
    return entry


def _jobs(path: Path, problems: list[str]) -> Iterator[Job]:
    for item in read_jsonl(path):
        if item.record is None:
            problems.append(f"{path}:{item.line}: {item.error}")
            continue
        try:
            output = model_output_from_record(item.record)
        except ValueError as error:
            problems.append(f"{path}:{item.line}: {error}")
            continue
        if output.language not in LANGUAGES:
            problems.append(
                f"{path}:{item.line}: unknown language {output.language!r}; known: {', '.join(LANGUAGES)}"
            )
            continue
        yield item.line, output.to_dict()


def _describe_job(job: Job) -> str:
    line, record = job
    return f"line {line} ({record['model']}, {record['language']}, {record['scene_id']})"


def parse_loop(domain: Domain = "primitive") -> UnitLoop[Domain, Job, dict[str, Any]]:
    """Replies of ``domain`` parsed on worker processes or a Ray cluster, in batches."""
    return UnitLoop(setup=_parse_setup, run=_parse_job, args=(domain,), describe=_describe_job)


def _run_predictions(args: argparse.Namespace, options: ExecutorOptions) -> int:
    problems: list[str] = []
    old: dict[Key, ParsedReply] | None = None
    if args.compare is not None:
        try:
            old, old_problems = read_parsed(args.compare)
        except (OSError, FileFormatError) as error:
            print(f"{args.compare}: cannot read: {error}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        problems += old_problems
    try:
        jobs = list(_jobs(args.predictions, problems))
    except (OSError, FileFormatError) as error:
        print(f"{args.predictions}: cannot read: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        with open_executor(options, default_workers=default_workers()) as executor:
            entries = executor.map(parse_loop(args.domain), jobs)
    except UnitFailed as error:
        print(f"spatialbabel parse: {error}; nothing written", file=sys.stderr)
        return ExitCode.PROBLEMS
    if old is not None:
        return _compare(args, entries, problems, old)
    text = "".join(json.dumps(e, ensure_ascii=False, allow_nan=False) + "\n" for e in entries)
    if args.out is None:
        sys.stdout.write(text)
    else:
        from spatialbabel.files import atomic_write_text

        try:
            atomic_write_text(args.out, text)
        except OSError as error:
            print(f"{args.out}: cannot write: {error.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    failed = [e for e in entries if not e["ok"]]
    if not args.quiet:
        for problem in problems:
            print(problem, file=sys.stderr)
        for entry in failed:
            print(
                f"{args.predictions}:{entry['line']}: {entry['language']} reply of "
                f"{entry['model']} for {entry['scene_id']}: parse failed: {entry['failure_reason']}",
                file=sys.stderr,
            )
    by_language = Counter(e["language"] for e in entries)
    print(
        f"spatialbabel parse: {len(entries)} replies parsed "
        f"({', '.join(f'{n} {lang}' for lang, n in sorted(by_language.items()))}), "
        f"{len(failed)} failed, {len(problems)} bad lines"
        + (f"; written to {args.out}" if args.out is not None else ""),
        file=sys.stderr,
    )
    return ExitCode.PROBLEMS if failed or problems else ExitCode.OK


def _compare(
    args: argparse.Namespace,
    entries: list[dict[str, Any]],
    problems: list[str],
    old: dict[Key, ParsedReply],
) -> int:
    """``--compare OLD``: the replies whose parsed scene changed, on stdout; the parsed replies
    go to ``--out`` when given."""
    from spatialbabel.files import atomic_write_text

    if args.out is not None:
        text = "".join(json.dumps(e, ensure_ascii=False, allow_nan=False) + "\n" for e in entries)
        try:
            atomic_write_text(args.out, text)
        except OSError as error:
            print(f"{args.out}: cannot write: {error.strerror}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    found = compare_parsed(entries, old)
    for change in found.changes:
        print(change.describe(args.predictions))
    for (scene, model, language, mode), line in found.only_new:
        print(
            f"{args.predictions}:{line}: {model} {language} {mode} {scene}: not in {args.compare}"
        )
    for (scene, model, language, mode), line in found.only_old:
        print(
            f"{args.compare}:{line}: {model} {language} {mode} {scene}: not in {args.predictions}"
        )
    for problem in problems:
        print(problem, file=sys.stderr)
    lost = sum(c.status == "now fails" for c in found.changes)
    gained = sum(c.status == "now parses" for c in found.changes)
    print(
        f"spatialbabel parse: {len(entries)} replies compared with {args.compare}: "
        f"{len(found.changes)} changed ({lost} now fail, {gained} now parse, "
        f"{sum(bool(c.diff) for c in found.changes)} scenes differ), {found.same} the same; "
        f"{len(found.only_old)} only in {args.compare.name}, {len(found.only_new)} only in "
        f"{args.predictions.name}; {len(problems)} bad lines",
        file=sys.stderr,
    )
    return ExitCode.PROBLEMS if found or problems else ExitCode.OK
