"""Golden prompt texts: a fixed scene and question, every reconstruction language in both
reconstruction modes (``reconstruct_<language>.txt`` is mode direct,
``reconstruct_nl_cot_<language>.txt`` mode nl_cot), every QA mode, and S3-FT's phase-1 prompt
(``s3ft_phase1.txt``).

A change in any prompt shows up as a diff in fixtures/qa/prompts/; regenerate after bumping
``synth.prompts.PROMPT_VERSION`` with ``.venv/bin/python -m tests.qa.prompt_goldens``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from spatialbabel import LANGUAGES, Camera, Scene, SceneObject
from spatialbabel.qa import Question
from synth.prompts import PROMPT_VERSION, Prompt, qa_prompt, reconstruct_prompt, s3ft_phase1_prompt

FOLDER: Final = Path(__file__).resolve().parents[2] / "fixtures" / "qa" / "prompts"
SCENE: Final = Scene(
    "golden",
    (
        SceneObject(
            "obj0", "cube", (-1.0, 0.4, 0.5), (0.0, 30.0, 0.0), (0.8, 0.8, 0.8), color="red"
        ),
        SceneObject("obj1", "sphere", (1.2, 0.35, -0.6), size=(0.7, 0.7, 0.7), color="blue"),
    ),
    (Camera.looking_at("front", (0.0, 7.778, 7.778), width=512, height=512, fov_y_deg=44.0),),
)
QUESTION: Final = Question(
    "golden-q00",
    "golden",
    "relationship",
    "horizontal",
    "From the camera's point of view, is the red cube to the right or to the left of the blue sphere?",
    "left",
    (
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [0], "value": "red"},
        {"op": "filter_shape", "inputs": [1], "value": "cube"},
        {"op": "unique", "inputs": [2]},
        {"op": "scene", "inputs": []},
        {"op": "filter_color", "inputs": [4], "value": "blue"},
        {"op": "filter_shape", "inputs": [5], "value": "sphere"},
        {"op": "unique", "inputs": [6]},
        {"op": "query_relation", "inputs": [3, 7], "value": "horizontal"},
    ),
    choices=("right", "left"),
)
QA_MODES: Final = ("direct", "nl_cot", "code_cot:unity", "code_cot:blender")


def goldens() -> dict[str, str]:
    def text(prompt: Prompt) -> str:
        return f"prompt_version: {PROMPT_VERSION}\n--- system\n{prompt.system}\n--- user\n{prompt.text}\n"

    made = {
        f"reconstruct_{language}.txt": text(reconstruct_prompt(SCENE, language, "direct"))
        for language in LANGUAGES
    }
    made.update(
        {
            f"reconstruct_nl_cot_{language}.txt": text(
                reconstruct_prompt(SCENE, language, "nl_cot")
            )
            for language in LANGUAGES
        }
    )
    made.update(
        {
            f"qa_{mode.replace(':', '_')}.txt": text(qa_prompt(QUESTION, SCENE, mode))
            for mode in QA_MODES
        }
    )
    made["s3ft_phase1.txt"] = text(s3ft_phase1_prompt(SCENE))
    return made


if __name__ == "__main__":
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, content in goldens().items():
        (FOLDER / name).write_text(content, encoding="utf-8")
    print(f"wrote {len(goldens())} golden prompts to {FOLDER}")
