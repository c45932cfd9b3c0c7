"""Which parts of a reply are its answer: prose against code, and one code block against
another.

Replies come in two modes. A direct reply is code, perhaps with prose around it. An NL-CoT
reply first reasons in words (a numbered or bulleted list of objects, classes, colours and
rough positions), then writes one code block. The reasoning is never code: in an unfenced
reply the prose before the code and after it is cut off (``code_region``), and a fenced block
that holds only such a list is not read (``is_reasoning``), even where a line of it looks like
code.

When a reply has several blocks of its language, the prose between them and what they hold
decide how they combine (``plan_blocks`` for the imperative languages, ``decide_readings``
for JSON and the DSL, which read each block first):

- a later block that builds a whole scene on its own (its language's set-up and objects,
  using nothing only an earlier block defines) is a complete rewrite: the last complete block
  is the answer, unless the prose says the blocks go together;
- a later block that redefines functions or classes of an earlier one replaces those
  definitions where they stood (a corrected helper);
- other blocks are fragments (imports in one, scene in the next; helpers, then main) and are
  merged in order;
- in JSON and the DSL a block that repeats every object of the earlier answer (same names, or
  the same class and colour) is a rewrite; one that repeats only some of them, and nothing
  else, replaces those; an answer split over blocks (the first leaves brackets open) is read
  joined; otherwise the last complete block is the answer unless the prose says to add or
  join.

Every decision is a diagnostic naming the rule that decided.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from parsers.result import Diagnostic

Cue = Literal["replace", "join", "final", "add", "then"]

#: What the prose before a block may say about it, strongest first. "replace": it corrects
#: what came before; "join": it goes on from it; "final": it is the whole answer; "add": it
#: holds more objects; "then": it comes next (a weaker "join").
_CUES: Final[tuple[tuple[Cue, re.Pattern[str]], ...]] = (
    (
        "replace",
        re.compile(
            r"\b(replac\w*|instead|correct(ed|ion|ly)?|fix(ed|es)?|mistake\w*|oops|wrong|sorry|"
            r"revis\w*|rewrit\w*|updated|try again|should (be|have)|my bad|apolog\w*)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "join",
        re.compile(
            r"\b(continu\w*|(the )?rest of|remaining|part \d|(second|last|next) (part|half|section)|"
            r"split\w*|broken (up|into)|join\w*|combin\w*|concatenat\w*|"
            r"put (them|these|it|the \w+) together|together with|append\w*|step \d)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "final",
        re.compile(
            r"\b(final|complete|full|whole|entire|all together|altogether|in one (block|piece|script))\b",
            re.IGNORECASE,
        ),
    ),
    (
        "add",
        re.compile(
            r"\b(also|add(s|ed|ing|itional(ly)?)?|plus|in addition|another|more|extra|as well)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "then",
        re.compile(
            r"\b(next|then|after that|followed by|the others?|the ones (on|in|at|behind|to))\b|"
            r"^\W*and\b",
            re.IGNORECASE,
        ),
    ),
)


#: Prose that calls a block the whole answer again ("corrected answer", "here is the full
#: scene"), and prose that calls it a replacement for some entities ("replace it with").
_WHOLE_AGAIN: Final = re.compile(
    r"\b((corrected|updated|revised|fixed|final|full|complete|whole|entire|new) "
    r"(answer|version|scene|code|json|list|script|output|description)|"
    r"here is the (whole|entire|complete|full|corrected|updated|revised))\b",
    re.IGNORECASE,
)
_REPLACES_SOME: Final = re.compile(
    r"\b(replace (it|this|that|them|the [\w ]{1,30}?|\w+) with|swap (it|this|the \w+) for|"
    r"instead of (the|that) \w+|in place of)\b",
    re.IGNORECASE,
)


def prose_cue(prose: str) -> Cue | None:
    """The strongest thing ``prose`` (the text between two blocks) says about the next block."""
    for cue, pattern in _CUES:
        if pattern.search(prose):
            return cue
    return None


# --- prose and code in an unfenced reply ------------------------------------------------------

#: A list item of a reasoning list: "1. red cube at (1, 0.5, -2)", "- a blue sphere", "* ...".
_LIST_ITEM: Final = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•+]|[a-h][.)]|\(\d{1,3}\))\s+\S")
#: A markdown heading or emphasised label ("**Objects:**").
_HEADING: Final = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*:?\s*$)")
#: Four or more words of letters in a row: a sentence.
_SENTENCE: Final = re.compile(r"[A-Za-z][a-z']*,?(?:\s+[A-Za-z][a-z'’]*[,:]?){3,}")


@dataclass(frozen=True)
class BlockSyntax:
    """What a language's code looks like, for telling code from prose and one block's role
    from another's. Patterns are searched in a block's text (``re.MULTILINE``)."""

    #: A line that may open the code of an unfenced reply (imports, a scene, a declaration).
    start: re.Pattern[str]
    #: A line that looks like code of the language.
    code_line: re.Pattern[str]
    #: A line that is a comment (never prose, never counted as code).
    comment: re.Pattern[str]
    #: The set-up a whole answer has (imports of the engine, a scene).
    setup: re.Pattern[str] | None = None
    #: Code that makes an object.
    builds: re.Pattern[str] | None = None
    #: A definition a later block may replace; group ``name`` is its name.
    definition: re.Pattern[str] | None = None
    #: How a definition's extent is found: by indentation or by braces.
    family: Literal["indent", "brace", "data"] = "data"
    #: A top-level variable a block declares (group 1): a later block declaring the same
    #: names restates the earlier one.
    declares: re.Pattern[str] | None = None


_PY_CODE = re.compile(
    r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w+\s*\(|class\s+\w+|"
    r"(?:for|while|if|elif|else|with|try|except|finally)\b[^\n]*:\s*(?:#.*)?$|return\b|"
    r"print\b|raise\b|pass\b|global\b|@\w|"
    r"[\w.\[\]'\"]+(?:\s*,\s*[\w.\[\]]+)*\s*(?:[-+*/%]|\*\*|//)?=(?!=)|"
    r"[\w.]+\s*\(.*[)(,]\s*(?:#.*)?$|[)\]}][)\]},;\s]*$)"
)
_JS_CODE = re.compile(
    r"^\s*(?:import\s|export\s|const\s|let\s|var\s|function\b|class\s|return\b|async\s|await\s|"
    r"if\s*\(|for\s*\(|while\s*\(|switch\s*\(|}|\)|]|//|/\*|<\w|</)|[;{]\s*(?://.*)?$|"
    r"^\s*[\w.$\[\]]+\s*(?:[-+*/%]|\*\*|&&|\|\||\?\?)?=(?!=)|^\s*[\w.$]+\(.*\)\s*;?\s*$"
)
_CS_CODE = re.compile(
    r"^\s*(?:using\s|namespace\s|public\s|private\s|protected\s|internal\s|static\s|void\s|"
    r"class\s|struct\s|enum\s|var\s|return\b|if\s*\(|for\s*\(|foreach\s*\(|while\s*\(|"
    r"switch\s*\(|}|{|\[\w|//|/\*)|[;{]\s*(?://.*)?$|"
    r"^\s*[\w.<>\[\]]+\s+[\w]+\s*=|^\s*[\w.\[\]]+\s*(?:[-+*/%])?=(?!=)"
)
_PY_DEFINITION = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?(?:def|class)\s+(?P<name>\w+)", re.M)
_JS_DEFINITION = re.compile(
    r"^(?P<indent>[ \t]*)(?:export\s+)?(?:(?:async\s+)?function\s*\*?\s*(?P<name>[\w$]+)\s*\(|"
    r"class\s+(?P<cls>[\w$]+)\b)",
    re.M,
)
_CS_DEFINITION = re.compile(
    r"^(?P<indent>[ \t]*)(?:\[[^\]\n]*\]\s*)*(?:(?:public|private|protected|internal|static|"
    r"virtual|override|sealed|abstract|partial|async|unsafe|new)\s+)*"
    r"(?:(?:class|struct|enum|interface)\s+(?P<cls>\w+)|"
    r"(?!(?:return|new|else|if|for|foreach|while|switch|using|var)\b)[\w.<>\[\],]+\??\s+"
    r"(?P<name>\w+)\s*\([^;{}]*\)\s*(?:\{|$))",
    re.M,
)


def _python_syntax(setup: str, builds: str) -> BlockSyntax:
    """A Python engine's syntax: its imports make its set-up, its factories its objects."""
    return BlockSyntax(
        start=re.compile(r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)"),
        code_line=_PY_CODE,
        comment=re.compile(r"^\s*#"),
        setup=re.compile(setup, re.M),
        builds=re.compile(builds),
        definition=_PY_DEFINITION,
        family="indent",
        declares=re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)", re.M),
    )


