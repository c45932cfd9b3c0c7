"""S3-FT: self-supervised fine-tuning data from a model's own Three.js reconstructions.

A base model's replies to the ``phase1`` reconstruction prompts are filtered
(``s3ft.quality``), parsed into pseudo-ground truth (``s3ft.pseudo``) and turned into training
records (``s3ft.records``: nine structured tasks, QA pairs from the project's question
generator, a description, prompt paraphrases; optionally copied across viewpoints), split by
scene and written for OpenAI, LLaMA-Factory / ms-swift and TRL (``s3ft.build``). No human
label and no teacher are involved. The CLI is ``spatialbabel s3ft build`` and ``s3ft stats``;
docs/s3ft.md has the recipe; from Python, ``s3ft.build.build(split, replies, out)``. Only
``s3ft.hf_dataset`` needs the ``s3ft`` extra (datasets).
"""

from s3ft.build import BuildOptions, BuildResult
from s3ft.pseudo import PseudoTruth, ReplyVerdict, pseudo_truth
from s3ft.quality import REJECTIONS, rejections
from s3ft.records import Record, scene_records
from s3ft.replies import ReplySet, SceneCodeReply, read_replies

__all__ = [
    "REJECTIONS",
    "BuildOptions",
    "BuildResult",
    "PseudoTruth",
    "Record",
    "ReplySet",
    "ReplyVerdict",
    "SceneCodeReply",
    "pseudo_truth",
    "read_replies",
    "rejections",
    "scene_records",
]
