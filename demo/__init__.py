"""The built-in demo (``spatialbabel demo``): its command, the mock models whose replies it
scores, the planted regression for ``compare`` and the bundled reply files (``demo/data/``).

Like the CLI, the demo is wiring: it sits above every stage and runs each step as the matching
subcommand; no stage imports it.
"""