BLOCK_SYNTAX: Final[dict[str, BlockSyntax]] = {
    "threejs": BlockSyntax(
        start=re.compile(
            r"^\s*(?:import\s|const\s|let\s|var\s|function\s|class\s|export\s|<!DOCTYPE|<html|"
            r"<script|\(function|async\s+function)",
            re.IGNORECASE,
        ),
        code_line=_JS_CODE,
        comment=re.compile(r"^\s*(?://|/\*|\*/|\*(?:\s|$))"),
        setup=re.compile(r"\bnew\s+(?:THREE\.)?Scene\s*\("),
        builds=re.compile(r"\bnew\s+(?:THREE\.)?(?:Mesh|InstancedMesh)\s*\("),
        definition=_JS_DEFINITION,
        family="brace",
        declares=re.compile(r"^(?:export\s+)?(?:const|let|var)\s+([\w$]+)", re.M),
    ),
    "unity": BlockSyntax(
        start=re.compile(
            r"^\s*(?:using\s+[\w.]+\s*;|namespace\s|(?:public\s+|internal\s+)?(?:static\s+)?"
            r"(?:partial\s+)?class\s|\[\w)"
        ),
        code_line=_CS_CODE,
        comment=re.compile(r"^\s*(?://|/\*|\*/|\*(?:\s|$))"),
        setup=re.compile(r"\bclass\s+\w+\s*:\s*(?:MonoBehaviour|EditorWindow|Editor)\b|\[MenuItem"),
        builds=re.compile(
            r"\bCreatePrimitive\s*\(|\bnew\s+GameObject\s*\(|\bInstantiate\s*\(|\bnew\s+Mesh\s*\("
        ),
        definition=_CS_DEFINITION,
        family="brace",
    ),
    "blender": _python_syntax(
        setup=r"^\s*(?:import\s+bpy\b|from\s+bpy\b)",
        builds=r"\bprimitive_\w+_add\s*\(|\bobjects\.new\s*\(",
    ),
    "open3d": _python_syntax(
        setup=r"^\s*(?:import\s+open3d\b|from\s+open3d\b)",
        builds=r"\bcreate_(?:mesh_)?\w+\s*\(|\bTriangleMesh\s*\(",
    ),
    "json": BlockSyntax(
        start=re.compile(r"^\s*[\[{]\s*(?:$|[\"'{\[]|\w+\s*:)"),
        code_line=re.compile(r"^\s*(?:[\[\]{}\"']|-?\d|[\w]+\s*:)"),
        comment=re.compile(r"^\s*(?://|/\*|\*/)"),
    ),
    "dsl": BlockSyntax(
        start=re.compile(r"^\s*[(\[]\s*(?:scene|world|objects|entity|object|group)\b", re.I),
        code_line=re.compile(r"^\s*[()\[\]]"),
        comment=re.compile(r"^\s*;"),
    ),
}


