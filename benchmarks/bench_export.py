"""Cost of `spatialbabel export hf` against writing the same requests as batch request files
(`spatialbabel prompts`, `suite prompts`), measured in the same run on the same sources.

    .venv/bin/python benchmarks/bench_export.py SPLIT [ITEMS...] [--out DIR]

For the split (reconstruction and QA, every language and mode) and each items folder (every
variant of its suite): the seconds and bytes of the request files, of the dataset folder, and
the ratios export / request files. Both run in this process, through the CLI, one after the
other, so the machine's load weighs on both alike.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from spatialbabel.cli import main  # noqa: E402


def _timed(argv: list[str]) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    if code != 0:
        raise SystemExit(f"spatialbabel {' '.join(argv)} exited {code}")
    return time.perf_counter() - start


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(source: Path, out: Path) -> tuple[float, int, float, int]:
    """(seconds, bytes) of the request files, then of the export, for one source."""
    from harnesses.sources import open_items, source_kind

    requests = out / f"{source.name}.requests"
    requests.mkdir(parents=True, exist_ok=True)
    if source_kind(source) == "split":
        argvs = [
            [
                "prompts",
                "--split",
                str(source),
                "--task",
                task,
                "--out",
                str(requests / f"{task}.jsonl"),
            ]
            for task in ("reconstruct", "qa")
            if task == "reconstruct" or (source / "qa.jsonl").is_file()
        ]
    else:
        items = open_items(source)
        argvs = [
            ["suite", "prompts", "--suite", items.name, "--items", str(source)]
            + ["--variants", *items.suite.variants, "--out", str(requests / "items.jsonl")]
        ]
    request_seconds = sum(_timed(argv) for argv in argvs)
    dataset = out / f"{source.name}.dataset"
    export_seconds = _timed(["export", "hf", str(source), "--out", str(dataset)])
    return request_seconds, _size(requests), export_seconds, _size(dataset)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="keep the files here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch)
        print(
            f"{'source':<24} {'requests s':>10} {'MB':>8} {'export s':>9} {'MB':>8} {'time x':>7} {'size x':>7}"
        )
        for source in args.sources:
            rs, rb, es, eb = measure(source, out)
            print(
                f"{source.name:<24} {rs:>10.1f} {rb / 1e6:>8.1f} {es:>9.1f} {eb / 1e6:>8.1f} "
                f"{es / rs:>7.2f} {eb / rb:>7.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main_())
