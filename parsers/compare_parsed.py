"""Two parser versions on the same replies: which replies' parsed scenes changed.

``spatialbabel parse --predictions P --compare OLD.jsonl`` parses P with this checkout and
holds each reply against the line of OLD.jsonl (an earlier ``parse --predictions`` output) for
the same (scene, model, language, mode): a reply that now fails or now parses, and objects
added, lost or changed beyond 1e-6 (``spatialbabel.scene_diff``). This is how a parser fix is
reviewed before it lands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbabel import Scene, SpatialBabelError
from spatialbabel.files import FileFormatError, read_jsonl
from spatialbabel.scene_diff import DEFAULT_TOLERANCE, SceneDiff, diff_scenes

Key = tuple[str, str, str, str]
KEY_FIELDS = ("scene_id", "model", "language", "mode")


@dataclass(frozen=True)
class ParsedReply:
    line: int
    ok: bool
    failure_reason: str | None
    scene: Scene


@dataclass(frozen=True)
class ReplyChange:
    key: Key
    old_line: int
    new_line: int
    status: str  # "" (both parse or both fail), "now fails", "now parses"
    diff: SceneDiff
    failure_reason: str | None

    def describe(self, source: Path) -> str:
        scene, model, language, mode = self.key
        what = [self.status] if self.status else []
        if self.status == "now fails":
            what[0] += f" ({self.failure_reason or 'no reason given'})"
        if self.diff:
            what.append(self.diff.describe())
        return (
            f"{source}:{self.new_line}: {model} {language} {mode} {scene} "
            f"(old line {self.old_line}): " + "; ".join(what)
        )


@dataclass(frozen=True)
class ParseComparison:
    changes: tuple[ReplyChange, ...]
    same: int
    only_old: tuple[tuple[Key, int], ...]
    only_new: tuple[tuple[Key, int], ...]

    def __bool__(self) -> bool:
        return bool(self.changes or self.only_old or self.only_new)


def _key(record: Mapping[str, Any]) -> Key:
    values = [record.get(k) for k in KEY_FIELDS]
    if not all(isinstance(v, str) for v in values):
        raise ValueError(f"needs the string fields {', '.join(KEY_FIELDS)}")
    scene, model, language, mode = (str(v) for v in values)
    return scene, model, language, mode


def parsed_reply(entry: Mapping[str, Any], line: int) -> ParsedReply:
    """One line of ``parse --predictions`` output; ValueError says what is wrong."""
    ok = entry.get("ok")
    if not isinstance(ok, bool):
        raise ValueError("needs 'ok' (true or false)")
    try:
        scene = Scene.from_dict(entry.get("scene"))
    except SpatialBabelError as error:
        raise ValueError(f"'scene' is not a scene: {error}") from None
    reason = entry.get("failure_reason")
    return ParsedReply(line, ok, reason if isinstance(reason, str) else None, scene)


def read_parsed(path: Path) -> tuple[dict[Key, ParsedReply], list[str]]:
    """The replies of an earlier ``parse --predictions`` output by key, and a problem per bad
    or repeated line (named by its line number)."""
    found: dict[Key, ParsedReply] = {}
    problems = []
    for item in read_jsonl(path):
        if item.record is None:
            problems.append(f"{path}:{item.line}: {item.error}")
            continue
        try:
            key = _key(item.record)
            reply = parsed_reply(item.record, item.line)
        except ValueError as error:
            problems.append(f"{path}:{item.line}: {error}")
            continue
        if key in found:
            problems.append(f"{path}:{item.line}: the same reply as line {found[key].line}")
            continue
        found[key] = reply
    if not found and not problems:
        raise FileFormatError(path, "holds no parsed reply")
    return found, problems


def compare_parsed(
    entries: Sequence[Mapping[str, Any]],
    old: Mapping[Key, ParsedReply],
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> ParseComparison:
    """This checkout's parse entries (``parse --predictions`` lines) against ``old``."""
    changes = []
    same = 0
    seen: set[Key] = set()
    only_new = []
    for entry in entries:
        key = _key(entry)
        line = int(entry["line"])
        seen.add(key)
        before = old.get(key)
        if before is None:
            only_new.append((key, line))
            continue
        now = parsed_reply(entry, line)
        status = (
            ""
            if before.ok == now.ok
            else ("now fails" if before.ok and not now.ok else "now parses")
        )
        diff = diff_scenes(before.scene, now.scene, tolerance=tolerance)
        if status or diff:
            changes.append(ReplyChange(key, before.line, line, status, diff, now.failure_reason))
        else:
            same += 1
    only_old = tuple((key, reply.line) for key, reply in old.items() if key not in seen)
    return ParseComparison(tuple(changes), same, only_old, tuple(only_new))