def is_prose(line: str, syntax: BlockSyntax) -> bool:
    """Whether a line is prose: a list item, a heading or a sentence that is no code and no
    comment of the language."""
    if not line.strip() or syntax.comment.match(line):
        return False
    if _LIST_ITEM.match(line) or _HEADING.match(line):
        return True
    return syntax.code_line.match(line) is None and _SENTENCE.search(line) is not None


@dataclass(frozen=True)
class CodeRegion:
    """The lines of an unfenced reply that hold its code: ``[first, last]`` (0-based)."""

    first: int
    last: int
    #: How many lines of prose before and after were left out.
    before: int
    after: int


def code_region(lines: Sequence[str], language: str) -> CodeRegion | None:
    """Where the code of an unfenced reply lies, or None when there is no prose to cut (the
    whole reply is read, as before).

    The lines split into stretches without prose. The code starts in the first stretch that
    opens code of the language (an import, a declaration, ``(scene``, ``{``) with at least two
    lines of code, else in the stretch with the most lines of code (the later one on a tie:
    the reasoning comes first); it ends at the last line of code after that, so that prose
    between two parts of the code stays (as before) but reasoning before it, even a line of it
    that looks like code, and remarks after it are left out."""
    syntax = BLOCK_SYNTAX.get(language)
    if syntax is None:
        return None
    prose = [is_prose(line, syntax) for line in lines]
    if not any(prose):
        return None
    code = [
        not prose[i]
        and bool(lines[i].strip())
        and not syntax.comment.match(lines[i])
        and syntax.code_line.match(lines[i]) is not None
        for i in range(len(lines))
    ]
    stretches: list[list[int]] = []
    current: list[int] = []
    for i in range(len(lines)):
        if prose[i]:
            if current:
                stretches.append(current)
            current = []
        elif code[i]:
            current.append(i)
    if current:
        stretches.append(current)
    if not stretches:
        return None
    opening = [
        run for run in stretches if len(run) >= 2 and any(syntax.start.match(lines[i]) for i in run)
    ]
    chosen = opening[0] if opening else max(reversed(stretches), key=len)
    first = next((i for i in chosen if syntax.start.match(lines[i])), chosen[0])
    last = max(i for run in stretches for i in run if i >= first)
    # Comments directly above the first line belong to the code.
    while first > 0 and syntax.comment.match(lines[first - 1]):
        first -= 1
    before = sum(1 for i in range(first) if lines[i].strip())
    after = sum(1 for i in range(last + 1, len(lines)) if lines[i].strip())
    if not before and not after:
        return None
    return CodeRegion(first, last, before, after)


