"""The open domain: each parsed object's class is what the reply calls it.

In real indoor scenes a model draws every object as its bounding primitive (a box for a sofa)
and says what it is in words. The language engines read the geometry exactly as in the
primitive domain and record, for each object, the name the code gave it, the word in its class
slot (JSON, the DSL) and the line that made it (``ParseResult.sources``). This layer, applied
after any engine, takes the class from the first of these that names a class of the open
vocabulary (``spatialbabel.open_classes``):

1. the name: the word in the object's class slot (JSON ``class_name``, the DSL's ``shape``),
   then the name the code gave it (``mesh.name``, ``GameObject("Sofa")``, ``obj.name``, the
   JSON ``id``, the DSL entity's name);
2. the variable the object was assigned to on the line that made it (``const couch = new
   THREE.Mesh(...)``; in Blender the ``x = bpy.context.active_object`` after the operator), or,
   for an object a helper function made, the variable its call was assigned to (``sofa =
   box(...)``: the k-th object made on the helper's line takes the k-th call's variable, when
   the calls and the objects are as many);
3. the comments on that line and on the comment lines just above it;
4. the geometry, as a fallback: the object keeps the primitive it was drawn with (``cube``),
   which matches no class of the open vocabulary.

One diagnostic per object says which (``open.class_from_name``, ``..._variable``,
``..._comment``, ``..._geometry``). The primitive domain's complaints that a word names none of
the six primitives do not apply here and are left out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final, Literal

from parsers.result import Diagnostic, ObjectSource, ParseResult
from spatialbabel.open_classes import open_class_in

Where = Literal["name", "variable", "comment"]

#: Diagnostics of the primitive domain that say a word names none of the six shapes.
PRIMITIVE_CLASS_CODES: Final = frozenset(
    {"json.unknown_class", "dsl.unknown_class", "build.unknown_class"}
)

#: How a line comment starts, per language.
COMMENT_MARKERS: Final[dict[str, str]] = {
    "threejs": "//",
    "unity": "//",
    "blender": "#",
    "open3d": "#",
    "json": "//",
    "dsl": ";",
}

#: An assignment at the start of a line: declaration words or a type, the variable, an
#: optional type annotation, then ``=`` (not ``==`` or ``=>``).
_ASSIGNMENT: Final = re.compile(
    r"^\s*(?:(?:export\s+)?(?:const|let|var|final|val)\s+|[A-Za-z_][\w.]*(?:<[^<>=]*>)?(?:\[\])?\s+)?"
    r"(?:this\.|self\.)?(?P<name>[A-Za-z_]\w*)\s*(?::\s*[\w.<>\[\], ]+?)?\s*=(?![=>])"
)
#: Blender's operators return nothing: the object they made is read back from the context.
_ACTIVE_OBJECT: Final = re.compile(
    r"^\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?:bpy\.)?(?:context|C)\.(?:view_layer\.objects\.)?"
    r"(?:active_object|object|active|selected_objects\[\s*0\s*\])\b"
)
#: Lines after a Blender operator searched for the variable that takes its object.
_FOLLOWING_LINES: Final = 3
#: The header of a named function: Python ``def``, JavaScript ``function``, an arrow
#: function bound to a name, a C# method (modifiers, a return type, the name, parameters) or a
#: JavaScript class method (the name, parameters, the body's brace).
_FUNCTION: Final = re.compile(
    r"^\s*(?:"
    r"(?:async\s+)?def\s+(?P<py>\w+)\s*\("
    r"|(?:export\s+)?(?:async\s+)?function\s*\*?\s*(?P<js>\w+)\s*\("
    r"|(?:const|let|var)\s+(?P<arrow>\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>"
    r"|(?:(?:public|private|protected|internal|static|override|virtual|async)\s+)*"
    r"(?P<type>[A-Za-z_][\w<>\[\],.]*)\s+(?P<cs>\w+)\s*\([^;]*\)\s*\{?\s*$"
    r"|(?P<method>\w+)\s*\([^;]*\)\s*\{\s*$"
    r")"
)
_CONTROL_WORDS: Final = frozenset(
    {"if", "for", "while", "switch", "catch", "return", "else", "new"}
)
_STATEMENT_WORDS: Final = frozenset({"return", "new", "await", "yield", "throw", "else", "case"})


def _code_part(line: str, marker: str) -> tuple[str, str | None]:
    """A line split into its code and its trailing comment (None without one); a marker
    inside a string literal starts no comment."""
    if marker not in line:
        return line, None
    quote: str | None = None
    index = 0
    while index < len(line):
        char = line[index]
        if quote is not None:
            if char == "\\":
                index += 2
                continue
            if char == quote:
                quote = None
        elif char in "'\"`":
            quote = char
        elif line.startswith(marker, index):
            return line[:index], line[index + len(marker) :].strip()
        index += 1
    return line, None


def variable_at(lines: list[str], line: int, language: str) -> str | None:
    """The variable the object made on reply line ``line`` (1-based) is assigned to."""
    if not 1 <= line <= len(lines):
        return None
    marker = COMMENT_MARKERS.get(language, "//")
    code, _ = _code_part(lines[line - 1], marker)
    found = _ASSIGNMENT.match(code)
    if found is not None:
        return found.group("name")
    if language != "blender":
        return None
    for following in lines[line : line + _FOLLOWING_LINES]:
        code, _ = _code_part(following, marker)
        if not code.strip():
            break
        found = _ACTIVE_OBJECT.match(code)
        if found is not None:
            return found.group("name")
        if "bpy.ops." in code:
            break
    return None


def _function_name(code: str) -> str | None:
    found = _FUNCTION.match(code)
    if found is None:
        return None
    if found.group("cs") and found.group("type") in _STATEMENT_WORDS:
        return None  # ``return make(...)`` is a call, not a method's header
    name = next((g for g in found.group("py", "js", "arrow", "cs", "method") if g), None)
    return None if name in _CONTROL_WORDS else name


def enclosing_function(lines: list[str], line: int, language: str) -> str | None:
    """The name of the function whose body holds reply line ``line``, or None at top level
    (a Python body by its indentation, the others by their braces)."""
    if not 1 <= line <= len(lines):
        return None
    marker = COMMENT_MARKERS.get(language, "//")

    def code(index: int) -> str:
        return _code_part(lines[index], marker)[0]

    if language in ("blender", "open3d"):
        current = lines[line - 1]
        indent = len(current) - len(current.lstrip())
        for index in range(line - 2, -1, -1):
            text = code(index)
            if not text.strip() or len(text) - len(text.lstrip()) >= indent:
                continue
            name = _function_name(text)
            if name is not None:
                return name
            indent = len(text) - len(text.lstrip())
            if indent == 0:
                return None
        return None
    depth = 0
    for index in range(line - 2, -1, -1):
        text = code(index)
        depth += text.count("}") - text.count("{")
        if depth >= 0:
            continue
        # An opening brace that holds the line: its block's header is this line, or the one
        # before when the brace stands alone.
        header = text
        if text.strip() == "{":
            before = (code(k) for k in range(index - 1, -1, -1))
            header = next((c for c in before if c.strip()), "") + " {"
        name = _function_name(header)
        if name is not None:
            return name
        if re.search(r"\bclass\b", header):
            return None
        depth = 0
    return None


def call_site_variables(lines: list[str], function: str, language: str) -> list[str | None]:
    """For each call of ``function`` outside its own body, in reply order, the variable its
    result is assigned to (None for a call assigned to nothing)."""
    marker = COMMENT_MARKERS.get(language, "//")
    call = re.compile(rf"(?:(?<![\w.])|(?<=this\.)|(?<=self\.)){re.escape(function)}\s*\(")
    found: list[str | None] = []
    for text in lines:
        code, _ = _code_part(text, marker)
        called = call.search(code)
        if called is None or _function_name(code) == function:
            continue
        assigned = _ASSIGNMENT.match(code)
        found.append(
            assigned.group("name") if assigned and assigned.end() <= called.start() else None
        )
    return found


def helper_variables(
    sources: tuple[ObjectSource, ...], lines: list[str], language: str
) -> dict[int, str]:
    """Object index -> the variable a helper's call assigns it to. Objects made on one line
    inside a function take, in order, the variables of that function's calls, when there are
    exactly as many calls as objects (a call inside a loop makes several: then none is used)."""
    by_line: dict[int, list[int]] = {}
    for index, source in enumerate(sources):
        if source.line is not None:
            by_line.setdefault(source.line, []).append(index)
    found: dict[int, str] = {}
    calls: dict[str, list[str | None]] = {}
    for line, indices in by_line.items():
        function = enclosing_function(lines, line, language)
        if function is None:
            continue
        if function not in calls:
            calls[function] = call_site_variables(lines, function, language)
        variables = calls[function]
        if len(variables) != len(indices):
            continue
        for index, variable in zip(indices, variables, strict=True):
            if variable is not None:
                found[index] = variable
    return found


def comments_at(lines: list[str], line: int, language: str) -> list[str]:
    """The comment ending reply line ``line`` and the comment lines just above it, nearest
    first."""
    found: list[str] = []
    if not 1 <= line <= len(lines):
        return found
    marker = COMMENT_MARKERS.get(language, "//")
    _, trailing = _code_part(lines[line - 1], marker)
    if trailing:
        found.append(trailing)
    index = line - 2
    while index >= 0:
        text = lines[index].strip()
        if not text.startswith(marker):
            break
        comment = text[len(marker) :].strip(marker[:1] + " ")
        if comment:
            found.append(comment)
        index -= 1
    return found


def _candidates(
    source: ObjectSource, lines: list[str], language: str, helper: str | None
) -> list[tuple[Where, str, str]]:
    """(where, what it is called there, the wording of the diagnostic) in the order tried."""
    found: list[tuple[Where, str, str]] = []
    if source.class_word:
        found.append(("name", source.class_word, "class"))
    if source.name:
        found.append(("name", source.name, "name"))
    if source.line is not None:
        variable = variable_at(lines, source.line, language)
        if variable:
            found.append(("variable", variable, "variable"))
        if helper:
            found.append(("variable", helper, "variable"))
        found += [("comment", c, "comment") for c in comments_at(lines, source.line, language)]
    return found


def name_objects(result: ParseResult, text: str) -> ParseResult:
    """``result`` read in the open domain: every object's class from what ``text`` (the reply)
    calls it, the scene's domain ``open``."""
    lines = text.split("\n") if isinstance(text, str) else []
    sources = result.sources
    diagnostics = [d for d in result.diagnostics if d.code not in PRIMITIVE_CLASS_CODES]
    objects = []
    helpers = helper_variables(sources, lines, result.language)
    for index, obj in enumerate(result.scene.objects):
        source = sources[index] if index < len(sources) else ObjectSource()
        decided = None
        candidates = _candidates(source, lines, result.language, helpers.get(index))
        for where, word, wording in candidates:
            found = open_class_in(word, "first" if where == "comment" else "last")
            if found is not None:
                decided = (where, word, wording, found[0])
                break
        if decided is None:
            diagnostics.append(
                Diagnostic(
                    "warning",
                    "open.class_from_geometry",
                    f"{obj.id}: no name, variable or comment names a class of the open "
                    f"vocabulary; kept as its bounding primitive {obj.class_name!r}",
                    source.line,
                )
            )
            objects.append(obj)
            continue
        where, word, wording, class_name = decided
        diagnostics.append(
            Diagnostic(
                "info",
                f"open.class_from_{where}",
                f"{obj.id}: class {class_name!r} from its {wording} {word!r}",
                source.line,
            )
        )
        objects.append(replace(obj, class_name=class_name))
    scene = replace(result.scene, objects=tuple(objects), domain="open")
    return replace(result, scene=scene, diagnostics=tuple(diagnostics))


__all__ = [
    "COMMENT_MARKERS",
    "PRIMITIVE_CLASS_CODES",
    "call_site_variables",
    "comments_at",
    "enclosing_function",
    "helper_variables",
    "name_objects",
    "variable_at",
]
