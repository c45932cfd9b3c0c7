"""The canonical JSON parser, tolerant of what models really write.

Strict JSON is tried first; otherwise a relaxed Lark grammar (grammars/relaxed_json.lark)
reads comments, trailing commas, single quotes, unquoted keys and the like, and a reply cut off
mid-object keeps its complete objects. Object fields are found under the many names models use
(``pos``, ``rotation_euler``, ``dimensions``...). Every repair is a diagnostic; no input raises.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeGuard

import numpy as np
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from grammars import read_grammar
from parsers import PARSERS, WRITERS
from parsers.build import NativeObject, build_objects
from parsers.candidates import read_candidates
from parsers.domain import element_kind
from parsers.extract import Extraction
from parsers.result import Diagnostics, ObjectSource, ParseResult
from spatialbabel import (
    UNIT_EXTENTS,
    UNKNOWN_CLASS,
    Scene,
    canonical_class,
    class_from_words,
    euler_to_matrix,
    parse_color,
    quaternion_to_euler,
)
from spatialbabel.classes import SceneElement
from spatialbabel.frames import Vec3, compose
from spatialbabel.open_classes import Domain

LANGUAGE = "json"

#: Normalised key (lower case, no '_', '-' or spaces) -> field, for each field of an object.
_FIELD_KEYS: dict[str, tuple[str, ...]] = {
    "class": (
        "classname",
        "class",
        "shape",
        "type",
        "kind",
        "primitive",
        "geometry",
        "objecttype",
        "shapetype",
        "mesh",
        "form",
        "category",
        "object",
    ),
    "color": (
        "color",
        "colour",
        "col",
        "rgb",
        "hex",
        "colorname",
        "colourname",
        "fill",
        "albedo",
        "basecolor",
        "diffuse",
        "material",
    ),
    "position": (
        "position",
        "pos",
        "location",
        "loc",
        "center",
        "centre",
        "translation",
        "translate",
        "xyz",
        "coords",
        "coordinates",
        "origin",
        "point",
        "worldposition",
    ),
    "rotation": (
        "rotation",
        "rot",
        "rotationeuler",
        "euler",
        "orientation",
        "rotationdeg",
        "rotationdegrees",
        "eulerangles",
        "angles",
        "rotate",
        "eulerdeg",
    ),
    "rotation_rad": ("rotationrad", "rotationradians", "eulerrad", "rotationeulerrad"),
    "quaternion": ("quaternion", "quat", "rotationquaternion"),
    "scale": (
        "scale",
        "size",
        "dimensions",
        "dims",
        "dimension",
        "extent",
        "extents",
        "scalexyz",
        "bboxsize",
        "sizes",
    ),
    "id": ("id", "name", "label", "identifier", "objectid"),
}
_CANONICAL_KEY = {
    "class": "class_name",
    "color": "color",
    "position": "position",
    "rotation": "rotation",
    "scale": "scale",
    "id": "id",
}
_LIST_KEYS = (
    "objects",
    "object",
    "shapes",
    "primitives",
    "items",
    "entities",
    "meshes",
    "elements",
    "children",
    "nodes",
    "scene",
    "sceneobjects",
)


@lru_cache(maxsize=4096)
def _norm(key: str) -> str:
    # Cached: every field lookup normalises every key of the object, and keys repeat.
    return "".join(ch for ch in key.lower() if ch not in "_- ")


@dataclass(frozen=True)
class _Pos:
    line: int | None
    column: int | None


# Values produced by the relaxed grammar keep positions for diagnostics.
class _Obj(dict[str, Any]):
    pos: _Pos


class _Arr(list[Any]):
    pos: _Pos


def _at(token: Token) -> _Pos:
    return _Pos(token.line, token.column)


class _Relaxed(Transformer[Token, Any]):
    """Turns the relaxed parse tree into Python values, noting each relaxation."""

    def __init__(self, notes: Diagnostics) -> None:
        super().__init__()
        self.notes = notes
        # code -> (message, count, first line, first column): one diagnostic per kind of repair.
        self.repairs: dict[str, tuple[str, int, int | None, int | None]] = {}

    def _note(self, code: str, message: str, token: Token) -> None:
        if code in self.repairs:
            first = self.repairs[code]
            self.repairs[code] = (first[0], first[1] + 1, first[2], first[3])
        else:
            self.repairs[code] = (message, 1, token.line, token.column)

    def flush(self) -> None:
        """Emit one diagnostic per kind of repair, counting the repeats."""
        for code, (message, count, line, column) in self.repairs.items():
            more = f" (and {count - 1} more like it)" if count > 1 else ""
            self.notes.info(f"json.{code}", message + more, line, column)
        self.repairs.clear()

    @v_args(inline=True)
    def dq_string(self, token: Token) -> str:
        return str(json.loads(token))

    @v_args(inline=True)
    def sq_string(self, token: Token) -> str:
        self._note("single_quotes", "single-quoted string read as a string", token)
        body = token[1:-1].replace('\\"', '"').replace("\\'", "'").replace('"', '\\"')
        try:
            return str(json.loads(f'"{body}"'))
        except json.JSONDecodeError:
            return token[1:-1]

    @v_args(inline=True)
    def number(self, token: Token) -> float | int:
        text = str(token)
        value = float(text)
        if value.is_integer() and all(c not in text for c in ".eE"):
            return int(value)
        return value

    @v_args(inline=True)
    def hex_number(self, token: Token) -> int:
        self._note("hex_number", f"hexadecimal number {token} read as {int(token, 16)}", token)
        return int(token, 16)

    def true(self, _: list[Token]) -> bool:
        return True

    def false(self, _: list[Token]) -> bool:
        return False

    def null(self, _: list[Token]) -> None:
        return None

    @v_args(inline=True)
    def py_literal(self, token: Token) -> bool | None:
        self._note("python_literal", f"Python literal {token} read as JSON", token)
        return {"True": True, "False": False, "None": None}[str(token)]

    @v_args(inline=True)
    def non_finite(self, token: Token) -> float:
        self.notes.warning(
            "json.non_finite", f"{token} is not a number a scene can hold", token.line, token.column
        )
        return float(str(token).replace("Infinity", "inf"))

    @v_args(inline=True)
    def bare_word(self, token: Token) -> str:
        self._note("unquoted_value", f"unquoted word {token} read as a string", token)
        return str(token)

    @v_args(inline=True)
    def dq_key(self, token: Token) -> str:
        return str(json.loads(token))

    @v_args(inline=True)
    def sq_key(self, token: Token) -> str:
        self._note("single_quotes", f"single-quoted key {token} read as a string", token)
        return str(token[1:-1])

    @v_args(inline=True)
    def bare_key(self, token: Token) -> str:
        self._note("unquoted_key", f"unquoted key {token} read as a string", token)
        return str(token)

    @v_args(inline=True)
    def number_key(self, token: Token) -> str:
        self._note("unquoted_key", f"numeric key {token} read as a string", token)
        return str(token)

    def member(self, children: list[Any]) -> tuple[str, Any]:
        key, separator, value = children
        if separator == "=":
            self._note("equals_separator", "'=' between key and value read as ':'", separator)
        return (key, value)

    def _commas(self, children: list[Any], kind: str) -> list[Any]:
        items = [c for c in children if not (isinstance(c, Token) and c.type == "COMMA")]
        commas = [c for c in children if isinstance(c, Token) and c.type == "COMMA"]
        items = [c for c in items if c is not None or kind == "array"]
        if commas and len(commas) >= len(items) and items:
            self._note("trailing_comma", f"trailing comma in {kind} ignored", commas[-1])
        return items

    def object(self, children: list[Any]) -> _Obj:
        result = _Obj()
        members = [c for c in children if isinstance(c, tuple)]
        self._commas([c for c in children if c is not None], "object")
        for key, value in members:
            result[key] = value
        return result

    def tuple(self, children: list[Any]) -> _Arr:
        first = next((c for c in children if isinstance(c, Token)), None)
        if first is not None:
            self._note("python_tuple", "parenthesised tuple read as a list", first)
        else:
            self.repairs.setdefault(
                "python_tuple", ("parenthesised tuple read as a list", 1, None, None)
            )
        return self.array(children)

    def array(self, children: list[Any]) -> _Arr:
        # Lark gives None for an absent optional; an empty array is [None, None].
        if all(c is None for c in children):
            return _Arr()
        kept = [c for c in children if not (isinstance(c, Token) and c.type == "COMMA")]
        commas = [c for c in children if isinstance(c, Token) and c.type == "COMMA"]
        if children and children[-1] is not None and isinstance(children[-1], Token):
            self._note("trailing_comma", "trailing comma in array ignored", children[-1])
        elif commas and len(commas) >= len(kept) - (1 if kept and kept[-1] is None else 0):
            pass
        if kept and kept[-1] is None and len(commas) < len(kept):
            kept = kept[:-1]
        return _Arr(kept)


def _transform(tree: Any, notes: Diagnostics) -> Any:
    relaxed = _Relaxed(notes)
    value = relaxed.transform(tree)
    relaxed.flush()
    return value


@cache
def _relaxed_parser() -> Lark:
    return Lark(read_grammar("relaxed_json.lark"), parser="lalr", maybe_placeholders=True)


def _comments(text: str, notes: Diagnostics) -> None:
    """Report comments once: the relaxed grammar ignores them."""
    parser = _relaxed_parser()
    found = []
    try:
        for token in parser.lex(text, dont_ignore=True):
            if token.type in ("LINE_COMMENT", "BLOCK_COMMENT"):
                found.append(token)
    except LarkError:
        pass
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        notes.info("json.comment", f"comment ignored{more}", found[0].line, found[0].column)


def _json_start(code: str) -> int:
    """Index where the JSON value starts: the first '{' or '[' (prose before it is skipped)."""
    starts = [i for i in (code.find("{"), code.find("[")) if i >= 0]
    return min(starts) if starts else -1


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _truncation_repairs(text: str) -> list[tuple[str, int]]:
    """Texts cut back to the end of a complete element of a list, with open brackets closed,
    last first; each with the index where it was cut."""
    parser = _relaxed_parser()
    stack: list[str] = []
    candidates: list[tuple[int, list[str]]] = []
    try:
        for token in parser.lex(text):
            if token.type in ("LBRACE", "LSQB") or token in ("{", "["):
                stack.append(str(token))
            elif token in ("}", "]"):
                if stack:
                    stack.pop()
                if token == "}" and stack and stack[-1] == "[" and token.end_pos is not None:
                    candidates.append((token.end_pos, list(stack)))
    except LarkError:
        pass
    closers = {"{": "}", "[": "]"}
    repairs = []
    for end, open_stack in reversed(candidates[-200:]):
        repairs.append((text[:end] + "".join(closers[c] for c in reversed(open_stack)), end))
    return repairs


def _is_cut_off(error: UnexpectedInput, text: str) -> bool:
    if isinstance(error, UnexpectedEOF):
        return True
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        return True
    if isinstance(error, UnexpectedCharacters):
        rest = text[error.pos_in_stream :]
        # An unterminated string or word running to the end of the reply.
        return "\n" not in rest.strip() and rest.strip()[:1] in ("'", '"')
    return False


def _load_value(code: str, notes: Diagnostics) -> tuple[Any, bool]:
    """The JSON value in ``code`` and whether it was found at all; repairs become notes."""
    start = _json_start(code)
    if start < 0:
        notes.error("json.no_json", "no JSON object or list found in the reply")
        return None, False
    if code[:start].strip():
        line, _ = _line_col(code, start)
        notes.info(
            "json.prose_skipped",
            f"text before the JSON value skipped (value starts on line {line})",
        )
    text = code[start:]
    prefix_lines = code.count("\n", 0, start)
    try:
        value, end = json.JSONDecoder().raw_decode(text)
        if text[end:].strip():
            line, col = _line_col(text, end)
            notes.info(
                "json.trailing_text", "text after the JSON value ignored", line + prefix_lines, col
            )
        return value, True
    except json.JSONDecodeError:
        pass
    relaxed_notes = Diagnostics(line_map=lambda line: line + prefix_lines)
    relaxed_notes.line_map = (
        lambda base: (
            (lambda line: base(line + prefix_lines)) if base else (lambda line: line + prefix_lines)
        )
    )(notes.line_map)
    parser = _relaxed_parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as error:
        if isinstance(error, UnexpectedToken | UnexpectedCharacters) and not _is_cut_off(
            error, text
        ):
            # A complete value followed by more text: keep the value.
            end = int(
                (
                    error.pos_in_stream
                    if isinstance(error, UnexpectedCharacters)
                    else error.token.start_pos
                )
                or 0
            )
            if end > 0:
                try:
                    tree = parser.parse(text[:end])
                    line, col = _line_col(text, end)
                    relaxed_notes.info(
                        "json.trailing_text", "text after the JSON value ignored", line, col
                    )
                    _comments(text[:end], relaxed_notes)
                    value = _transform(tree, relaxed_notes)
                    notes.extend(relaxed_notes.items)
                    return value, True
                except LarkError:
                    pass
            line, col = error.line, error.column
            notes.error(
                "json.syntax",
                f"cannot read the JSON: unexpected {_describe_unexpected(error)}",
                line + prefix_lines if line and line > 0 else None,
                col if col and col > 0 else None,
            )
            return None, False
        for repaired, _cut in _truncation_repairs(text):
            try:
                tree = parser.parse(repaired)
            except LarkError:
                continue
            line, col = _line_col(text, len(text.rstrip()))
            relaxed_notes.warning(
                "json.truncated",
                "the reply is cut off mid-value; kept every object completed before the cut",
                line,
                col,
            )
            _comments(repaired, relaxed_notes)
            value = _transform(tree, relaxed_notes)
            notes.extend(relaxed_notes.items)
            return value, True
        notes.error("json.truncated", "the reply is cut off before its first complete object")
        return None, False
    except LarkError as error:
        notes.error("json.syntax", f"cannot read the JSON: {error}")
        return None, False
    _comments(text, relaxed_notes)
    value = _transform(tree, relaxed_notes)
    notes.extend(relaxed_notes.items)
    return value, True


def _describe_unexpected(error: UnexpectedInput) -> str:
    if isinstance(error, UnexpectedToken):
        return f"{error.token!r}"
    if isinstance(error, UnexpectedCharacters):
        return f"character {error.char!r}"
    return "end of input"


def _pos(value: Any) -> tuple[int | None, int | None]:
    pos = getattr(value, "pos", None)
    return (pos.line, pos.column) if pos is not None else (None, None)


def _find_object_list(value: Any, notes: Diagnostics, depth: int = 0) -> list[Any] | None:
    if isinstance(value, list):
        if depth == 0:
            notes.info("json.top_level_list", "top-level list read as the list of objects")
        return value
    if not isinstance(value, dict) or depth > 3:
        return None
    by_norm = {_norm(k): k for k in value if isinstance(k, str)}
    for wanted in _LIST_KEYS:
        key = by_norm.get(wanted)
        if key is None:
            continue
        found = value[key]
        if isinstance(found, list):
            if key != "objects" or depth > 0:
                notes.info(
                    "json.key_alias",
                    f"objects read from key {key!r}" + (" (nested)" if depth else ""),
                )
            return found
        if isinstance(found, dict):
            inner = _find_object_list(found, notes, depth + 1)
            if inner is not None:
                return inner
    if _field(value, "class") is not None:
        notes.info("json.single_object", "a single object given instead of a list of objects")
        return [value]
    for key, inner_value in value.items():
        if (
            isinstance(inner_value, list)
            and inner_value
            and all(isinstance(v, dict) for v in inner_value)
        ):
            notes.info("json.key_alias", f"objects read from key {key!r}")
            return inner_value
    return None


def _field(obj: dict[str, Any], name: str) -> tuple[str, Any] | None:
    by_norm = {_norm(k): k for k in obj if isinstance(k, str)}
    for candidate in _FIELD_KEYS[name]:
        if candidate in by_norm:
            key = by_norm[candidate]
            return key, obj[key]
    return None


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _vector(
    value: Any, where: str, notes: Diagnostics, *, axes: tuple[str, ...] = ("x", "y", "z")
) -> list[float] | None:
    if isinstance(value, dict):
        by_norm = {_norm(k): v for k, v in value.items() if isinstance(k, str)}
        if all(a in by_norm for a in axes) and all(_is_number(by_norm[a]) for a in axes):
            return [float(by_norm[a]) for a in axes]
        alt = ("width", "height", "depth")
        if all(a in by_norm for a in alt) and all(_is_number(by_norm[a]) for a in alt):
            notes.info("json.vector_dict", f"{where}: width/height/depth read as x/y/z")
            return [float(by_norm[a]) for a in alt]
        notes.warning("json.bad_vector", f"{where}: cannot read {sorted(value)} as x, y, z")
        return None
    if isinstance(value, list) and len(value) >= 3 and all(_is_number(v) for v in value[:3]):
        if len(value) > 3:
            notes.warning(
                "json.extra_components", f"{where}: {len(value)} numbers given; read the first 3"
            )
        return [float(v) for v in value[:3]]
    if isinstance(value, str):
        parts = value.replace(",", " ").replace("(", " ").replace(")", " ").split()
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) == 3:
            notes.info(
                "json.vector_string", f"{where}: numbers in a string {value!r} read as x, y, z"
            )
            return numbers
    notes.warning("json.bad_vector", f"{where}: cannot read {value!r} as 3 numbers")
    return None


def _finite(values: list[float] | None, where: str, notes: Diagnostics) -> list[float] | None:
    if values is not None and not all(math.isfinite(v) for v in values):
        notes.warning("json.non_finite", f"{where}: {values} is not finite; ignored")
        return None
    return values


def _object_id(obj: dict[str, Any]) -> str | None:
    found = _field(obj, "id")
    if found is None:
        return None
    value = found[1]
    if isinstance(value, str) and value.strip():
        return value.strip()
    if _is_number(value):
        return str(value)
    return None


def _read_class(obj: dict[str, Any], where: str, notes: Diagnostics) -> str:
    found = _field(obj, "class")
    if found is not None:
        key, value = found
        if key != "class_name":
            notes.info("json.key_alias", f"{where}: class read from key {key!r}")
        if isinstance(value, str):
            name = canonical_class(value)
            if name is not None:
                if _norm(value) != name:
                    notes.info("json.class_synonym", f"{where}: class {value!r} read as {name!r}")
                return name
            notes.warning(
                "json.unknown_class", f"{where}: {value!r} names none of the six primitives"
            )
            return UNKNOWN_CLASS
        notes.warning("json.bad_class", f"{where}: class given as {value!r}, not a word")
    words = [v for k, v in obj.items() if isinstance(v, str) and _norm(k) in _FIELD_KEYS["id"]]
    guess = class_from_words(words)
    if guess is not None:
        notes.warning(
            "json.class_from_name",
            f"{where}: no class given; {guess[0]!r} taken from the name {guess[1]!r}",
        )
        return guess[0]
    notes.warning("json.missing_class", f"{where}: no class given")
    return UNKNOWN_CLASS


def _scene_element(obj: dict[str, Any], domain: Domain) -> tuple[SceneElement, str] | None:
    """(kind, word) when the entry is the ground, a light or a camera: its class names one, or
    it has no class and its name does."""
    found = _field(obj, "class")
    if found is not None:
        value = found[1]
        kind = element_kind(value, domain) if isinstance(value, str) else None
        return (kind, value) if kind is not None and isinstance(value, str) else None
    name = _object_id(obj)
    kind = element_kind(name, domain)
    return (kind, name) if kind is not None and name is not None else None


def _read_color(
    obj: dict[str, Any], where: str, notes: Diagnostics
) -> tuple[float, float, float] | None:
    found = _field(obj, "color")
    if found is None:
        notes.info("json.missing_color", f"{where}: no colour given")
        return None
    key, value = found
    if key != "color":
        notes.info("json.key_alias", f"{where}: colour read from key {key!r}")
    if isinstance(value, dict):
        inner = _field(value, "color")
        value = inner[1] if inner is not None else value
    rgb = parse_color(value)
    if rgb is None:
        notes.warning("json.bad_color", f"{where}: cannot read {value!r} as a colour")
    return rgb


def _read_position(obj: dict[str, Any], where: str, notes: Diagnostics) -> Vec3:
    found = _field(obj, "position")
    values: list[float] | None = None
    if found is not None:
        key, value = found
        if key != "position":
            notes.info("json.key_alias", f"{where}: position read from key {key!r}")
        values = _finite(_vector(value, f"{where}.{key}", notes), f"{where}.{key}", notes)
    else:
        by_norm = {_norm(k): v for k, v in obj.items() if isinstance(k, str)}
        if all(a in by_norm and _is_number(by_norm[a]) for a in "xyz"):
            notes.info("json.flat_position", f"{where}: position read from keys x, y, z")
            values = [float(by_norm[a]) for a in "xyz"]
    if values is None:
        notes.warning("json.missing_position", f"{where}: no position; placed at the origin")
        return (0.0, 0.0, 0.0)
    return (values[0], values[1], values[2])


def _read_rotation(obj: dict[str, Any], where: str, notes: Diagnostics) -> Vec3:
    found = _field(obj, "rotation")
    if found is not None:
        key, value = found
        if key != "rotation":
            notes.info("json.key_alias", f"{where}: rotation read from key {key!r}")
        if _is_number(value):
            notes.info(
                "json.scalar_rotation",
                f"{where}: a single rotation angle read as a turn about Y (yaw)",
            )
            return (0.0, float(value), 0.0)
        if isinstance(value, list) and len(value) == 4 and all(_is_number(v) for v in value):
            notes.warning(
                "json.quaternion", f"{where}: 4 numbers read as a quaternion (x, y, z, w)"
            )
            x, y, z, w = (float(v) for v in value)
            return quaternion_to_euler((w, x, y, z))
        if isinstance(value, dict) and "w" in value:
            try:
                q = (float(value["w"]), float(value["x"]), float(value["y"]), float(value["z"]))
                notes.info("json.quaternion", f"{where}: rotation read as a quaternion")
                return quaternion_to_euler(q)
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                pass
        values = _finite(_vector(value, f"{where}.{key}", notes), f"{where}.{key}", notes)
        if values is not None:
            return (values[0], values[1], values[2])
        return (0.0, 0.0, 0.0)
    found = _field(obj, "rotation_rad")
    if found is not None:
        key, value = found
        values = _finite(_vector(value, f"{where}.{key}", notes), f"{where}.{key}", notes)
        if values is not None:
            notes.info("json.radians", f"{where}: {key!r} read in radians")
            return (math.degrees(values[0]), math.degrees(values[1]), math.degrees(values[2]))
    found = _field(obj, "quaternion")
    if found is not None:
        key, value = found
        if isinstance(value, list) and len(value) == 4 and all(_is_number(v) for v in value):
            x, y, z, w = (float(v) for v in value)
            notes.info("json.quaternion", f"{where}: {key!r} read as a quaternion (x, y, z, w)")
            try:
                return quaternion_to_euler((w, x, y, z))
            except ValueError:
                notes.warning("json.bad_quaternion", f"{where}: zero quaternion ignored")
    return (0.0, 0.0, 0.0)


def _read_size(obj: dict[str, Any], class_name: str, where: str, notes: Diagnostics) -> Vec3:
    found = _field(obj, "scale")
    if found is not None:
        key, value = found
        if key != "scale":
            notes.info("json.key_alias", f"{where}: scale read from key {key!r}")
        if _is_number(value):
            notes.info("json.scalar_scale", f"{where}: scalar {key} {value} read as uniform scale")
            s = float(value)
            if math.isfinite(s) and s >= 0:
                return (s, s, s)
        else:
            values = _finite(_vector(value, f"{where}.{key}", notes), f"{where}.{key}", notes)
            if values is not None:
                if min(values) < 0:
                    notes.warning(
                        "json.negative_scale", f"{where}: negative scale {values} read by magnitude"
                    )
                return (abs(values[0]), abs(values[1]), abs(values[2]))
    by_norm = {_norm(k): v for k, v in obj.items() if isinstance(k, str)}
    radius = by_norm.get("radius")
    if _is_number(radius) and radius > 0:
        height = by_norm.get("height")
        h = float(height) if _is_number(height) and height > 0 else 2 * float(radius)
        notes.info(
            "json.radius",
            f"{where}: size derived from radius {radius}"
            + (f" and height {height}" if _is_number(height) else ""),
        )
        return (2 * float(radius), h, 2 * float(radius))
    dims = [by_norm.get(k) for k in ("width", "height", "depth")]
    numbers = [float(d) for d in dims if _is_number(d) and d >= 0]
    if len(numbers) == 3:
        notes.info("json.flat_size", f"{where}: size read from width, height, depth")
        return (numbers[0], numbers[1], numbers[2])
    notes.info("json.missing_scale", f"{where}: no scale; the unit size of a {class_name} assumed")
    unit = UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0))
    return unit


def _native(
    obj: dict[str, Any], index: int, notes: Diagnostics, domain: Domain
) -> NativeObject | None:
    where = f"objects[{index}]"
    if not isinstance(obj, dict):
        notes.warning(
            "json.not_an_object", f"{where}: {type(obj).__name__} is not an object; skipped"
        )
        return None
    line, _ = _pos(obj)
    element = _scene_element(obj, domain)
    if element is not None:
        kind, word = element
        if kind == "ground":
            notes.info("json.ground", f"{where}: {word!r} is the ground, not an object; left out")
        else:
            notes.info(
                "json.scene_element", f"{where}: {word!r} is a {kind}, not an object; left out"
            )
        return None
    class_name = _read_class(obj, where, notes)
    rgb = _read_color(obj, where, notes)
    position = _read_position(obj, where, notes)
    rotation = _read_rotation(obj, where, notes)
    size = _read_size(obj, class_name, where, notes)
    unit = np.asarray(UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0)))
    affine = compose(position, euler_to_matrix(rotation), np.asarray(size) / unit)
    known = {k for name in _FIELD_KEYS for k in _FIELD_KEYS[name]} | {
        "x",
        "y",
        "z",
        "radius",
        "height",
        "width",
        "depth",
    }
    unknown = sorted(k for k in obj if isinstance(k, str) and _norm(k) not in known)
    if unknown:
        notes.info("json.unknown_keys", f"{where}: keys ignored: {', '.join(unknown)}")
    stated = _field(obj, "class")
    return NativeObject(
        class_name,
        affine,
        rgb,
        _object_id(obj),
        line,
        canonical_trs=(position, rotation, size),
        class_word=stated[1] if stated is not None and isinstance(stated[1], str) else None,
    )


def _objects_from(
    extraction: Extraction, notes: Diagnostics, domain: Domain
) -> list[NativeObject] | None:
    notes.line_map = extraction.reply_line
    value, found = _load_value(extraction.code, notes)
    if not found:
        return None
    items = _find_object_list(value, notes)
    if items is None:
        notes.error("json.no_objects_list", "the JSON holds no list of objects")
        return None
    natives = []
    for i, item in enumerate(items):
        native = _native(item, i, notes, domain)
        if native is not None:
            natives.append(native)
    return natives


def parse_json(text: str, domain: Domain) -> ParseResult:
    natives, diagnostics = read_candidates(
        text, LANGUAGE, lambda extraction, notes: _objects_from(extraction, notes, domain)
    )
    sources: list[ObjectSource] = []
    objects = build_objects(LANGUAGE, natives, diagnostics, sources)
    return ParseResult(
        LANGUAGE, Scene("parsed", tuple(objects)), tuple(diagnostics.items), tuple(sources)
    )


def write_json(scene: Scene) -> str:
    """``scene`` as canonical JSON (DESIGN §5), with each object's id."""
    objects = [
        {
            "id": o.id,
            "class_name": o.class_name,
            "color": o.color,
            "position": list(o.position),
            "rotation": list(o.rotation),
            "scale": list(o.size),
        }
        for o in scene.objects
    ]
    lines = ",\n".join("    " + json.dumps(o) for o in objects)
    return '{\n  "objects": [\n' + lines + ("\n" if lines else "") + "  ]\n}\n"


PARSERS.add(LANGUAGE, parse_json)
WRITERS.add(LANGUAGE, write_json)