def is_reasoning(text: str, language: str) -> bool:
    """Whether a fenced block holds reasoning (a list of objects in words), not code: most of
    its lines are prose and none opens code of the language."""
    syntax = BLOCK_SYNTAX.get(language)
    if syntax is None:
        return False
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines or any(syntax.start.match(line) for line in lines):
        return False
    prose = sum(1 for line in lines if is_prose(line, syntax))
    return prose * 2 > len(lines)


# --- several blocks of an imperative language -------------------------------------------------


@dataclass(frozen=True)
class Splice:
    """A definition of a later block put in place of the earlier definition of the same name:
    ``(block, first line, end line)`` of the earlier one (0-based lines within its block, end
    exclusive) takes the later block's lines ``[first, end)``."""

    target: int
    target_lines: tuple[int, int]
    source: int
    source_lines: tuple[int, int]
    name: str


@dataclass
class BlockPlan:
    """How the blocks of an imperative reply make its code."""

    #: Indices of the blocks read, in order.
    kept: list[int]
    #: Definitions replaced in place.
    splices: list[Splice] = field(default_factory=list)
    #: For each block, its lines that moved into an earlier block (left out where they stood).
    moved: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _definitions(text: str, syntax: BlockSyntax) -> dict[str, tuple[int, int]]:
    """name -> (first line, end line) of every definition in ``text`` (0-based, end
    exclusive); a name defined twice keeps its last definition."""
    if syntax.definition is None:
        return {}
    lines = text.split("\n")
    found: dict[str, tuple[int, int]] = {}
    for match in syntax.definition.finditer(text):
        name = match.group("name") or match.groupdict().get("cls")
        if not name:
            continue
        first = text.count("\n", 0, match.start())
        end = (
            _indented_end(lines, first)
            if syntax.family == "indent"
            else _braced_end(text, match.end())
        )
        if end is not None:
            found[name] = (first, end)
    return found


