"""The paper's generation settings: one place for the temperature and the token limits.

Temperature 0; 2,048 completion tokens where the reply holds code (a reconstruction in any
mode, a Code-CoT answer), 1,024 for an NL-CoT answer, 256 for a direct answer. ``spatialbabel
prompts`` writes them into the requests and ``spatialbabel run`` fills them into a request
that names none; flags of either command override them.
"""

from __future__ import annotations

from typing import Final

from spatialbabel.batch import QA, RECONSTRUCT, parse_request_id

TEMPERATURE: Final = 0.0
CODE_MAX_TOKENS: Final = 2048
NL_COT_MAX_TOKENS: Final = 1024
DIRECT_MAX_TOKENS: Final = 256


def max_tokens_for(task: str, mode: str) -> int | None:
    """The completion-token limit of a request of ``task`` (``reconstruct`` or ``qa``) in
    ``mode``; None for a task this module does not know (a suite sets its own)."""
    if task == RECONSTRUCT:
        return CODE_MAX_TOKENS
    if task == QA:
        kind = mode.partition(":")[0]
        if kind == "direct":
            return DIRECT_MAX_TOKENS
        if kind == "nl_cot":
            return NL_COT_MAX_TOKENS
        if kind == "code_cot":
            return CODE_MAX_TOKENS
    return None


def max_tokens_for_request(custom_id: str) -> int | None:
    """``max_tokens_for`` the task and mode a request id names; None for an id of another
    form (a suite's, or none that parses)."""
    try:
        request = parse_request_id(custom_id)
    except ValueError:
        return None
    if request.task not in (RECONSTRUCT, QA):
        return None
    return max_tokens_for(request.task, request.parts[-1])


__all__ = [
    "CODE_MAX_TOKENS",
    "DIRECT_MAX_TOKENS",
    "NL_COT_MAX_TOKENS",
    "TEMPERATURE",
    "max_tokens_for",
    "max_tokens_for_request",
]
