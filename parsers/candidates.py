"""How the declarative languages (JSON, the DSL) read a reply of several candidate blocks.

Each block is read on its own (blocks that are one answer split in pieces are read joined);
``parsers.blocks.decide_readings`` then decides from the prose between them and from which
objects a later block repeats whether it rewrites, corrects or adds to the answer before it.
The rule that decided is the ``extract.chosen`` diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parsers.blocks import ObjectKey, Reading, decide_readings, split_answers
from parsers.build import NativeObject
from parsers.extract import CodeBlock, Extraction, extract_code, extraction_for_blocks
from parsers.result import Diagnostic, Diagnostics
from spatialbabel.palette import nearest_palette_name

#: Reads the objects of one extraction into ``notes``; None when the text cannot be read.
BlockReader = Callable[[Extraction, Diagnostics], "list[NativeObject] | None"]


@dataclass
class _Unit:
    blocks: tuple[CodeBlock, ...]
    natives: list[NativeObject] | None
    notes: Diagnostics


def _key(native: NativeObject) -> ObjectKey:
    color = nearest_palette_name(native.rgb) if native.rgb is not None else None
    return ObjectKey(native.name, native.class_name, color)


def read_candidates(
    text: str, language: str, read: BlockReader
) -> tuple[list[NativeObject], Diagnostics]:
    """The objects of a JSON or DSL reply and every diagnostic about how they were read."""
    extraction = extract_code(text, language)
    candidates = extraction.candidates or extraction.blocks
    groups = (
        split_answers([b.text for b in candidates], [b.closed for b in candidates], language)
        if len(candidates) > 1
        else [[0]]
    )
    head: list[Diagnostic] = list(extraction.diagnostics)
    units: list[_Unit] = []
    for group in groups:
        blocks = tuple(candidates[k] for k in group)
        if len(blocks) > 1:
            lines = ", ".join(str(b.first_line - 1) for b in blocks)
            head.append(
                Diagnostic(
                    "info",
                    "extract.joined",
                    f"the blocks at lines {lines} are one answer split in pieces (the first "
                    "leaves brackets open that the next closes); read joined",
                )
            )
        notes = Diagnostics()
        natives = read(extraction_for_blocks(blocks, extraction.diagnostics), notes)
        units.append(_Unit(blocks, natives, notes))
    diagnostics = Diagnostics(head)
    if len(units) == 1:
        diagnostics.extend(units[0].notes.items)
        return units[0].natives or [], diagnostics
    truncated = f"{language}.truncated"
    readings = [
        Reading(
            index,
            [_key(n) for n in unit.natives or []],
            bool(unit.natives),
            not unit.blocks[-1].closed or any(d.code == truncated for d in unit.notes.items),
            unit.blocks[0].first_line,
            unit.blocks[0].prose_before,
        )
        for index, unit in enumerate(units)
    ]
    decision = decide_readings(readings)
    if decision is None:
        # At most one block gives objects: that one (or, if none does, the last).
        unit = next((u for u in reversed(units) if u.natives), units[-1])
        diagnostics.info(
            "extract.chosen",
            f"{len(units)} candidate blocks; only one gives objects: read that one"
            if unit.natives
            else f"{len(units)} candidate blocks; none gives objects",
        )
        diagnostics.extend(unit.notes.items)
        return unit.natives or [], diagnostics
    diagnostics.info("extract.chosen", f"{len(units)} candidate blocks; {decision.rule}")
    used = sorted({index for index, _ in decision.picks})
    for index in used:
        diagnostics.extend(units[index].notes.items)
    natives = [(units[index].natives or [])[position] for index, position in decision.picks]
    return natives, diagnostics
