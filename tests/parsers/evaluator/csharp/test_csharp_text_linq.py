"""C#'s text library, enums and LINQ in the evaluator, each case an example of .NET's
documented behaviour (the values .NET gives are written beside the code that gives them)."""

from __future__ import annotations

from typing import Any

import pytest

from parsers.evaluator import EnumMember, Unknown
from parsers.evaluator.csharp.text import composite_format, format_number, title_case
from parsers.unity.parser import evaluate_unity


def run(code: str, *names: str) -> dict[str, Any]:
    """Top-level C# statements run; the values of ``names`` afterwards."""
    evaluation, _ = evaluate_unity(
        "using System;\nusing System.Linq;\nusing System.Globalization;\n" + code
    )
    found = evaluation.interpreter.globals.vars
    return {name: found.get(name) for name in names}


# --- text ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "titled"),
    [
        ("wAr aNd pEaCe", "War And Peace"),  # the example of TextInfo.ToTitleCase's documentation
        ("USA today", "USA Today"),  # words with no lower-case letter are acronyms: kept
        ("red_cube", "Red_Cube"),  # '_' separates words
        ("blue-green cone", "Blue-Green Cone"),
        ("cube2go", "Cube2go"),  # digits continue a word
        ("2cubes", "2Cubes"),  # a word starts at a letter
        ("o'neil's torus", "O'neil's Torus"),  # an apostrophe continues a word
    ],
)
def test_title_case_as_dotnet(text: str, titled: str) -> None:
    assert title_case(text) == titled


def test_composite_format_items_alignment_and_escapes() -> None:
    values = run(
        'var a = String.Format("{0,-6}|{1,6}|{2:F2}|{3:D3}|{{x}}", "ab", "cd", 3.14159, 7);\n'
        'var b = string.Format("{1}{0}", "Cone", "Red");\n'
        'float h = 1.25f; var c = $"{h:F1}_{h,6:0.00}";',
        "a",
        "b",
        "c",
    )
    assert values == {"a": "ab    |    cd|3.14|007|{x}", "b": "RedCone", "c": "1.3_  1.25"}
    assert isinstance(composite_format("{2}", [1], str), Unknown)  # FormatException in .NET


@pytest.mark.parametrize(
    ("value", "fmt", "text"),
    [
        (1234.5, "N", "1,234.50"),
        (1234.5678, "E2", "1.23E+003"),
        (0.5, "F0", "1"),  # halves go away from zero
        # Mono formats a double from its 15 significant digits: 2.675 is 2.67499999... in
        # binary, but "2.67500000000000" in 15 digits (.NET Core 3.0 and later print 2.67).
        (2.675, "F2", "2.68"),
        (1.005, "F2", "1.01"),
        (1.25, "F1", "1.3"),
        (2.5, "0.#", "2.5"),
        (2.0, "0.#", "2"),
        (255, "X", "FF"),
        (-7, "D3", "-007"),
    ],
)
def test_standard_and_custom_number_formats(value: float, fmt: str, text: str) -> None:
    assert format_number(value, fmt, str) == text


def test_char_and_string_members_build_stand_in_names() -> None:
    values = run(
        'string s = "pyramid";\n'
        "var a = char.ToUpper(s[0]) + s.Substring(1);\n"
        'var b = "  torus ".Trim().ToUpperInvariant();\n'
        "var c = \"red,green\".Split(',')[1];\n"
        "var d = \"cone\".PadLeft(6, '*');\n"
        "var e = char.IsUpper(a, 0);\n"
        'var f = CultureInfo.CurrentCulture.TextInfo.ToTitleCase("small red cube").Replace(" ", "");',
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
    )
    assert values == {
        "a": "Pyramid",
        "b": "TORUS",
        "c": "green",
        "d": "**cone",
        "e": True,
        "f": "SmallRedCube",
    }


