"""Two runs' engine audits compared (``spatialbabel compare``): per model and language, whether
the share of replies whose parse agrees with the engine fell, and which replies now disagree.

Each run's ``audit.json`` sits beside its ``scores.json`` (``score --audit N``). Replies audited
in both runs (the same draw: the same predictions, N and seed, e.g. before and after a parser
change) are paired, and the change in agreement gets a paired bootstrap CI over them
(``spatialbabel.stats.paired_bootstrap_difference``); cells with no reply in common are
compared by their shares alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from spatialbabel.audit_file import AUDIT_FILE, AuditCell, AuditedReply, AuditReport, read_audit
from spatialbabel.stats import DEFAULT_RESAMPLES, PairedDifference, paired_bootstrap_difference


@dataclass(frozen=True)
class AgreementChange:
    model: str
    language: str
    base: AuditCell
    new: AuditCell
    #: The paired change over the replies audited in both runs (None: none in common).
    paired: PairedDifference | None
    #: Replies that agreed in the base run and disagree now.
    now_disagreeing: tuple[AuditedReply, ...]

    @property
    def fell(self) -> bool:
        if self.paired is not None and self.paired.difference.n:
            return self.paired.new < self.paired.base
        b, n = self.base.agreement, self.new.agreement
        return b is not None and n is not None and n.mean < b.mean

    @property
    def significant(self) -> bool:
        return self.paired is not None and self.paired.difference.below_zero

    def describe(self) -> str:
        b, n = self.base.agreement, self.new.agreement
        text = f"{self.model} / {self.language}: agreement {_share(b)} -> {_share(n)}"
        if self.paired is not None and self.paired.difference.n:
            d = self.paired.difference
            text += (
                f" (over the {d.n} replies audited in both: {d.mean:+.2f} "
                f"[{d.low:+.2f}, {d.high:+.2f}]{', significant' if self.significant else ''})"
            )
        for reply in self.now_disagreeing[:3]:
            text += f"; now disagrees: line {reply.line} ({reply.scene_id}): {reply.diff}"
        return text


def _share(estimate: object) -> str:
    mean = getattr(estimate, "mean", math.nan)
    return "–" if mean is None or math.isnan(mean) else f"{mean:.2f}"


def _value(reply: AuditedReply) -> float:
    if reply.verdict == "engine_failed":
        return math.nan
    return 1.0 if reply.verdict == "agrees" else 0.0


def audit_of(scores: Path) -> AuditReport | None:
    """The audit beside a scores.json (or in a scores folder), if the run has one."""
    folder = scores if scores.is_dir() else scores.parent
    path = folder / AUDIT_FILE
    return read_audit(path) if path.is_file() else None


def compare_audits(
    base: AuditReport, new: AuditReport, *, seed: int = 0, resamples: int = DEFAULT_RESAMPLES
) -> list[AgreementChange]:
    """Per (model, language) audited in both runs, the change in agreement."""
    changes = []
    for cell in new.cells:
        before = base.cell(cell.model, cell.language)
        if before is None or before.agreement is None or cell.agreement is None:
            continue
        mine = {
            r.key: r for r in base.replies if (r.model, r.language) == (cell.model, cell.language)
        }
        theirs = {
            r.key: r for r in new.replies if (r.model, r.language) == (cell.model, cell.language)
        }
        common = sorted(set(mine) & set(theirs))
        paired = (
            paired_bootstrap_difference(
                [_value(mine[k]) for k in common],
                [_value(theirs[k]) for k in common],
                seed=seed,
                resamples=resamples,
            )
            if common
            else None
        )
        lost = tuple(
            theirs[k]
            for k in common
            if mine[k].verdict == "agrees" and theirs[k].verdict == "disagrees"
        )
        changes.append(AgreementChange(cell.model, cell.language, before, cell, paired, lost))
    return changes


def agreement_lines(changes: list[AgreementChange]) -> list[str]:
    """One line per language whose agreement fell (the flag ``compare`` prints)."""
    return [f"agreement fell: {c.describe()}" for c in changes if c.fell]
