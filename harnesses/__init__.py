"""Exports for the harnesses users already run: Hugging Face datasets of splits and suites'
items, lmms-eval task packages and VLMEvalKit datasets (docs/harnesses.md).

This part sits on top of the stages and the suites, like ``s3ft``: it reads splits, items and
requests only through ``harnesses.sources``, and grades only through the scoring commands
(``harnesses.grading``), so that every route asks and scores exactly what ``spatialbabel
prompts``, ``run``, ``score``, ``score-qa`` and ``suite score`` do.
"""
