# str methods scene code uses: split/join/strip/replace/case/find/count/startswith/format.
s = "  Cube_01, Sphere_02 ,cone  "
parts = [p.strip() for p in s.split(",")]
print(parts, "|".join(parts), s.strip().upper(), s.lower().strip())
print("a-b-c".split("-", 1), "a b  c".split(), "x".join("abc"), "abc".rsplit("b"))
print("cube".capitalize(), "hello world".title(), "Cube".swapcase(), "cube" * 3)
print("spatial".find("a"), "spatial".rfind("a"), "spatial".find("z"), "banana".count("an"))
print("cube_01".startswith("cube"), "x.py".endswith((".py", ".txt")), "7".zfill(3))
print("ab".center(6, "*"), "ab".ljust(4, ".") + "|", "ab".rjust(4) + "|")
print("a,b".replace(",", ";"), "aaa".replace("a", "b", 2), "  x ".lstrip(), " x  ".rstrip() + "|")
print("{} and {}".format(1, "two"), "{1}{0}".format("a", "b"), "{x:.1f}".format(x=2.25))
print("abc" < "abd", "B" < "a", "12".isdigit(), "ab".isalpha(), "Ab".islower(), ord("A"), chr(98))
print(str(12) + "px", len("héllo"), "é" in "héllo", "cube" in ["cube"], "%s" % "ok")
print("line1\nline2".splitlines(), "a\tb", repr("it's"), repr('say "hi"'))
