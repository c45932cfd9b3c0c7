"""Phase 1: a reply that passes the quality filter, parsed into the pseudo-ground truth.

The pseudo-ground truth of a scene is the scene the model's own code builds, read by the
project's Three.js parser, placed in the true scene's frame: it keeps the true scene's cameras,
ground and ``meta`` (what the image shows and how it was taken are facts, not model output)
and takes its objects from the reply. Objects a record could not name (a shape the parser did
not recognise, or no colour) are dropped and counted; a reply that passes the filter but leaves
no object is counted as ``no_objects``, never dropped silently. A scene of the open domain is
parsed as the open domain reads replies (``parsers.open_domain``: the class a mesh's name,
variable or comment gives); an object without a class of the open vocabulary is dropped
(``unknown_class``) and the others keep no colour.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from parsers import extract_code, parse
from s3ft.quality import Rejection, rejections
from s3ft.replies import LANGUAGE, SceneCodeReply
from spatialbabel import CLASSES, Scene, SceneObject
from spatialbabel.open_classes import is_open_class

Status = Literal["rejected", "no_objects", "kept"]
STATUSES: Final[tuple[Status, ...]] = ("kept", "no_objects", "rejected")


@dataclass(frozen=True)
class ReplyVerdict:
    """What became of one reply."""

    line: int
    scene_id: str
    model: str
    status: Status
    rejections: tuple[Rejection, ...] = ()
    truncated: bool = False
    parsed_objects: int = 0
    kept_objects: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    parse_failure: str | None = None

    @property
    def passed(self) -> bool:
        return not self.rejections

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "scene_id": self.scene_id,
            "model": self.model,
            "status": self.status,
            "passed_filter": self.passed,
            "rejections": list(self.rejections),
            "truncated": self.truncated,
            "parsed_objects": self.parsed_objects,
            "kept_objects": self.kept_objects,
            "dropped_objects": dict(self.dropped),
            "parse_failure": self.parse_failure,
        }


@dataclass(frozen=True)
class PseudoTruth:
    """A kept reply: its pseudo-ground-truth scene, the code it was read from, and whether
    that code answered the phase-1 prompt (else the reconstruction prompt)."""

    scene: Scene
    code: str
    phase1_prompt: bool = True


def _why_dropped(obj: SceneObject, domain: str) -> str | None:
    if domain == "open":
        return None if is_open_class(obj.class_name) else "unknown_class"
    if obj.class_name not in CLASSES:
        return "unknown_shape"
    if obj.color is None:
        return "no_color"
    return None


def pseudo_truth(reply: SceneCodeReply, truth: Scene) -> tuple[ReplyVerdict, PseudoTruth | None]:
    """Filter, then parse, one reply to the scene ``truth``."""
    base = ReplyVerdict(
        reply.line, reply.scene_id, reply.model, "rejected", truncated=reply.truncated
    )
    failed = rejections(reply.text)
    if failed:
        return replace(base, rejections=failed), None
    result = parse(reply.text, LANGUAGE, scene_id=truth.scene_id, domain=truth.domain)
    dropped: Counter[str] = Counter()
    objects = []
    for obj in result.scene.objects:
        reason = _why_dropped(obj, truth.domain)
        if reason is not None:
            dropped[reason] += 1
        elif truth.domain == "open":
            # A real object has no palette colour: records name it by its class alone.
            objects.append(replace(obj, color=None, rgb=None))
        else:
            objects.append(obj)
    counted = replace(
        base,
        parsed_objects=len(result.scene.objects),
        kept_objects=len(objects),
        dropped=dict(sorted(dropped.items())),
    )
    if not objects:
        failure = result.failure_reason or (
            "no object has a class of the open vocabulary"
            if truth.domain == "open"
            else "no object has a known shape and a colour"
        )
        return replace(counted, status="no_objects", parse_failure=failure), None
    code = extract_code(reply.text, LANGUAGE).code.strip("\n")
    return replace(counted, status="kept"), PseudoTruth(
        truth.with_objects(objects), code, reply.phase1_prompt
    )


__all__ = ["STATUSES", "PseudoTruth", "ReplyVerdict", "Status", "pseudo_truth"]
