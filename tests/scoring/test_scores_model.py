"""scores.json's cells and mode differences read back into scoring's own types."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from scoring import CellSummary, ModeDifference
from spatialbabel.files import FileFormatError, JsonFields
from spatialbabel.stats import Estimate

FIELDS = JsonFields(Path("scores.json"))


def test_a_cell_and_a_difference_survive_their_json() -> None:
    cell = CellSummary(
        "m", "python", "direct", 2, 5, 4, {"score": Estimate(0.5, 0.25, 0.75, 4)}, n_truncated=1
    )
    text = json.dumps(cell.to_dict())
    assert CellSummary.from_dict(json.loads(text), FIELDS, "cells[0]") == cell
    difference = ModeDifference(
        "m", "python", "nl_cot", "direct", 3, {"f1": Estimate(0.1, -0.2, 0.4, 3)}
    )
    back = ModeDifference.from_dict(difference.to_dict(), FIELDS, "mode_differences[0]")
    assert back == difference and back.estimate("f1") == Estimate(0.1, -0.2, 0.4, 3)


def test_nan_is_written_as_null_and_read_back_as_nan() -> None:
    cell = CellSummary("m", "json", "direct", None, 0, 0, {"f1": Estimate(math.nan, 0, 1, 0)})
    data = json.loads(json.dumps(cell.to_dict()))
    assert data["estimates"]["f1"]["mean"] is None
    estimate = CellSummary.from_dict(data, FIELDS, "cells[0]").estimate("f1")
    assert estimate is not None and math.isnan(estimate.mean)


def test_a_bad_field_names_the_file_and_where() -> None:
    data = {"model": "m", "language": "json", "mode": "direct", "estimates": {"f1": {"n": 1.5}}}
    with pytest.raises(FileFormatError, match=r"scores\.json: cells\[3\]\.estimates\.f1\.n: "):
        CellSummary.from_dict(data, FIELDS, "cells[3]")