def _indented_end(lines: Sequence[str], first: int) -> int:
    """The end of a Python definition: the first later non-blank line indented no deeper."""
    indent = len(lines[first]) - len(lines[first].lstrip())
    end = first + 1
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        if line.strip():
            end = i + 1
    return end


def _code_characters(
    text: str, start: int, quotes: str, comment: str, *, line_strings: bool = False
) -> Iterator[tuple[int, str]]:
    """(index, character) of ``text`` from ``start`` outside strings (opened by one of
    ``quotes``; with ``line_strings`` a line end closes them too) and line comments."""
    quote: str | None = None
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote or (line_strings and ch == "\n"):
                quote = None
        elif ch in quotes:
            quote = ch
        elif text.startswith(comment, i):
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
            continue
        else:
            yield i, ch
        i += 1


def _braced_end(text: str, start: int) -> int | None:
    """The end line of a brace-delimited definition whose header ends at ``start``: the line
    after the brace that closes its first ``{``; None when it never closes."""
    depth = 0
    opened = False
    for i, ch in _code_characters(text, start, "\"'`", "//"):
        if ch == ";" and not opened:
            return None
        if ch == "{":
            depth += 1
            opened = True
        elif ch == "}":
            depth -= 1
            if opened and depth == 0:
                return text.count("\n", 0, i) + 1
    return None


def _declared(text: str, syntax: BlockSyntax) -> set[str]:
    """The top-level variables ``text`` declares."""
    return set(syntax.declares.findall(text)) if syntax.declares is not None else set()


def _uses(text: str, names: set[str]) -> list[str]:
    return sorted(name for name in names if re.search(rf"(?<![\w$.]){re.escape(name)}\b", text))


def plan_blocks(
    texts: Sequence[str], prose: Sequence[str], first_lines: Sequence[int], language: str
) -> BlockPlan:
    """How several blocks of an imperative language combine. ``prose[k]`` is the reply's
    text before block ``k`` (since the block before it); ``first_lines`` the reply line of
    each block's first code line (for the diagnostics)."""
    syntax = BLOCK_SYNTAX.get(language)
    plan = BlockPlan([0] if texts else [])
    if syntax is None or len(texts) < 2:
        plan.kept = list(range(len(texts)))
        return plan
    definitions = [_definitions(text, syntax) for text in texts]

    def where(k: int) -> str:
        return f"the block at line {first_lines[k] - 1}"

    def note(rule: str, message: str) -> None:
        plan.diagnostics.append(Diagnostic("info", f"extract.{rule}", message))

    for k in range(1, len(texts)):
        text = texts[k]
        cue = prose_cue(prose[k])
        earlier: dict[str, tuple[int, tuple[int, int]]] = {}
        for j in plan.kept:
            for name, span in definitions[j].items():
                earlier[name] = (j, span)
        own = definitions[k]
        redefined = sorted(set(own) & set(earlier))
        restated = sorted(
            (set(own) | _declared(text, syntax))
            & (set(earlier) | {n for j in plan.kept for n in _declared(texts[j], syntax)})
        )
        needs = _uses(_without(text, own.values()), set(earlier) - set(own))
        complete = bool(
            syntax.setup is not None
            and syntax.builds is not None
            and syntax.setup.search(text)
            and syntax.builds.search(text)
        )
        if cue == "join":
            plan.kept.append(k)
            note("merged", f"{where(k)} goes on from the one before, as the reply says; merged")
            continue
        if complete and not needs and (cue not in ("add", "then") or restated):
            dropped = len(plan.kept)
            plan.kept = [k]
            plan.splices = []
            plan.moved = {}
            why = "builds a whole scene on its own"
            if restated:
                why += f" and redefines {', '.join(restated[:4])}"
            if cue == "replace":
                why += ", and the reply says it corrects the earlier code"
            note(
                "rewrite",
                f"{where(k)} {why}: a complete rewrite; the last complete block is the answer "
                f"({dropped} earlier block(s) set aside)",
            )
            continue
        if redefined:
            for name in redefined:
                target, span = earlier[name]
                plan.splices.append(Splice(target, span, k, own[name], name))
                plan.moved.setdefault(k, []).append(own[name])
            plan.kept.append(k)
            note(
                "replaced_definitions",
                f"{where(k)} redefines {', '.join(redefined)}: each put in place of the earlier "
                "definition; the rest of the block merged after the earlier ones",
            )
            continue
        plan.kept.append(k)
        reason = (
            f"uses {', '.join(needs[:4])} from an earlier block"
            if needs
            else "does not build a whole scene on its own"
            if not complete
            else "adds to the scene, as the reply says"
        )
        note("merged", f"{where(k)} {reason}: a fragment, merged after the earlier blocks")
    return plan


