"""What shapes a generated scene and a split: the parameters and the fixed paths and names."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from synth.tiers import TIER_NAMES, parse_tiers

#: Bumped whenever the same parameters would give different scenes or images.
GENERATOR_VERSION: Final = "1.0"
GENERATOR_NAME: Final = "spatialbabel.synth"


@dataclass(frozen=True)
class SceneParameters:
    """Everything a scene depends on besides its index: two runs with equal parameters give
    the same bytes. (Worker count and split sizes are not here: they change no scene.)"""

    seed: int = 0
    views: int = 1
    engine: str = "workbench"
    resolution: int = 512
    min_visible_fraction: float = 0.5
    min_visible_pixels: int = 150
    tiers: tuple[str, ...] = TIER_NAMES
    max_tries: int = 50
    #: Chance that an object rests on a cube or cylinder instead of the ground (synth.stacking).
    stack_prob: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiers", parse_tiers(self.tiers))
        if not 0.0 <= self.stack_prob <= 1.0:
            raise ValueError(f"stack probability must lie in [0, 1], got {self.stack_prob}")
        object.__setattr__(self, "stack_prob", float(self.stack_prob))
        if self.views < 1:
            raise ValueError(f"views must be at least 1, got {self.views}")
        if self.resolution < 16:
            raise ValueError(f"resolution must be at least 16 pixels, got {self.resolution}")
        if not 0.0 <= self.min_visible_fraction <= 1.0:
            raise ValueError(
                f"min visible fraction must lie in [0, 1], got {self.min_visible_fraction}"
            )
        if self.min_visible_pixels < 0:
            raise ValueError(
                f"min visible pixels must not be negative, got {self.min_visible_pixels}"
            )
        if self.max_tries < 1:
            raise ValueError(f"max tries must be at least 1, got {self.max_tries}")
        if self.seed < 0:
            raise ValueError(f"seed must not be negative, got {self.seed}")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as each scene's ``meta.parameters`` records them. ``stack_prob`` is
        left out at 0, so scenes made before stacking existed keep their bytes and a split of
        them still resumes (the manifest records it either way)."""
        data = asdict(self)
        data["tiers"] = list(self.tiers)
        if not self.stack_prob:
            del data["stack_prob"]
        return data

    @property
    def stacked(self) -> bool:
        return self.stack_prob > 0.0


def scene_id(index: int) -> str:
    return f"scene_{index:06d}"


@dataclass(frozen=True)
class ScenePaths:
    """Where the files of one scene go, relative to the split's root."""

    scene: str
    mask: str
    images: tuple[str, ...]

    @classmethod
    def of(cls, identifier: str, views: int) -> ScenePaths:
        images = (
            f"images/{identifier}.png",
            *(f"images/{identifier}_view{k}.png" for k in range(1, views)),
        )
        return cls(f"scenes/{identifier}.json", f"masks/{identifier}.png", images)

    def all(self) -> tuple[str, ...]:
        return (self.scene, self.mask, *self.images)

    def under(self, root: Path) -> list[Path]:
        return [root / p for p in self.all()]
