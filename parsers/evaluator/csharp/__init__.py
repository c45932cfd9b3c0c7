"""C# for the evaluator (used by the Unity parser): the front end from tree-sitter's C# tree to
``ir`` (declarations, statements, expressions, patterns, types and conversions), and the
dialect: numerics as Mono runs them, strings and formatting, LINQ."""
