"""The evaluator's core, which knows no language: the ``ir`` every front end lowers to, the
interpreter that runs it (scopes, calls, generators, control flow), values, limits, the
tree-sitter parse and the lowering helpers the front ends share. tests/test_layering.py holds
it to importing no language room."""
