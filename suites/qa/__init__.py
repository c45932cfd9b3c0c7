"""The split's spatial questions (``qa.jsonl``, docs/qa.md) as a suite: ``SUITE``.

The question program language and the ``qa.jsonl`` record stay in the hub
(``spatialbabel.qa``) and the generator in its stage (``synth.questions``), since the split
generator writes the questions and stages never import a suite. Here: reading a reply's answer
(``reading``), the verdict (``grading``), the Code-CoT check (``codecot``), the suite
(``suite``), and ``score-qa``'s answers file, summary and table (``scores``,
``cmd_score_qa``).
"""

from suites.qa.suite import SUITE

__all__ = ["SUITE"]