def _without(text: str, spans: object) -> str:
    """``text`` without the lines of the given (first, end) spans."""
    lines = text.split("\n")
    drop: set[int] = set()
    for first, end in spans:  # type: ignore[attr-defined]
        drop.update(range(first, end))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


# --- several blocks of JSON or the DSL ---------------------------------------------------------


@dataclass(frozen=True)
class ObjectKey:
    """What identifies an object across blocks: its name, or its class and colour."""

    name: str | None
    class_name: str
    color: str | None


@dataclass
class Reading:
    """One candidate block of a declarative language, read on its own."""

    index: int
    keys: list[ObjectKey]
    #: It parsed and holds objects.
    usable: bool
    #: It was cut off (the reply ends inside it).
    cut_off: bool
    first_line: int
    prose_before: str


@dataclass
class Decision:
    """Which objects make the answer: (reading index, object index) pairs in order."""

    picks: list[tuple[int, int]]
    #: The rule that decided, for the diagnostic.
    rule: str
    code: str = "extract.chosen"


def _match(later: list[ObjectKey], earlier: list[ObjectKey]) -> dict[int, int]:
    """later index -> earlier index of the objects the later block repeats: same name first,
    then the same class and colour, each earlier object used once."""
    pairs: dict[int, int] = {}
    used: set[int] = set()
    names: dict[str, int] = {}
    for j, key in enumerate(earlier):
        if key.name:
            names.setdefault(key.name.lower(), j)
    for i, key in enumerate(later):
        found = names.get(key.name.lower()) if key.name else None
        if found is not None and found not in used:
            pairs[i] = found
            used.add(found)
    for i, key in enumerate(later):
        if i in pairs:
            continue
        for j, other in enumerate(earlier):
            if j not in used and (other.class_name, other.color) == (key.class_name, key.color):
                pairs[i] = j
                used.add(j)
                break
    return pairs


def _match_loosely(
    later: list[ObjectKey], earlier: list[ObjectKey], pairs: dict[int, int]
) -> dict[int, int]:
    """``pairs`` completed, for a block the prose says corrects the answer before it, by the
    one earlier object of the same class, else the one of the same colour (a correction
    changes the other)."""
    pairs = dict(pairs)
    for i, key in enumerate(later):
        if i in pairs:
            continue
        free = [j for j in range(len(earlier)) if j not in pairs.values()]
        for same in (
            [j for j in free if earlier[j].class_name == key.class_name],
            [j for j in free if key.color is not None and earlier[j].color == key.color],
        ):
            if len(same) == 1:
                pairs[i] = same[0]
                break
    return pairs


