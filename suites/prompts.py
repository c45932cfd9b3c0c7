"""A suite's items as an OpenAI batch request file: one request per item and variant, with
``custom_id`` ``<suite>/<item_id>/<variant>`` and the item's inputs as image parts, in order.
Every request states its decoding: the suite's token budget, temperature 0 (the papers'
deterministic decoding) unless told otherwise, and a top_p only when one is given.

The file is streamed to disk and renamed into place, and the same items and flags give the
same bytes; each input file is read once however many variants ask for it.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from spatialbabel.files import FileFormatError
from spatialbabel.run.batch import DEFAULT_TEMPERATURE, item_id
from suites.base import Suite
from suites.items import ItemSet
from synth.prompts import Prompt, batch_request

#: Media types of the inputs a chat request can carry, by file suffix; a video goes as a
#: ``video_url`` part (``synth.prompts.batch_request``), as vLLM's OpenAI server reads it.
MEDIA_TYPES: Final = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".mp4": "video/mp4",
}


def _data_url(path: Path) -> str:
    media = MEDIA_TYPES.get(path.suffix.lower())
    if media is None:
        raise FileFormatError(
            path, f"cannot send a {path.suffix or 'suffix-less'} file in a chat request"
        )
    if not path.is_file():
        raise FileFormatError(path, "no such file (an input of the items)")
    return f"data:{media};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def requests(
    suite: Suite,
    items: ItemSet,
    variants: Sequence[str],
    *,
    model: str,
    max_tokens: int | None = None,
    temperature: float | None = DEFAULT_TEMPERATURE,
    top_p: float | None = None,
) -> Iterator[dict[str, Any]]:
    """The batch requests, item by item, each variant in the order given; an item a variant
    does not ask (``Suite.asks``) is left out of it. The suite must be prepared."""
    for variant in variants:
        if variant not in suite.variants:
            raise ValueError(
                f"unknown variant {variant!r}; {suite.name} has {', '.join(suite.variants)}"
            )
        problem = suite.unavailable(variant)
        if problem is not None:
            raise ValueError(f"variant {variant!r}: {problem}")
    url = lru_cache(maxsize=64)(_data_url)
    for item in items.items:
        for variant in variants:
            if not suite.asks(item, variant):
                continue
            text = suite.prompt(item, variant)
            shown = item.inputs if text.inputs is None else text.inputs
            yield batch_request(
                item_id(suite.name, item.item_id, variant),
                Prompt(text.system, text.text),
                [url(items.input_path(name)) for name in shown],
                model=model,
                max_tokens=max_tokens if max_tokens is not None else suite.max_tokens(variant),
                temperature=temperature,
                top_p=top_p,
            )


__all__ = ["MEDIA_TYPES", "requests"]
