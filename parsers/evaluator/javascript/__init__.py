"""JavaScript and TypeScript for the evaluator (used by the three.js parser): the front ends
from tree-sitter's trees to ``ir``, and the dialect: globals, methods, keyed collections and
ECMAScript's numbers."""
