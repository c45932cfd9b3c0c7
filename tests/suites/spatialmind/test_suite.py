"""SpatialMind end to end on a small clip set made without Blender (the stand-in renderer draws
each object as its projected box): items whose answers are recomputed with the tests' own code,
targets re-measured in the ID passes, the oracle scoring 1, the baselines, prompts in both
input modes, the state-chain training records, determinism and bad input."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from spatialbabel.cli import ExitCode, main
from spatialbabel.clip import Clip
from spatialbabel.run.batch import parse_request_id
from suites import load_suite
from suites.base import Reply
from suites.choices import letter
from suites.items import read_items
from suites.spatialmind.build import LABEL_LEAD, balance
from suites.spatialmind.chain import MESSAGES_FILE, OPENAI_FILE, chain_text
from suites.spatialmind.tasks import OPTIONS, TASKS, Candidate
from synth.clip_unit import ClipParameters, generate_clip_unit
from synth.clips import clip_set as make_clip_set
from tests.suites.spatialmind import truth
from tests.suites.spatialmind.boxes_renderer import BoxesRenderer

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("imageio_ffmpeg")

SUITE = load_suite("spatialmind")
SHORTCUT_ROWS = (
    "shortcut:persistence",
    "shortcut:keep_going",
    "shortcut:majority",
    "shortcut:median",
    "shortcut:typical_rate",
)
CLIPS = 6
PARAMS = ClipParameters(seed=11, resolution=64, observed=(16, 24), horizon=(5, 12))


@pytest.fixture(scope="module")
def clip_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spatialmind") / "clips"
    renderer = BoxesRenderer()
    for index in range(CLIPS):
        generate_clip_unit(root, index, PARAMS, renderer, "stand-in")
    make_clip_set(root, CLIPS, PARAMS).finalise()
    return root


def build(clip_set: Path, out: Path, *flags: str) -> int:
    return main(
        [
            "suite",
            "build",
            "--suite",
            "spatialmind",
            "--split",
            str(clip_set),
            "--out",
            str(out),
            *flags,
        ]
    )


@pytest.fixture(scope="module")
def items_folder(clip_set: Path) -> Path:
    out = clip_set.parent / "items"
    assert build(clip_set, out) == ExitCode.OK
    return out


def clips_of(clip_set: Path) -> dict[str, Clip]:
    return {p.stem: Clip.load(p) for p in sorted((clip_set / "clips").glob("*.json"))}


def test_items_cover_every_task_with_true_answers(clip_set: Path, items_folder: Path) -> None:
    items = read_items(items_folder, SUITE)
    clips = clips_of(clip_set)
    assert {i.task for i in items.items} == set(TASKS)
    assert items.manifest["options"]["spatialmind_inputs"] == "frames"
    for item in items.items:
        clip = clips[item.scene_id]
        expected = truth.answer(item, clip)
        if item.options:
            keys = list(OPTIONS[item.task])
            assert item.answer == letter(keys.index(expected)), item.item_id
            assert item.options == tuple(OPTIONS[item.task].values())
        else:
            assert item.answer == pytest.approx(expected, rel=1e-9, abs=1e-9), item.item_id
        assert item.group["level"] == TASKS[item.task]
        assert len(item.inputs) == clip.observed
        assert all(items.input_path(name).is_file() for name in item.inputs)
        # Every target shows at least the least share of pixels in its ID pass, re-measured.
        least = round(0.0005 * 64 * 64) or 1
        for t in truth.frames_asked(item, clip):
            with Image.open(clip_set / f"ids/{clip.clip_id}/{t:03d}.png") as image:
                mask = np.array(image)
            for i in truth.targets(item):
                assert int((mask == i + 1).sum()) >= least, (item.item_id, t, i)
    histograms = json.loads((items_folder / "labels.json").read_text())["labels"]
    for task, counts in histograms.items():
        assert sum(counts.values()) == sum(1 for i in items.items if i.task == task)


def test_persistence_copies_the_last_observed_state(clip_set: Path, items_folder: Path) -> None:
    items = read_items(items_folder, SUITE)
    clips = clips_of(clip_set)
    checked = 0
    for item in items.items:
        clip = clips[item.scene_id]
        if item.task == "future_distance":
            now = truth.distance(clip, clip.last_observed, item.facts["object"])
            assert item.facts["persistence"] == f"{now:.1f}"
            checked += 1
        if item.task == "future_relation":
            camera = clip.scene(clip.last_observed).cameras[0]
            uv, _ = camera.project(
                np.array([clip.frames[clip.last_observed].positions[item.facts["object"]]])
            )
            xi = uv[0, 0] / camera.width
            band = "front_left" if xi < 0.4 else "ahead" if xi < 0.6 else "front_right"
            assert item.facts["persistence"] == letter(list(OPTIONS[item.task]).index(band))
            checked += 1
    assert checked >= 2


def test_the_oracle_scores_one_and_the_baselines_are_in_the_table(
    items_folder: Path, tmp_path: Path
) -> None:
    items = read_items(items_folder, SUITE)
    answers = []
    for item in items.items:
        chain = chain_text(item.facts["chain"])
        answers.append(
            {"item_id": item.item_id, "model": "oracle", "variant": "chain", "output": chain}
        )
        answers.append(
            {
                "item_id": item.item_id,
                "model": "oracle",
                "variant": "direct",
                "output": item.facts["answer_text"],
            }
        )
    first = items.items[0]
    answers += [
        {
            "item_id": first.item_id,
            "model": "mumble",
            "variant": "direct",
            "output": "I cannot say.\nSorry.",
        }
    ]
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in answers))
    out = tmp_path / "scores"
    code = main(
        [
            "suite",
            "score",
            "--suite",
            "spatialmind",
            "--items",
            str(items_folder),
            "--answers",
            str(path),
            "--out",
            str(out),
        ]
    )
    assert code == ExitCode.OK
    scores = json.loads((out / "scores.json").read_text())
    rows = {(r["model"], r["variant"]): r for r in scores["rows"]}
    for variant in ("chain", "direct"):
        row = rows[("oracle", variant)]
        assert row["overall"]["mean"] == 1.0
        assert set(row["tasks"]) == set(TASKS)
        assert all(t["mean"] == 1.0 for t in row["tasks"].values())
        assert {level: e["mean"] for level, e in row["breakdowns"]["level"].items()} == {
            "L1": 1.0,
            "L2": 1.0,
            "L3": 1.0,
        }
    for name in ("baseline:persistence", "baseline:chance", *SHORTCUT_ROWS):
        row = rows[(name, "-")]
        assert 0.0 <= row["overall"]["mean"] < 1.0
        assert row["statuses"]["parser_failure"] == 0
    # The battery's verdicts are written beside the table, one per shortcut and task.
    verdicts = {(c["shortcut"], c["task"]) for c in scores["shortcuts"]}
    assert ("keep_going", "ego_future") in verdicts and ("median", "distance_now") in verdicts
    mumble = rows[("mumble", "direct")]
    # The unreadable reply and every unanswered item stay in the denominator at 0.
    assert mumble["overall"]["mean"] == 0.0
    assert mumble["statuses"]["parser_failure"] == 1
    assert mumble["statuses"]["generation_failure"] == len(items.items) - 1
    assert "baseline:persistence" in (out / "table.md").read_text()


def test_prompts_carry_every_frame_and_the_chain_asks_for_the_levels_sections(
    items_folder: Path, tmp_path: Path
) -> None:
    items = read_items(items_folder, SUITE)
    out = tmp_path / "requests.jsonl"
    code = main(
        [
            "suite",
            "prompts",
            "--suite",
            "spatialmind",
            "--items",
            str(items_folder),
            "--out",
            str(out),
            "--variants",
            "direct",
            "chain",
        ]
    )
    assert code == ExitCode.OK
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 * len(items.items)
    by_id = items.by_id()
    for line in lines:
        item_id, variant = parse_request_id(line["custom_id"]).parts
        item = by_id[item_id]
        content = line["body"]["messages"][1]["content"]
        assert [p["type"] for p in content] == ["image_url"] * len(item.inputs) + ["text"]
        text = content[-1]["text"]
        assert item.question in text
        if variant == "chain":
            assert ("FUTURE:" in text) == (item.group["level"] == "L3")
            assert ("DYNAMICS:" in text) == (item.group["level"] != "L1")
            assert line["body"]["max_completion_tokens"] == 1024
        else:
            assert line["body"]["max_completion_tokens"] == 64


def test_video_inputs(clip_set: Path, tmp_path: Path) -> None:
    out = tmp_path / "video-items"
    assert build(clip_set, out, "--spatialmind-inputs", "video") == ExitCode.OK
    items = read_items(out, SUITE)
    assert all(len(i.inputs) == 1 and i.inputs[0].endswith(".mp4") for i in items.items)
    requests = tmp_path / "requests.jsonl"
    assert (
        main(
            [
                "suite",
                "prompts",
                "--suite",
                "spatialmind",
                "--items",
                str(out),
                "--out",
                str(requests),
            ]
        )
        == 0
    )
    first = json.loads(requests.read_text().splitlines()[0])
    part = first["body"]["messages"][1]["content"][0]
    assert part["type"] == "video_url" and part["video_url"]["url"].startswith(
        "data:video/mp4;base64,"
    )
    record = json.loads((out / MESSAGES_FILE).read_text().splitlines()[0])
    assert record["videos"] == list(items.items[0].inputs)
    assert record["messages"][1]["content"].startswith("<video>")


def test_chain_training_records_in_both_layouts(items_folder: Path) -> None:
    items = read_items(items_folder, SUITE)
    openai = [json.loads(line) for line in (items_folder / OPENAI_FILE).read_text().splitlines()]
    layout = [json.loads(line) for line in (items_folder / MESSAGES_FILE).read_text().splitlines()]
    assert len(openai) == len(layout) == 2 * len(items.items)
    for k, item in enumerate(items.items):
        for record, variant in ((openai[2 * k], "chain"), (openai[2 * k + 1], "direct")):
            roles = [m["role"] for m in record["messages"]]
            assert roles == ["system", "user", "assistant"]
            parts = record["messages"][1]["content"]
            assert [p["image_url"]["url"] for p in parts[:-1]] == list(item.inputs)
            assert parts[-1]["text"] == SUITE.prompt(item, variant).text
            reply = record["messages"][2]["content"]
            assert SUITE.grade(item, Reply(item.item_id, "m", variant, reply)).score == 1.0
        chain = openai[2 * k]["messages"][2]["content"].splitlines()
        sections = [line.split(":", 1)[0] for line in chain]
        expected = {"L1": ["GROUND", "CURRENT"], "L2": ["GROUND", "CURRENT", "DYNAMICS"]}.get(
            item.group["level"], ["GROUND", "CURRENT", "DYNAMICS", "FUTURE"]
        )
        assert sections == [*expected, "ANSWER"]
        record = layout[2 * k]
        assert record["images"] == list(item.inputs)
        assert record["messages"][1]["content"].count("<image>") == len(item.inputs)
        assert record["messages"][2]["content"] == openai[2 * k]["messages"][2]["content"]


def test_builds_are_deterministic(clip_set: Path, items_folder: Path) -> None:
    again = items_folder.parent / "items-again"
    assert build(clip_set, again) == ExitCode.OK
    for name in ("items.jsonl", "labels.json", OPENAI_FILE, MESSAGES_FILE):
        assert (again / name).read_bytes() == (items_folder / name).read_bytes(), name


def test_a_split_is_not_a_clip_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.qa.tiny_split import make_split

    split = tmp_path / "split"
    make_split(split)
    (split / "manifest.json").write_text(
        json.dumps({"schema_version": 1, "kind": "spatialbabel-split"})
    )
    assert build(split, tmp_path / "items") == ExitCode.BAD_INPUT
    assert "not a clip set" in capsys.readouterr().err


def _candidates(spec: dict[str, list[str]]) -> dict[str, list[Candidate]]:
    return {
        clip: [
            Candidate("relative_motion", f"{clip}-{k}", "q", label=label)
            for k, label in enumerate(labels)
        ]
        for clip, labels in spec.items()
    }


def test_balance_takes_labels_in_rounds_and_keeps_rare_clips_for_rare_labels() -> None:
    spec = {
        "a": ["approaching", "unchanged"],  # the only clip with "unchanged"
        "b": ["approaching"] * 3,
        "c": ["approaching", "receding"],
        "d": ["approaching", "leftward"],
        "e": ["approaching"],
        "f": ["rightward", "approaching"],
    }
    picked = balance(_candidates(spec), "relative_motion", 1, np.random.default_rng(0))
    labels = sorted(c.label or "" for cs in picked.values() for c in cs)
    assert all(len(cs) <= 1 for cs in picked.values())
    assert labels == sorted(
        ["unchanged", "receding", "leftward", "rightward", "approaching", "approaching"]
    )
    assert picked["a"][0].label == "unchanged"
    two = balance(_candidates(spec), "relative_motion", 2, np.random.default_rng(0))
    # Two a clip would allow 11, but no option runs more than LABEL_LEAD ahead of the rarest
    # (one each): four "approaching" and the four others.
    counts = Counter(c.label for cs in two.values() for c in cs)
    assert LABEL_LEAD == 3
    assert counts == {
        "approaching": 4,
        "unchanged": 1,
        "receding": 1,
        "leftward": 1,
        "rightward": 1,
    }


def test_balance_holds_the_shortcuts_known_from_the_truth_to_their_quota() -> None:
    """Twenty clips each offering a "stop" that persistence (the last interval copied forward)
    gets right and one it gets wrong: the picks keep its hits within a quarter of the items
    (chance among four options) and one more. Where every candidate is a hit (keep_going
    right on all), only that one is taken: the rest are dropped."""
    both = {
        f"clip{k:02d}": [
            Candidate("ego_future", f"{k}-r", "q", label="stop", persistence="stop"),
            Candidate("ego_future", f"{k}-w", "q", label="stop", persistence="left"),
        ]
        for k in range(20)
    }
    chosen = [
        c for cs in balance(both, "ego_future", 1, np.random.default_rng(1)).values() for c in cs
    ]
    assert len(chosen) == 20
    hits = sum(c.persistence == c.label for c in chosen)
    assert 1 <= hits <= 0.25 * 20 + 1
    always = {
        f"clip{k:02d}": [
            Candidate(
                "ego_future",
                f"{k}",
                "q",
                label=label,
                persistence="straight" if label != "straight" else "left",
                shortcuts={"keep_going": label},
            )
        ]
        for k, label in enumerate(["straight", "left", "right", "stop"] * 5)
    }
    taken = [
        c for cs in balance(always, "ego_future", 1, np.random.default_rng(1)).values() for c in cs
    ]
    assert len(taken) == 1


def test_chains_read_as_sentences(items_folder: Path) -> None:
    """No "turns no turn": a turn under half a degree is said as not turning, in every tense."""
    for item in read_items(items_folder, SUITE).items:
        text = chain_text(item.facts["chain"])
        assert not re.search(r"\bturn(s|ed)? no turn\b|\bwill turn no\b", text), text
        assert "no turn" not in text


def test_ego_future_asks_only_a_manoeuvre_the_frames_show(
    clip_set: Path, items_folder: Path
) -> None:
    clips = clips_of(clip_set)
    asked = [i for i in read_items(items_folder, SUITE).items if i.task == "ego_future"]
    assert asked
    for item in asked:
        clip = clips[item.scene_id]
        lead = clip.frames[clip.last_observed].time - clip.meta["manoeuvre_onset"]
        assert lead >= 1.0 - 1e-9
        assert clip.last_observed <= item.facts["t_a"] <= item.facts["t_f"] - 5


def test_more_items_a_clip_never_repeat_a_question(clip_set: Path, tmp_path: Path) -> None:
    out = tmp_path / "three"
    assert build(clip_set, out, "--spatialmind-per-clip", "3") == ExitCode.OK
    items = read_items(out, SUITE).items
    seen: set[tuple[str, str, str]] = set()
    pairs: set[tuple[str, frozenset[int]]] = set()
    for item in items:
        key = (item.scene_id, item.task, item.question)
        assert key not in seen, key
        seen.add(key)
        if item.task == "distance_now" and item.group["kind"] == "pair":
            pair = (item.scene_id, frozenset(item.facts["objects"]))
            assert pair not in pairs, pair
            pairs.add(pair)
    per = Counter((i.scene_id, i.task) for i in items)
    assert max(per.values()) <= 3 and any(n > 1 for n in per.values())


def test_timestamps_in_the_prompt_or_in_the_frames(clip_set: Path, tmp_path: Path) -> None:
    text = tmp_path / "text"
    assert build(clip_set, text, "--spatialmind-timestamps", "text") == ExitCode.OK
    item = read_items(text, SUITE).items[0]
    prompt = SUITE.prompt(item, "direct").text
    assert "image 1 at 0.0 s, image 2 at 0.2 s" in prompt
    assert f"image {len(item.inputs)} at {item.facts['observed_until']:.1f} s" in prompt
    overlay = tmp_path / "overlay"
    assert build(clip_set, overlay, "--spatialmind-timestamps", "overlay") == ExitCode.OK
    stamped = read_items(overlay, SUITE)
    first = stamped.items[0]
    assert all(name.startswith("stamped/") for name in first.inputs)
    assert "shows its time in its top-left corner" in SUITE.prompt(first, "direct").text
    clip = clips_of(clip_set)[first.scene_id]
    for t in (0, len(first.inputs) - 1):
        with Image.open(stamped.input_path(first.inputs[t])) as image:
            drawn = np.array(image.convert("RGB"))
        with Image.open(clip_set / clip.meta["files"]["frames"][t]) as image:
            frame = np.array(image.convert("RGB"))
        # The box holds white text on black; the rest of the frame is untouched.
        corner = drawn[: drawn.shape[0] // 4, : drawn.shape[1] // 2]
        assert (corner == 0).all(axis=-1).any() and (corner > 180).all(axis=-1).any()
        assert not np.array_equal(corner, frame[: frame.shape[0] // 4, : frame.shape[1] // 2])
        assert np.array_equal(drawn[drawn.shape[0] // 2 :], frame[frame.shape[0] // 2 :])
    video = tmp_path / "video"
    flags = ("--spatialmind-timestamps", "overlay", "--spatialmind-inputs", "video")
    assert build(clip_set, video, *flags) == ExitCode.OK
    clip_video = read_items(video, SUITE).items[0].inputs
    assert clip_video == (f"stamped/{first.scene_id}.mp4",)
    assert (video / clip_video[0]).stat().st_size > 0


def test_clips_of_the_first_generator_are_refused(
    clip_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old"
    shutil.copytree(clip_set, old)
    path = sorted((old / "clips").glob("*.json"))[0]
    data = json.loads(path.read_text())
    del data["meta"]["manoeuvre_onset"]
    path.write_text(json.dumps(data))
    assert build(old, tmp_path / "items") == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert path.name in err and "render the clips again" in err
