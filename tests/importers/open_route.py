"""A mock model of real indoor scenes, for the open domain's route through QA and S3-FT.

No model runs: the mock sees the true scene bent (every centre moved by up to ``NOISE`` metres
in x and z, sizes off by up to 10%, one object in ``MISS`` missed), answers every question by
running its program on that scene (``spatialbabel.qa.run_program``, without margins) and
writes its phase-1 program as the prompt asks: the scene, the camera the prompt gives, one box
mesh per object named after its class (``mesh.name = 'night_stand_2'``), lights and a
renderer. So every wrong answer and every missed object has a known cause.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from s3ft.demo_replies import REFUSAL, as_asked
from spatialbabel import Scene, SceneObject
from spatialbabel.qa import ProgramError, Question, run_program

NOISE: Final = 0.25
MISS: Final = 0.1
MODEL: Final = "mock-open"


def bent(scene: Scene, rng: np.random.Generator) -> Scene:
    """The scene as the mock sees it; each object's id names its class (the parser reads it)."""
    objects = []
    for k, obj in enumerate(scene.objects):
        if len(scene.objects) > 1 and rng.random() < MISS:
            continue
        dx, dz = rng.uniform(-NOISE, NOISE, 2)
        x, y, z = obj.position
        size = tuple(float(v * rng.uniform(0.9, 1.1)) for v in obj.size)
        objects.append(
            SceneObject(
                f"{obj.class_name.replace(' ', '_')}_{k}",
                obj.class_name,
                (round(x + float(dx), 3), round(y, 3), round(z + float(dz), 3)),
                obj.rotation,
                (round(size[0], 3), round(size[1], 3), round(size[2], 3)),
            )
        )
    return scene.with_objects(objects)


def answer(question: Question, seen: Scene) -> str:
    """The mock's reply: its scene's answer on a final line, or no answer where its scene has
    none (the object it missed)."""
    try:
        value = run_program(question.program, seen)
    except ProgramError:
        return "I cannot tell from the image.\nFinal answer: unsure"
    if question.category == "localization":
        x, y, z = (float(v) for v in value)
        value = f"({x:.2f}, {y:.2f}, {z:.2f})"
    return f"Looking at the room.\nFinal answer: {value}"


def phase1_reply(truth: Scene, seen: Scene, *, refuse: bool = False) -> str:
    """The mock's reply to the phase-1 prompt of ``truth``: a whole program of ``seen``."""
    from parsers import write

    if refuse:
        return REFUSAL
    code = write(seen, "threejs").rstrip("\n")
    reply = f"Here is the room as a three.js program:\n\n```javascript\n{code}\n```\n"
    return as_asked(reply, truth, "phase1")