def decide_readings(readings: Sequence[Reading]) -> Decision | None:
    """The objects that make a declarative answer of several blocks (None: fewer than two
    usable blocks, nothing to decide)."""
    usable = [r for r in readings if r.usable]
    if len(usable) < 2:
        return None
    current: list[tuple[int, int]] = []
    keys: list[ObjectKey] = []
    rules: list[str] = []
    for reading in usable:
        here = [(reading.index, i) for i in range(len(reading.keys))]
        where = f"the block at line {reading.first_line - 1}"
        if not current:
            current, keys = here, list(reading.keys)
            continue
        cue = prose_cue(reading.prose_before)
        pairs = _match(reading.keys, keys)
        if reading.cut_off:
            rules.append(f"{where} is cut off; the last complete block before it is kept")
            continue
        if cue in ("join", "then") or (cue == "add" and len(pairs) < len(keys)):
            merged_pairs = dict(pairs)
            for i, j in merged_pairs.items():
                current[j] = here[i]
                keys[j] = reading.keys[i]
            for i in range(len(here)):
                if i not in merged_pairs:
                    current.append(here[i])
                    keys.append(reading.keys[i])
            rules.append(
                f"{where} adds to the answer before it, as the reply says"
                + (f" (replacing {len(pairs)} object(s) it repeats)" if pairs else "")
            )
            continue
        if len(pairs) == len(keys):
            current, keys = here, list(reading.keys)
            rules.append(f"{where} repeats every object of the one before: a complete rewrite")
            continue
        whole_again = _WHOLE_AGAIN.search(reading.prose_before) is not None
        replaces_some = _REPLACES_SOME.search(reading.prose_before) is not None
        if cue == "replace" and len(reading.keys) < len(keys) and not whole_again:
            pairs = _match_loosely(reading.keys, keys, pairs)
        # A block repeating only some earlier objects replaces those, unless the prose calls
        # it the whole answer again (a corrected scene that leaves an object out), or it
        # repeats more than half of them without the prose saying it replaces them.
        partial = bool(pairs) and len(pairs) == len(reading.keys)
        if partial and (whole_again or (len(reading.keys) * 2 > len(keys) and not replaces_some)):
            rules.append(
                f"{where} repeats {len(pairs)} of the {len(keys)} objects before it and "
                "restates the answer: the last complete block is the answer"
            )
            current, keys = here, list(reading.keys)
            continue
        if partial:
            for i, j in pairs.items():
                current[j] = here[i]
                keys[j] = reading.keys[i]
            named = ", ".join(
                reading.keys[i].name or f"the {reading.keys[i].class_name}" for i in pairs
            )
            rules.append(f"{where} replaces {named} of the answer before it")
            continue
        current, keys = here, list(reading.keys)
        rules.append(f"{where} is complete: the last complete block is the answer")
    return Decision(current, "; ".join(rules))


_BRACKETS: Final[dict[str, tuple[str, str, str]]] = {
    # language -> (openers, closers, comment starter)
    "json": ("{[", "}]", "//"),
    "dsl": ("([", ")]", ";"),
}


def open_brackets(text: str, language: str) -> tuple[int, int]:
    """(net brackets left open at the end, lowest depth reached) of ``text``, strings and
    comments skipped: a block that closes more than it opens goes on from an earlier one."""
    openers, closers, comment = _BRACKETS[language]
    quotes = '"' if language == "dsl" else "\"'"
    depth = lowest = 0
    for _, ch in _code_characters(text, 0, quotes, comment, line_strings=True):
        if ch in openers:
            depth += 1
        elif ch in closers:
            depth -= 1
            lowest = min(lowest, depth)
    return depth, lowest


def split_answers(texts: Sequence[str], closed: Sequence[bool], language: str) -> list[list[int]]:
    """Consecutive blocks that are one answer split in pieces: a block whose fence is closed
    but which leaves brackets open, followed by blocks that close what it left open."""
    groups: list[list[int]] = []
    depth = 0
    for k, text in enumerate(texts):
        net, lowest = open_brackets(text, language)
        if groups and depth > 0 and lowest < 0:
            groups[-1].append(k)
            depth += net
        else:
            groups.append([k])
            depth = net if closed[k] else 0
    return groups
