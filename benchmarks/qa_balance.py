"""Answer balance of splits' questions, per form: category, kind and, for relational
existence, the relation asked about (where a reader could learn an answer from the split's
rules, it shows as one answer only).

    .venv/bin/python benchmarks/qa_balance.py SPLIT [SPLIT ...]

For each split it prints, per form, how many questions were asked and the share of each
answer (comparison: whether the first or the second object is the answer; counting: the
answer values), then the number of questions using above or below.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def form(record: dict[str, Any]) -> str:
    program = record["program"]
    last = program[-1]
    relation = ""
    if last["op"] == "exists" and program[last["inputs"][0]]["op"] == "relate":
        relation = f" ({program[last['inputs'][0]]['value']})"
    return f"{record['category']}/{record['kind']}{relation}"


def label(record: dict[str, Any]) -> str:
    if record["category"] == "comparison":
        return "first" if record["answer"] == record["choices"][0] else "second"
    return str(record["answer"])


def vertical(record: dict[str, Any]) -> bool:
    words = f" {record['question']} "
    steps = record["program"]
    return (
        " above " in words
        or " below " in words
        or any(s.get("value") in ("above", "below", "vertical") for s in steps)
    )


def report(split: Path) -> None:
    records = [json.loads(line) for line in (split / "qa.jsonl").read_text().splitlines()]
    manifest = json.loads((split / "manifest.json").read_text())
    stack = manifest["parameters"].get("stack_prob", 0.0)
    stacked = manifest["counts"].get("stacked_objects", 0)
    print(
        f"{split}: {manifest['counts']['scenes']} scenes, {len(records)} questions, "
        f"stack_prob {stack}, {stacked} stacked objects"
    )
    answers: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        if record["category"] != "localization":
            answers[form(record)][label(record)] += 1
    for name in sorted(answers):
        seen = answers[name]
        total = sum(seen.values())
        keys = sorted(seen, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k))
        shares = ", ".join(f"{k} {seen[k]}" for k in keys)
        top = max(seen.values()) / total
        print(f"  {name:<32} n={total:<4} majority {top:4.0%}  [{shares}]")
    located = sum(r["category"] == "localization" for r in records)
    print(f"  {'localization/position':<32} n={located}")
    print(f"  questions using above/below: {sum(vertical(r) for r in records)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("splits", type=Path, nargs="+")
    for split in parser.parse_args().splits:
        report(split)


if __name__ == "__main__":
    main()
