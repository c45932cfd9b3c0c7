"""The scene DSL parser (docs/conventions.md §6), tolerant of what models write.

The Lark grammar (grammars/scene_dsl.lark) reads s-expressions; one Transformer turns them into
``Atom``s and ``Form``s with their positions; ``_scene_of`` reads ``(scene (entity name (shape
...) ...))`` from them. Tolerated and reported: a missing outer ``(scene ...)``, commas, square
brackets, unknown attributes, attribute synonyms (``pos``, ``size``...), a stray ``)``, and a reply
cut off inside an entity (complete entities are kept). Errors give line:column in the reply.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np
from lark import Lark, Token, Transformer, v_args
from lark.common import LexerConf
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput
from lark.lexer import Lexer, LexerState

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
)
from spatialbabel.classes import SceneElement, scene_element_kind
from spatialbabel.frames import Vec3, compose
from spatialbabel.open_classes import Domain

LANGUAGE = "dsl"

#: Attribute names models use for each field (lower case).
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "shape": ("shape", "type", "class", "kind", "primitive", "geometry", "class_name", "object"),
    "color": ("color", "colour", "rgb"),
    "position": (
        "position",
        "pos",
        "location",
        "loc",
        "at",
        "translate",
        "translation",
        "center",
        "centre",
    ),
    "rotation": ("rotation", "rot", "rotate", "orientation", "euler"),
    "scale": ("scale", "size", "dimensions", "dims", "extent", "extents"),
    "name": ("name", "id", "label"),
}
_FIELD_OF = {alias: field for field, aliases in ATTRIBUTES.items() for alias in aliases}
_SCENE_HEADS = frozenset({"scene", "world", "objects"})
_ENTITY_HEADS = frozenset({"entity", "object", "obj", "shape", "primitive", "item", "node"})


@dataclass(frozen=True)
class Atom:
    value: float | str
    kind: Literal["number", "symbol", "string"]
    line: int
    column: int

    def text(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Form:
    items: tuple[Atom | Form, ...]
    line: int
    column: int
    #: False when the reply ended before this form's closing parenthesis.
    closed: bool = True

    @property
    def head(self) -> str | None:
        first = self.items[0] if self.items else None
        return (
            first.value.lower()
            if isinstance(first, Atom) and first.kind == "symbol" and isinstance(first.value, str)
            else None
        )


class _ToForms(Transformer[Token, object]):
    """The one Transformer: every rule of the grammar becomes an ``Atom`` or a ``Form``."""

    def __init__(self, length: int) -> None:
        super().__init__()
        self.length = length

    @v_args(inline=True)
    def number(self, token: Token) -> Atom:
        return Atom(float(token), "number", token.line or 0, token.column or 0)

    @v_args(inline=True)
    def string(self, token: Token) -> Atom:
        return Atom(str(token)[1:-1], "string", token.line or 0, token.column or 0)

    @v_args(inline=True)
    def symbol(self, token: Token) -> Atom:
        return Atom(str(token), "symbol", token.line or 0, token.column or 0)

    def list(self, children: Sequence[object]) -> Form:
        open_token, close_token = children[0], children[-1]
        assert isinstance(open_token, Token) and isinstance(close_token, Token)
        items = tuple(c for c in children[1:-1] if isinstance(c, Atom | Form))
        closed = (close_token.start_pos or 0) < self.length
        return Form(items, open_token.line or 0, open_token.column or 0, closed)

    def group(self, children: Sequence[object]) -> Form:
        # The grammar's own rule for a group: read as a form whose head is the word "group".
        open_token, word, close_token = children[0], children[1], children[-1]
        assert isinstance(open_token, Token) and isinstance(word, Token)
        assert isinstance(close_token, Token)
        head = Atom(str(word).lower(), "symbol", word.line or 0, word.column or 0)
        items = tuple(c for c in children[2:-1] if isinstance(c, Atom | Form))
        closed = (close_token.start_pos or 0) < self.length
        return Form((head, *items), open_token.line or 0, open_token.column or 0, closed)

    def start(self, children: Sequence[object]) -> Sequence[Atom | Form]:
        return [c for c in children if isinstance(c, Atom | Form)]


@cache
def _parser() -> Lark:
    return Lark(read_grammar("scene_dsl.lark"), parser="lalr")


class _HandedTokens(Lexer):
    """A lexer that hands the parser tokens already read: ``_balance`` lexes the reply anyway,
    and a reply that needs no balancing is not lexed a second time."""

    __future_interface__ = 2

    def __init__(self, conf: LexerConf) -> None:
        self.conf = conf

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        tokens: list[Token] = lexer_state.text  # type: ignore[assignment]
        return iter(tokens)


@cache
def _token_parser() -> Lark:
    # The forms are built as the parser reduces, without a tree in between. Every list of a
    # reply that needed no balancing is closed, hence the unbounded length.
    return Lark(
        read_grammar("scene_dsl.lark"),
        parser="lalr",
        lexer=_HandedTokens,
        transformer=_ToForms(sys.maxsize),
    )


def _balance(text: str, notes: Diagnostics) -> tuple[str, bool, list[Token]] | None:
    """Text with stray ')' blanked and open '(' closed at the end, whether it was cut off, and
    the tokens of ``text``; None when it cannot be tokenised (the error is reported with its
    line and column)."""
    try:
        tokens = list(_parser().lex(text))
    except UnexpectedCharacters as error:
        notes.error(
            "dsl.syntax",
            f"cannot read {text[error.pos_in_stream or 0]!r} here",
            error.line,
            error.column,
        )
        return None
    chars = list(text)
    depth = 0
    for token in tokens:
        if token.type == "LPAR":
            depth += 1
        elif token.type == "RPAR":
            if depth == 0:
                notes.warning(
                    "dsl.stray_paren", "a ')' closes nothing; ignored", token.line, token.column
                )
                chars[token.start_pos or 0] = " "
            else:
                depth -= 1
    if depth:
        line = text.count("\n") + 1
        notes.warning(
            "dsl.truncated",
            f"the reply ends inside {depth} open form(s): cut off; entities cut inside an attribute are left out",
            line,
            len(text) - text.rfind("\n"),
        )
    return "".join(chars) + ")" * depth, depth > 0, tokens


def read_forms(text: str, notes: Diagnostics) -> list[Atom | Form] | None:
    """The top-level forms of ``text``; None (with an error) when it cannot be read."""
    balanced = _balance(text, notes)
    if balanced is None:
        return None
    code, _, tokens = balanced
    forms: object
    try:
        if code == text:
            # Balanced as written: the parser takes the tokens already read.
            forms = _token_parser().parse(tokens)
        else:
            forms = _ToForms(len(text)).transform(_parser().parse(code))
    except UnexpectedInput as error:
        notes.error(
            "dsl.syntax",
            f"cannot read the s-expression: {error.__class__.__name__}",
            error.line,
            error.column,
        )
        return None
    except LarkError as error:
        notes.error("dsl.syntax", f"cannot read the s-expression: {error}")
        return None
    assert isinstance(forms, list)
    return [f for f in forms if isinstance(f, Atom | Form)]


def _numbers(form: Form, where: str, notes: Diagnostics) -> list[float] | None:
    values: list[float] = []
    for item in form.items[1:]:
        if isinstance(item, Atom) and item.kind == "number" and isinstance(item.value, float):
            values.append(item.value)
        elif isinstance(item, Form) and all(
            isinstance(i, Atom) and i.kind == "number" for i in item.items
        ):
            values.extend(float(i.value) for i in item.items if isinstance(i, Atom))
        else:
            notes.warning(
                "dsl.bad_value",
                f"{where}: {_describe(item)} is not a number",
                item.line,
                item.column,
            )
            return None
    return values


def _describe(item: Atom | Form) -> str:
    return repr(item.value) if isinstance(item, Atom) else "a list"


def _vector(form: Form, where: str, notes: Diagnostics, *, uniform: bool = False) -> Vec3 | None:
    values = _numbers(form, where, notes)
    if values is None:
        return None
    if uniform and len(values) == 1:
        notes.info(
            "dsl.uniform_scale",
            f"{where}: one number read as a uniform scale",
            form.line,
            form.column,
        )
        values = values * 3
    if len(values) < 3:
        notes.warning(
            "dsl.bad_value",
            f"{where}: {len(values)} number(s) given, 3 needed; ignored",
            form.line,
            form.column,
        )
        return None
    if len(values) > 3:
        notes.warning(
            "dsl.extra_values",
            f"{where}: {len(values)} numbers given; the first 3 read",
            form.line,
            form.column,
        )
    if not all(math.isfinite(v) for v in values[:3]):
        notes.warning(
            "dsl.bad_value", f"{where}: values are not finite; ignored", form.line, form.column
        )
        return None
    return (values[0], values[1], values[2])


def _color(form: Form, where: str, notes: Diagnostics) -> tuple[float, float, float] | None:
    args = form.items[1:]
    value: object
    if len(args) == 1 and isinstance(args[0], Atom):
        value = args[0].value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
    elif args and all(isinstance(a, Atom) and a.kind == "number" for a in args):
        value = [float(a.value) for a in args if isinstance(a, Atom)]
    else:
        value = " ".join(a.text() for a in args if isinstance(a, Atom))
    rgb = parse_color(value)
    if rgb is None:
        notes.warning(
            "dsl.bad_color", f"{where}: cannot read {value!r} as a colour", form.line, form.column
        )
    return rgb


def _entity(
    form: Form, index: int, notes: Diagnostics, domain: Domain, offset: Vec3 = (0.0, 0.0, 0.0)
) -> NativeObject | None:
    """The object an entity form describes, moved by the ``offset`` of the groups around it;
    None when it is cut off inside an attribute, or names the ground, a light or a camera."""
    items = form.items[1:]
    name: str | None = None
    if items and isinstance(items[0], Atom) and items[0].kind in ("symbol", "string"):
        name = str(items[0].value)
        items = items[1:]
    where = f"entity {name}" if name else f"entity {index + 1}"
    if not form.closed:
        attributes = [item for item in items if isinstance(item, Form)]
        if not attributes or not all(attribute.closed for attribute in attributes):
            notes.warning("dsl.truncated", f"{where} is cut off; left out", form.line, form.column)
            return None
        # Cut off after a complete attribute: only its own closing parenthesis (and those of
        # the forms around it) is missing.
        notes.warning(
            "dsl.truncated",
            f"{where}: the reply ends after its last complete attribute, before its closing parenthesis; kept",
            form.line,
            form.column,
        )
    fields: dict[str, Form] = {}
    for item in items:
        if not isinstance(item, Form) or item.head is None:
            notes.warning(
                "dsl.bad_attribute",
                f"{where}: {_describe(item) if isinstance(item, Atom) else 'a list without a name'} is not an attribute; ignored",
                item.line,
                item.column,
            )
            continue
        field = _FIELD_OF.get(item.head)
        if field is None:
            notes.warning(
                "dsl.unknown_attribute",
                f"{where}: unknown attribute {item.head!r}; ignored",
                item.line,
                item.column,
            )
            continue
        if item.head != field and not (field == "shape" and item.head == "shape"):
            notes.info(
                "dsl.attribute_alias",
                f"{where}: {item.head!r} read as {field!r}",
                item.line,
                item.column,
            )
        if field in fields:
            notes.warning(
                "dsl.duplicate_attribute",
                f"{where}: {field} given twice; the last one read",
                item.line,
                item.column,
            )
        fields[field] = item
    if "name" in fields and name is None:
        label = fields["name"].items[1:]
        if label and isinstance(label[0], Atom):
            name = str(label[0].value)
    element = _scene_element(fields, name, domain)
    if element is not None:
        kind, word = element
        code = "dsl.ground" if kind == "ground" else "dsl.scene_element"
        what = "the ground" if kind == "ground" else f"a {kind}"
        notes.info(
            code, f"{where}: {word!r} is {what}, not an object; left out", form.line, form.column
        )
        return None
    class_name = UNKNOWN_CLASS
    if "shape" in fields:
        shape = fields["shape"]
        word = _shape_word(shape)
        found = canonical_class(word)
        if found is None:
            notes.warning(
                "dsl.unknown_class",
                f"{where}: {word!r} names none of the six primitives",
                shape.line,
                shape.column,
            )
        else:
            class_name = found
            if word.lower() != found:
                notes.info(
                    "dsl.class_synonym",
                    f"{where}: shape {word!r} read as {found!r}",
                    shape.line,
                    shape.column,
                )
    else:
        guess = class_from_words([name] if name else [])
        if guess is not None:
            class_name = guess[0]
            notes.warning(
                "dsl.class_from_name",
                f"{where}: no shape given; {guess[0]!r} taken from the name",
                form.line,
                form.column,
            )
        else:
            notes.warning("dsl.missing_shape", f"{where}: no shape given", form.line, form.column)
    rgb = _color(fields["color"], where, notes) if "color" in fields else None
    if "color" not in fields:
        notes.info("dsl.missing_color", f"{where}: no colour given", form.line, form.column)
    position = (
        _vector(fields["position"], f"{where} position", notes) if "position" in fields else None
    )
    if position is None:
        notes.warning(
            "dsl.missing_position",
            f"{where}: no position; placed at the origin",
            form.line,
            form.column,
        )
        position = (0.0, 0.0, 0.0)
    if any(offset):
        position = (position[0] + offset[0], position[1] + offset[1], position[2] + offset[2])
    rotation = (
        _vector(fields["rotation"], f"{where} rotation", notes) if "rotation" in fields else None
    )
    rotation = rotation or (0.0, 0.0, 0.0)
    unit = UNIT_EXTENTS.get(class_name, (1.0, 1.0, 1.0))
    size = (
        _vector(fields["scale"], f"{where} scale", notes, uniform=True)
        if "scale" in fields
        else None
    )
    if size is not None and min(size) < 0:
        notes.warning(
            "dsl.negative_scale",
            f"{where}: negative scale read by magnitude",
            form.line,
            form.column,
        )
        size = (abs(size[0]), abs(size[1]), abs(size[2]))
    size = size or unit
    affine = compose(position, euler_to_matrix(rotation), np.asarray(size) / np.asarray(unit))
    return NativeObject(
        class_name,
        affine,
        rgb,
        name,
        form.line,
        canonical_trs=(position, rotation, size),
        class_word=_shape_word(fields["shape"]) if "shape" in fields else None,
    )


def _shape_word(shape: Form) -> str:
    return " ".join(a.text() for a in shape.items[1:] if isinstance(a, Atom))


def _scene_element(
    fields: dict[str, Form], name: str | None, domain: Domain
) -> tuple[SceneElement, str] | None:
    """(kind, word) when an entity is the ground, a light or a camera: its shape names one, or
    it has no shape and its name does."""
    word = _shape_word(fields["shape"]) if "shape" in fields else name
    kind = element_kind(word, domain)
    return (kind, word) if kind is not None and word is not None else None


#: Heads of the forms that are not objects (ignored with a remark) inside a scene or a group.
_IGNORED_HEADS = frozenset({"camera", "light", "ground", "background", "floor", "plane", "sky"})
#: What a group's offset is called.
_OFFSET_HEADS = frozenset(
    {"offset", "position", "pos", "translate", "translation", "at", "location", "origin"}
)
#: A group's attributes other than its offset, which it does not take.
_GROUP_OTHER_ATTRIBUTES = frozenset(ATTRIBUTES["rotation"] + ATTRIBUTES["scale"])
#: Groups nested deeper than this are not read (a runaway reply).
MAX_GROUP_DEPTH = 32


@dataclass(frozen=True)
class PlacedEntity:
    """An entity form and the offset of the groups around it."""

    form: Form
    offset: Vec3 = (0.0, 0.0, 0.0)


def _describe_member(item: Atom | Form) -> str:
    return _describe(item) if isinstance(item, Atom) else "(" + str(item.head) + " ...)"


def _members(
    items: Sequence[Atom | Form],
    offset: Vec3,
    where: str,
    found: list[PlacedEntity],
    notes: Diagnostics,
    depth: int,
) -> None:
    """The entities among the members of a scene or a group, groups read recursively."""
    for item in items:
        head = item.head if isinstance(item, Form) else None
        if isinstance(item, Form) and head in _ENTITY_HEADS:
            found.append(PlacedEntity(item, offset))
        elif isinstance(item, Form) and head == "group":
            _group(item, offset, found, notes, depth + 1)
        elif isinstance(item, Form) and (head in _IGNORED_HEADS or scene_element_kind(head)):
            notes.info(
                "dsl.ignored_form",
                f"({head} ...) is not an object; ignored",
                item.line,
                item.column,
            )
        else:
            notes.warning(
                "dsl.unknown_form",
                f"{_describe_member(item)} inside {where} is not an entity; ignored",
                item.line,
                item.column,
            )


def _group(
    form: Form, offset: Vec3, found: list[PlacedEntity], notes: Diagnostics, depth: int
) -> None:
    """``(group [name] [(offset x y z)] member...)``: its members, moved by its offset."""
    items = form.items[1:]
    name: str | None = None
    if items and isinstance(items[0], Atom) and items[0].kind in ("symbol", "string"):
        name = str(items[0].value)
        items = items[1:]
    where = f"group {name}" if name else "a group"
    if depth > MAX_GROUP_DEPTH:
        notes.warning(
            "dsl.too_deep",
            f"{where} is nested more than {MAX_GROUP_DEPTH} groups deep; not read",
            form.line,
            form.column,
        )
        return
    own: Vec3 | None = None
    members: list[Atom | Form] = []
    for item in items:
        head = item.head if isinstance(item, Form) else None
        if isinstance(item, Form) and head in _OFFSET_HEADS:
            if own is not None:
                notes.warning(
                    "dsl.duplicate_attribute",
                    f"{where}: offset given twice; the last one read",
                    item.line,
                    item.column,
                )
            if head != "offset":
                notes.info(
                    "dsl.attribute_alias",
                    f"{where}: {head!r} read as its offset",
                    item.line,
                    item.column,
                )
            own = _vector(item, f"{where} offset", notes) or own
        elif isinstance(item, Form) and head in _GROUP_OTHER_ATTRIBUTES:
            notes.warning(
                "dsl.unknown_attribute",
                f"{where}: a group takes an offset only; ({head} ...) ignored",
                item.line,
                item.column,
            )
        else:
            members.append(item)
    total = offset
    if own is not None:
        total = (offset[0] + own[0], offset[1] + own[1], offset[2] + own[2])
    before = len(found)
    _members(members, total, where, found, notes, depth)
    notes.info(
        "dsl.group",
        f"{where}: {len(found) - before} entities read"
        + (f" at offset ({own[0]:g}, {own[1]:g}, {own[2]:g})" if own is not None else ""),
        form.line,
        form.column,
    )


def _entities(forms: list[Atom | Form], notes: Diagnostics) -> list[PlacedEntity]:
    """The entity forms, inside ``(scene ...)``, in groups, or at the top level."""
    found: list[PlacedEntity] = []
    bare = 0
    for form in forms:
        if not isinstance(form, Form):
            notes.warning(
                "dsl.stray_atom",
                f"{form.value!r} outside any form; ignored",
                form.line,
                form.column,
            )
            continue
        head = form.head
        if head in _SCENE_HEADS:
            _members(form.items[1:], (0.0, 0.0, 0.0), "the scene", found, notes, 0)
        elif head in _ENTITY_HEADS or head == "group":
            bare += 1
            _members([form], (0.0, 0.0, 0.0), "the scene", found, notes, 0)
        else:
            notes.warning(
                "dsl.unknown_form",
                f"({head} ...) is not a scene or an entity; ignored",
                form.line,
                form.column,
            )
    if bare:
        notes.info(
            "dsl.no_scene",
            f"{bare} {'entity' if bare == 1 else 'entities'} outside a (scene ...) form read as the scene",
        )
    return found


def _objects_from(
    extraction: Extraction, notes: Diagnostics, domain: Domain
) -> list[NativeObject] | None:
    notes.line_map = extraction.reply_line
    forms = read_forms(extraction.code, notes)
    if forms is None:
        return None
    natives = []
    for i, placed in enumerate(_entities(forms, notes)):
        native = _entity(placed.form, i, notes, domain, placed.offset)
        if native is not None:
            natives.append(native)
    if not natives:
        notes.error("dsl.no_entities", "no (entity ...) form found")
    return natives


def parse_dsl(text: str, domain: Domain) -> ParseResult:
    natives, diagnostics = read_candidates(
        text, LANGUAGE, lambda extraction, notes: _objects_from(extraction, notes, domain)
    )
    sources: list[ObjectSource] = []
    objects = build_objects(LANGUAGE, natives, diagnostics, sources)
    return ParseResult(
        LANGUAGE, Scene("parsed", tuple(objects)), tuple(diagnostics.items), tuple(sources)
    )


def _number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def write_dsl(scene: Scene) -> str:
    """``scene`` in the DSL, every number written to read back exactly."""
    lines = ["(scene"]
    for obj in scene.objects:
        parts = [f"(entity {obj.id}", f"(shape {obj.class_name})"]
        if obj.color is not None:
            parts.append(f"(color {obj.color})")
        parts.append("(position " + " ".join(_number(v) for v in obj.position) + ")")
        if any(obj.rotation):
            parts.append("(rotation " + " ".join(_number(v) for v in obj.rotation) + ")")
        parts.append("(scale " + " ".join(_number(v) for v in obj.size) + "))")
        lines.append("  " + " ".join(parts))
    return "\n".join(lines) + ")\n"


PARSERS.add(LANGUAGE, parse_dsl)
WRITERS.add(LANGUAGE, write_dsl)
