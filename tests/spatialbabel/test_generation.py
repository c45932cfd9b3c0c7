"""The paper's generation settings, by request kind and mode."""

from __future__ import annotations

from spatialbabel.batch import item_id, qa_id, reconstruct_id
from spatialbabel.generation import (
    CODE_MAX_TOKENS,
    DIRECT_MAX_TOKENS,
    NL_COT_MAX_TOKENS,
    TEMPERATURE,
    max_tokens_for,
    max_tokens_for_request,
)


def test_the_papers_numbers() -> None:
    assert (TEMPERATURE, CODE_MAX_TOKENS, NL_COT_MAX_TOKENS, DIRECT_MAX_TOKENS) == (
        0.0,
        2048,
        1024,
        256,
    )


def test_code_gets_2048_in_every_mode_nl_cot_answers_1024_direct_answers_256() -> None:
    for mode in ("direct", "nl_cot"):
        assert max_tokens_for_request(reconstruct_id("s1", "json", mode)) == 2048
    assert max_tokens_for_request("reconstruct/s1/json") == 2048
    assert max_tokens_for_request(qa_id("q1", "code_cot:threejs")) == 2048
    assert max_tokens_for_request(qa_id("q1", "nl_cot")) == 1024
    assert max_tokens_for_request(qa_id("q1", "direct")) == 256
    assert max_tokens_for("qa", "code_cot") == 2048


def test_other_tasks_and_bad_ids_have_no_default() -> None:
    assert max_tokens_for_request(item_id("spacecast", "i1", "v1")) is None
    assert max_tokens_for_request("qa/only-two-parts") is None
    assert max_tokens_for("qa", "sketch") is None