# --- enums -------------------------------------------------------------------------------------------
def test_enum_members_keep_their_names() -> None:
    values = run(
        "enum Shape { Cube, Cone = 4, Torus }\n"
        "var a = Shape.Torus.ToString();\n"
        'var b = Shape.Torus.ToString("D");\n'
        'var c = $"{Shape.Cone}{1}";\n'
        "var d = (Shape)4;\n"
        "var e = Enum.GetValues(typeof(Shape)).Cast<Shape>().Select(x => x.ToString()).ToList();\n"
        'var f = (Shape)Enum.Parse(typeof(Shape), "Torus");\n'
        "var g = Enum.GetName(typeof(Shape), 5);\n"
        "var h = Shape.Torus == (Shape)5;",
        *"abcdefgh",
    )
    assert values["a"] == "Torus" and values["b"] == "5" and values["c"] == "Cone1"
    assert isinstance(values["d"], EnumMember) and values["d"].member == "Cone"
    assert values["e"] == ["Cube", "Cone", "Torus"]
    assert values["f"] == 5 and values["g"] == "Torus" and values["h"] is True


# --- LINQ ------------------------------------------------------------------------------------------
def test_linq_operators_as_documented() -> None:
    values = run(
        "var xs = new List<int> { 5, 3, 8, 3, 1 };\n"
        'var pairs = new List<string> { "b2", "a2", "b1", "a1" };\n'
        "var a = xs.Where(x => x > 2).Select((x, i) => x * 10 + i).ToList();\n"
        # OrderBy is stable: equal keys keep their source order.
        "var b = pairs.OrderBy(p => p[1]).ToList();\n"
        "var c = pairs.OrderBy(p => p[0]).ThenByDescending(p => p[1]).ToArray();\n"
        # GroupBy: groups in the order of their first element, elements in source order.
        'var d = pairs.GroupBy(p => p[0]).Select(g => g.Key + ":" + string.Join(",", g)).ToList();\n'
        "var e = xs.Count(x => x == 3);\n"
        "var f = xs.Sum();\n"
        "var g = xs.Average();\n"
        "var h = xs.Max();\n"
        "var i = xs.Distinct().Skip(1).Take(2).ToList();\n"
        "var j = xs.FirstOrDefault(x => x > 100);\n"
        "var k = xs.Aggregate((acc, x) => acc * x);\n"
        "var l = Enumerable.Range(2, 3).Zip(xs, (p, q) => p + q).ToList();\n"
        'var m = pairs.ToDictionary(p => p, p => p.Length)["a1"];\n'
        "var n = xs.Any(x => x > 7) && xs.All(x => x > 0);\n"
        "var o = xs.First(x => x > 100);\n"
        "var p = xs.OrderByDescending(x => x).Last();",
        *"abcdefghijklmnop",
    )
    assert values["a"] == [50, 31, 82, 33]
    assert values["b"] == ["b1", "a1", "b2", "a2"]
    assert values["c"] == ["a2", "a1", "b2", "b1"]
    assert values["d"] == ["b:b2,b1", "a:a2,a1"]
    assert values["e"] == 2 and values["f"] == 20 and isinstance(values["f"], int)
    assert values["g"] == 4.0 and values["h"] == 8
    assert values["i"] == [3, 8]
    assert values["j"] == 0  # default(int): FirstOrDefault of nothing (Mono prints 0)
    assert values["k"] == 360
    assert values["l"] == [7, 6, 12]
    assert values["m"] == 2 and values["n"] is True
    assert isinstance(values["o"], Unknown)  # First of nothing throws InvalidOperationException
    assert values["p"] == 1


def test_list_count_property_and_linq_count_method() -> None:
    values = run(
        "var xs = new List<int> { 1, 2 };\nvar a = xs.Count;\nvar b = xs.Count();", "a", "b"
    )
    assert values == {"a": 2, "b": 2}


def test_anonymous_objects_have_their_members() -> None:
    values = run(
        "var xs = new[] { 1.5f, 0.5f };\n"
        "var rows = xs.Select((x, i) => new { Index = i, Size = x }).OrderBy(r => r.Size).ToList();\n"
        "var a = rows[0].Index;",
        "a",
    )
    assert values == {"a": 1}
