"""Replies of mock models, for the built-in demo and its bundled fixture.

No real model runs here: each mock model is the true scene bent in one documented way (noise,
missed and invented objects, a mirrored axis convention, replies cut off or refused), written
in each of the six languages by ``parsers.write`` and wrapped in prose and a fence, as chat
models answer. The demo scores these, so every figure it prints has a known cause.

Every mock model answers in mode ``direct``; ``mock-hasty`` also answers in mode ``nl_cot``
(``NL_COT_MODELS``): it first lists the objects in words, one numbered line each, then writes
the code in one fenced block. Listing first, it misses, invents and mistakes fewer objects, but
its longer replies hit the token limit more often; those records say ``"finish_reason":
"length"``, as ``spatialbabel run`` writes them. The direct records come first and carry only
the five required fields, so adding modes never changes their bytes.
``python -m demo.replies SPLIT OUT.jsonl`` rewrites the bundled file.

Like the CLI, this is wiring: it uses the parsers' public API, imported when called.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import numpy as np

from spatialbabel import CLASSES, PALETTE_NAMES, Scene, SceneObject
from spatialbabel.files import write_jsonl
from spatialbabel.run.batch import reconstruct_id
from spatialbabel.split import Split

#: Fence tag and wording each language's replies use.
_FENCES: Final[dict[str, str]] = {
    "threejs": "javascript",
    "unity": "csharp",
    "blender": "python",
    "open3d": "python",
    "json": "json",
    "dsl": "lisp",
}
_LANGUAGE_NAMES: Final[dict[str, str]] = {
    "threejs": "Three.js",
    "unity": "a Unity C# script",
    "blender": "a Blender Python script",
    "open3d": "Open3D",
    "json": "the JSON schema",
    "dsl": "the scene DSL",
}


@dataclass(frozen=True)
class MockModel:
    """How a mock model bends the truth; every rate is per object or per reply."""

    name: str
    position_noise: float
    size_jitter: float
    yaw_jitter_deg: float
    miss_rate: float = 0.0
    invent_rate: float = 0.0
    class_swap_rate: float = 0.0
    color_swap_rate: float = 0.0
    #: Writes x mirrored: the classic left/right convention mistake.
    mirror_x: bool = False
    cut_off_rate: float = 0.0
    refusal_rate: float = 0.0


MOCK_MODELS: Final[tuple[MockModel, ...]] = (
    MockModel("mock-careful", position_noise=0.05, size_jitter=0.05, yaw_jitter_deg=3.0),
    MockModel(
        "mock-hasty",
        position_noise=0.3,
        size_jitter=0.25,
        yaw_jitter_deg=20.0,
        miss_rate=0.2,
        invent_rate=0.3,
        class_swap_rate=0.15,
        color_swap_rate=0.1,
        cut_off_rate=0.15,
        refusal_rate=0.05,
    ),
    MockModel(
        "mock-mirrored", position_noise=0.1, size_jitter=0.1, yaw_jitter_deg=5.0, mirror_x=True
    ),
)

#: Mock models that also answer in mode nl_cot, as they behave there: mock-hasty, listing the
#: objects before the code, misses and invents fewer, swaps fewer classes and colours, and is
#: cut off more often (its replies are longer); its positions are no better.
NL_COT_MODELS: Final[tuple[MockModel, ...]] = (
    replace(
        MOCK_MODELS[1],
        miss_rate=0.05,
        invent_rate=0.1,
        class_swap_rate=0.05,
        color_swap_rate=0.05,
        cut_off_rate=0.3,
    ),
)


def _bend(truth: Scene, model: MockModel, rng: np.random.Generator) -> list[SceneObject]:
    objects: list[SceneObject] = []
    for obj in truth.objects:
        if rng.random() < model.miss_rate and len(truth.objects) > 1:
            continue
        x, y, z = obj.position
        dx, dz = rng.normal(0.0, model.position_noise, 2)
        x, z = x + dx, z + dz
        if model.mirror_x:
            x = -x
        size = tuple(
            round(s * float(rng.uniform(1 - model.size_jitter, 1 + model.size_jitter)), 3)
            for s in obj.size
        )
        class_name = obj.class_name
        if rng.random() < model.class_swap_rate:
            class_name = str(rng.choice([c for c in CLASSES if c != class_name]))
        color = obj.color
        if color is not None and rng.random() < model.color_swap_rate:
            color = str(rng.choice([c for c in PALETTE_NAMES if c != color]))
        yaw = obj.rotation[1] + float(rng.normal(0.0, model.yaw_jitter_deg))
        objects.append(
            SceneObject(
                obj.id,
                class_name,
                (round(x, 3), round(y, 3), round(z, 3)),
                (0.0, round(-yaw if model.mirror_x else yaw, 2), 0.0),
                (size[0], size[1], size[2]),
                color=color,
            )
        )
    if rng.random() < model.invent_rate:
        objects.append(
            SceneObject(
                "extra",
                str(rng.choice(CLASSES)),
                (
                    round(float(rng.uniform(-2.5, 2.5)), 3),
                    0.4,
                    round(float(rng.uniform(-2.5, 2.5)), 3),
                ),
                size=(0.8, 0.8, 0.8),
                color=str(rng.choice(PALETTE_NAMES)),
            )
        )
    return objects


def mock_reply(truth: Scene, model: MockModel, language: str, rng: np.random.Generator) -> str:
    """One reply of ``model`` to the scene ``truth`` in ``language``."""
    return _reply(truth, model, language, rng, reasoning=False)[0]


def _reply(
    truth: Scene, model: MockModel, language: str, rng: np.random.Generator, *, reasoning: bool
) -> tuple[str, bool]:
    """A reply, with the objects listed in words first when ``reasoning`` (mode nl_cot), and
    whether it was cut off at the token limit."""
    from parsers import write

    if rng.random() < model.refusal_rate:
        return "I'm sorry, but I can't reliably reconstruct this scene from the image.", False
    objects = _bend(truth, model, rng)
    code = write(truth.with_objects(objects), language).rstrip("\n")
    intro = f"Here is the scene as {_LANGUAGE_NAMES[language]}, with every object I can see in the image:"
    if reasoning:
        listed = "\n".join(f"{k}. {_in_words(obj)}" for k, obj in enumerate(objects, start=1))
        intro = (
            f"First, the objects I can see in the image:\n\n{listed}\n\n"
            f"Now the scene as {_LANGUAGE_NAMES[language]}:"
        )
    if rng.random() < model.cut_off_rate:
        # A reply that hit the output limit: no closing fence, the last line broken.
        return f"{intro}\n\n```{_FENCES[language]}\n{code[: int(len(code) * 0.6)]}", True
    outro = "Positions are estimated from the image, so small offsets are possible."
    return f"{intro}\n\n```{_FENCES[language]}\n{code}\n```\n\n{outro}\n", False


def _in_words(obj: SceneObject) -> str:
    """An object as a model lists it before its code: shape, colour, roughly where (as seen
    from the frontal camera, which looks down the scene's -Z axis) and roughly how large."""
    x, y, z = obj.position
    across = "on the left" if x < -1.0 else "on the right" if x > 1.0 else "near the middle"
    depth = "close to the camera" if z > 1.0 else "towards the back" if z < -1.0 else "halfway back"
    height = "raised above the ground" if y - obj.size[1] / 2 > 0.15 else "on the ground"
    extent = max(obj.size)
    size = "small" if extent < 0.5 else "medium-sized" if extent < 0.9 else "large"
    color = f"{obj.color} " if obj.color else ""
    return (
        f"A {size} {color}{obj.class_name}, {across}, {depth}, {height} "
        f"(roughly x = {x:.1f}, z = {z:.1f})."
    )


def mock_replies(
    scenes: list[Scene],
    *,
    languages: tuple[str, ...],
    models: tuple[MockModel, ...] = MOCK_MODELS,
    nl_cot_models: tuple[MockModel, ...] = NL_COT_MODELS,
    seed: int = 0,
) -> list[dict[str, str]]:
    """Model-output records (``{scene_id, model, language, mode, output}``) for every scene,
    model and language in mode direct, then for every scene, NL-CoT model and language in mode
    nl_cot (with ``request_id`` and ``finish_reason``); each reply's randomness comes from
    (seed, model, language, scene), and the mode's."""
    records = []
    for m, model in enumerate(models):
        for lang_index, language in enumerate(languages):
            for s, scene in enumerate(scenes):
                rng = np.random.default_rng([seed, m, lang_index, s])
                records.append(
                    {
                        "scene_id": scene.scene_id,
                        "model": model.name,
                        "language": language,
                        "mode": "direct",
                        "output": mock_reply(scene, model, language, rng),
                    }
                )
    names = [model.name for model in models]
    for model in nl_cot_models:
        m = names.index(model.name) if model.name in names else len(names)
        for lang_index, language in enumerate(languages):
            for s, scene in enumerate(scenes):
                # A stream of its own: the direct replies stay what they were.
                rng = np.random.default_rng([seed, m, lang_index, s, 1])
                text, cut = _reply(scene, model, language, rng, reasoning=True)
                records.append(
                    {
                        "scene_id": scene.scene_id,
                        "model": model.name,
                        "language": language,
                        "mode": "nl_cot",
                        "output": text,
                        "request_id": reconstruct_id(scene.scene_id, language, "nl_cot"),
                        "finish_reason": "length" if cut else "stop",
                    }
                )
    return records


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m demo.replies SPLIT OUT.jsonl", file=sys.stderr)
        return 2
    from spatialbabel import LANGUAGES

    split, out = Path(argv[0]), Path(argv[1])
    scenes = list(Split.open(split).scenes().scenes.values())
    records = mock_replies(scenes, languages=LANGUAGES)
    write_jsonl(out, records)
    print(f"wrote {len(records)} replies for {len(scenes)} scenes to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
