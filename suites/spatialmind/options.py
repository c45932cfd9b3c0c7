"""SpatialMind's build options: the flags ``--spatialmind-*`` of ``spatialbabel suite build``."""

from __future__ import annotations

from dataclasses import dataclass

from suites.options import option
from suites.spatialmind.stamps import MODES


@dataclass(frozen=True)
class SpatialMindOptions:
    inputs: str = option(
        "frames",
        choices=("frames", "video"),
        help="show the observed frames as images (default) or the clip's MP4",
    )
    per_clip: int = option(1, help="items per task and clip (default %(default)s)")
    min_visible: float = option(
        0.0005,
        help="least share of the image a target covers in every frame asked about "
        "(default %(default)s: 131 pixels at 512x512)",
    )
    timestamps: str = option(
        "none",
        choices=MODES,
        help="the frames' times: not given apart from the frame rate (default), listed in "
        "the prompt (text), or drawn in each frame's corner (overlay)",
    )
    seed: int = option(
        0, help="seed of the choice of intervals, targets and balanced items (default %(default)s)"
    )

    def __post_init__(self) -> None:
        if self.inputs not in ("frames", "video"):
            raise ValueError(f"inputs must be frames or video, got {self.inputs!r}")
        if self.timestamps not in MODES:
            raise ValueError(
                f"timestamps must be one of {', '.join(MODES)}, got {self.timestamps!r}"
            )
        if self.per_clip < 1:
            raise ValueError(f"items per clip and task must be at least 1, got {self.per_clip}")
        if not 0.0 <= self.min_visible < 1.0:
            raise ValueError(f"the least visible share must lie in [0, 1), got {self.min_visible}")


__all__ = ["SpatialMindOptions"]
