"""Python for the evaluator (used by the Blender and Open3D parsers): the front end from
tree-sitter's Python tree to ``ir``, and the dialect: built-ins, methods, classes, the standard
modules models use, text formatting and numpy."""
