"""The part of a split S3-FT reads: the ``phase1`` scenes, their images and their views.

Only ``phase1`` scenes become training data; the ``subsets`` map names the subset of every
other scene so a reply for an ``eval`` scene is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from spatialbabel import Scene
from spatialbabel.files import FileFormatError
from spatialbabel.split import Split
from synth.config import ScenePaths
from synth.questions import SplitRules


def _rules(split: Split) -> SplitRules:
    """The question rules of the split's generator, from its manifest's ``stack_prob`` (a
    split without a manifest, or made before stacking, stacks nothing); for an imported split
    of the open domain, the classes its importer left out (``parameters.exclude``)."""
    data = split.manifest
    if not data:
        return SplitRules()
    if data.get("domain") == "open":
        excluded = (data.get("parameters") or {}).get("exclude", [])
        if not isinstance(excluded, list) or not all(isinstance(c, str) for c in excluded):
            raise FileFormatError(
                split.manifest_path, f"parameters.exclude: expected class names, got {excluded!r}"
            )
        return SplitRules.of_import(excluded)
    parameters = data.get("parameters")
    stack_prob = parameters.get("stack_prob", 0.0) if isinstance(parameters, dict) else 0.0
    if isinstance(stack_prob, bool) or not isinstance(stack_prob, int | float):
        raise FileFormatError(
            split.manifest_path, f"parameters.stack_prob: expected a number, got {stack_prob!r}"
        )
    return SplitRules.of_generator(float(stack_prob))


@dataclass(frozen=True)
class Phase1Split:
    root: Path
    scenes: dict[str, Scene]
    #: Subset name of every scene of the split that is not in ``phase1``.
    others: dict[str, str]
    #: Cameras (and images) per scene; 1 unless the split was made with ``--views``.
    views: int
    #: What the split's generator guarantees, for the questions (stacked or not).
    rules: SplitRules = field(default_factory=SplitRules)

    @classmethod
    def load(cls, root: Path) -> Phase1Split:
        folder = Split.open(root)
        split = folder.scenes("phase1")
        if not split.scenes:
            raise FileFormatError(
                folder.subsets_path,
                "the phase1 subset is empty: generate the split with --phase1-size N",
            )
        others = {}
        for name, listed in folder.subsets.items():
            if name in ("phase1", "counts") or not isinstance(listed, list):
                continue
            others.update({scene_id: name for scene_id in listed if isinstance(scene_id, str)})
        # A scene on disk but in no subset list is still a scene of the split.
        for scene_id in split.all_ids - set(split.scenes) - set(others):
            others[scene_id] = "no"
        views = {len(scene.cameras) for scene in split.scenes.values()}
        if len(views) != 1 or 0 in views:
            raise FileFormatError(
                root, f"phase1 scenes have differing camera counts {sorted(views)}"
            )
        return cls(root, split.scenes, others, views.pop(), _rules(folder))

    def image(self, scene_id: str, view: int) -> str:
        """The image of ``view`` (0: the frontal one), relative to the split's root."""
        return ScenePaths.of(scene_id, self.views).images[view]

    def check_images(self, scene_ids: list[str], views: int) -> None:
        """A FileFormatError naming the first image of these scenes that is missing."""
        for scene_id in scene_ids:
            for view in range(views):
                path = self.root / self.image(scene_id, view)
                if not path.is_file():
                    raise FileFormatError(path, "no such file (an image of a phase1 scene)")


__all__ = ["Phase1Split"]
