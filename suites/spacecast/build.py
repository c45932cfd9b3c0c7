"""Building SpaceCast's items from a split: per scene and task, draw the roles, choose the views
(on the state before the change), state the change, recompute the label on the changed state,
and keep the draft if nothing lies within a margin. The split then chooses among each scene's
drafts (``suites.spacecast.selection``: labels balanced, every shortcut held to chance), and
places and words the answers.

Each scene draws from ``SeedSequence([seed, index of the scene in the split])``; a task tries
``ROLE_TRIES`` role draws and keeps the first ``DRAFTS`` valid ones, in order of preference:
those of the wanted kind (a changed relation with chance ``CHANGED_SHARE``, as the paper kept
89 % changed) first, then the one whose label the split has used least so far.

Every object a question needs is shown: the queried objects, the moved or removed object and the
pivot of an orbit are each *seen* in some view of the item (``ViewTable.linkable``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from spatialbabel import Camera, Scene
from spatialbabel.geometry.directions import (
    CARDINALS,
    SECTORS,
    camera_forward,
    forward_of_sector,
    ground,
    sectors,
    unit,
)
from spatialbabel.geometry.occlusion import OCCLUSION_STATES, ViewCaster, occlusion_state
from spatialbabel.geometry.raycast import pair_hits
from spatialbabel.geometry.transforms import ChangeCheck, component, move, remove, turn_layout
from suites.spacecast import text
from suites.spacecast.labels import (
    ABOVE,
    BELOW,
    DISTANCE_BINS,
    OCCLUSION_LARGE,
    OCCLUSION_STRIDE,
    direction_label,
    distance_label,
    moving_with,
    occlusion_count,
    occlusion_label,
)
from suites.spacecast.tasks import FRAMES, TASK_NAMES, TASKS, Frame, Task
from suites.spacecast.views import (
    ABSENT,
    REFERABLE,
    UNSETTLED,
    Chain,
    ViewTable,
    cross_view_chain,
)

ROLE_TRIES: Final = 12
DRAFTS: Final = 5
#: Views whose exact occlusion is cast per role draw of an occlusion task.
OCCLUSION_VIEWS: Final = 3
#: Share of the local and global items whose change alters the relation, as in the paper
#: (2,217 of 2,494, 88.9 %).
CHANGED_SHARE: Final = 0.89
#: Parameter draws tried per change (a move's distance and heading, an orbit's pivot and
#: angle, a turn's angle) for one that alters the relation, or keeps it, as wanted.
CHANGE_TRIES: Final = 3
#: Changes tried per root for a pairwise occlusion question (two objects' casts are cheap),
#: and the pixel stride of the casts that rank them.
PAIR_TRIES: Final = 8
PAIR_STRIDE: Final = 6
MOVE_DISTANCES: Final = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
ORBIT_ANGLES: Final = (45, 90, 135, 180)
TURN_ANGLES: Final = (90, 180, 270)
#: Changes tried per root for a direction or distance question (their labels are cheap).
LABEL_TRIES: Final = 12
#: Metres between an object and the one it faces, for the facing to be well defined.
FACING_DISTANCE: Final = 0.5
_CORNER_BITS: Final = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)])


@dataclass
class Draft:
    """One question before its options are placed and worded."""

    task: Task
    scene_id: str
    roles: dict[str, str]
    views: tuple[Camera, ...]
    label: str
    before: str | None
    wrong: list[str]
    change: dict[str, Any] = field(default_factory=dict)
    frame: Frame | None = None
    facing: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    answer_set: tuple[str, ...] = ()
    options_fixed: tuple[str, ...] = ()

    @property
    def changed(self) -> bool | None:
        if self.task.change == "none":
            return None
        return self.label != self.before


class SceneBuilder:
    """The drafts of one scene."""

    def __init__(self, scene: Scene, cameras: Sequence[Camera], rng: np.random.Generator) -> None:
        self.scene = scene
        self.rng = rng
        self.cameras = tuple(cameras)
        names = Counter((o.color, o.class_name) for o in scene.objects)
        self.named = [o.id for o in scene.objects if names[(o.color, o.class_name)] == 1]
        self.caster = ViewCaster(self.cameras)
        self.check = ChangeCheck(scene)
        self._table: ViewTable | None = None
        self._named_presence: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None
        self._bins: dict[tuple[str, ...], str | None] = {}

    @property
    def table(self) -> ViewTable:
        if self._table is None:
            self._table = ViewTable.measure(self.scene, self.caster, self.named)
        return self._table

    def _shown(self, views: Sequence[Camera]) -> set[str]:
        """The named objects some of ``views`` shows seen."""
        return {o for o in self.named if any(self.table.seen(v.name, o) for v in views)}

    def obj(self, object_id: str) -> Any:
        return self.scene.get_object(object_id)

    def _apart(self) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Per candidate view and named object: shown referable, and maybe absent (by the
        survey; an unsettled one may be either)."""
        if self._named_presence is None:
            columns = [self.table.index(o) for o in self.named]
            codes = self.table.codes[:, columns]
            self._named_presence = (
                codes == REFERABLE,
                (codes == ABSENT) | (codes == UNSETTLED),
            )
        return self._named_presence

    def _cross_pair(self) -> tuple[str, str] | None:
        """Two named objects such that some view may show each without the other (else no
        cross-view chain joins them), drawn uniformly among such pairs."""
        shown, hidden = self._apart()
        apart = (shown.T.astype(np.intp) @ hidden.astype(np.intp)) > 0
        apart &= apart.T
        np.fill_diagonal(apart, False)
        pairs = np.argwhere(apart)
        if not len(pairs):
            return None
        a, b = pairs[int(self.rng.integers(len(pairs)))]
        return self.named[int(a)], self.named[int(b)]

    def _cross_pairs(self) -> list[tuple[str, str]]:
        """Every pair ``_cross_pair`` may draw, each way round."""
        shown, hidden = self._apart()
        apart = (shown.T.astype(np.intp) @ hidden.astype(np.intp)) > 0
        apart &= apart.T
        np.fill_diagonal(apart, False)
        return [(self.named[int(a)], self.named[int(b)]) for a, b in np.argwhere(apart)]

    def _bin_of(self, pair: tuple[str, str]) -> str | None:
        key = tuple(sorted(pair))
        if key not in self._bins:
            self._bins[key] = distance_label(self.scene, *pair)[0]
        return self._bins[key]

    def _facing(self, target: str, reference: str) -> str | None:
        """A third named object to face from ``reference``: some view may show it with the
        reference but not the target, and some the target without either."""
        shown, hidden = self._apart()
        t, r = self.named.index(target), self.named.index(reference)
        fits = ((shown[:, r] & hidden[:, t])[:, None] & shown).any(axis=0) & (
            (shown[:, t] & hidden[:, r])[:, None] & hidden
        ).any(axis=0)
        fits[[t, r]] = False
        choices = np.flatnonzero(fits)
        if not len(choices):
            return None
        return self.named[int(choices[int(self.rng.integers(len(choices)))])]

    def _root_movers(
        self, roles: Sequence[str], other: Sequence[str], shuffle: bool = True
    ) -> list[str]:
        """The named roots of ``roles`` whose components hold none of ``other``, in random
        order (or in the roles' order)."""
        roots: list[str] = []
        for role in self.rng.permutation(list(roles)) if shuffle else roles:
            root = self.scene.root_of(str(role))
            if (
                root in self.named
                and root not in roots
                and not set(component(self.scene, root)) & set(other)
            ):
                roots.append(root)
        return roots

    # -- changes ----------------------------------------------------------------------------

    def _shifts(
        self, kind: str, root: str, north: NDArray[np.float64], shown: set[str] | None = None
    ) -> list[tuple[dict[str, Any], float, float]]:
        """Every move (``MOVE_DISTANCES`` towards the 8 compass points) or orbit (about every
        other named object of ``shown``, by ``ORBIT_ANGLES`` either way) of ``root``: the
        change's words and the shift on the ground it gives ``root`` and what rests on it."""
        found: list[tuple[dict[str, Any], float, float]] = []
        if kind == "move":
            for distance in MOVE_DISTANCES:
                for toward in range(8):
                    dx, dz = forward_of_sector(toward, north) * distance
                    info = {"kind": "move", "object": root, "distance": float(distance)}
                    found.append(({**info, "toward": CARDINALS[toward]}, float(dx), float(dz)))
            return found
        moving = set(component(self.scene, root))
        x, _, z = self.obj(root).position
        pivots = [o for o in self.named if o not in moving and (shown is None or o in shown)]
        if not pivots:
            return found
        centres = np.array([ground(self.obj(o).position) for o in pivots])
        degrees = np.array([sense * float(a) for a in ORBIT_ANGLES for sense in (1, -1)])
        # turn() for every pivot and angle at once: (x, z) -> (x cos + z sin, -x sin + z cos).
        cos, sin = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
        ox, oz = x - centres[:, 0:1], z - centres[:, 1:2]
        dx = centres[:, 0:1] + ox * cos + oz * sin - x
        dz = centres[:, 1:2] - ox * sin + oz * cos - z
        for p, pivot in enumerate(pivots):
            for a, angle in enumerate(degrees.tolist()):
                info = {"kind": "orbit", "object": root, "pivot": pivot, "degrees_ccw": angle}
                found.append((info, float(dx[p, a]), float(dz[p, a])))
        return found

    def _trials(
        self,
        kind: str,
        root: str | None,
        north: NDArray[np.float64],
        want: bool | None,
        predict: Callable[[str, NDArray[np.float64]], NDArray[np.intp]] | None,
        shown: set[str] | None = None,
        tries: int = CHANGE_TRIES,
    ) -> list[tuple[Scene | None, dict[str, Any]]]:
        """Up to ``CHANGE_TRIES`` changes of ``kind`` to try, in random order: moves and orbits
        that fit (``ChangeCheck.fits``) and that ``predict`` from their shifts to alter the
        relation (1) or keep it (0) as wanted first, those it finds unusable (-1) last. A move
        or orbit comes as its words with its shift (the scene is made when it is tried)."""
        scene = self.scene
        if kind == "turn":
            trials: list[tuple[Scene | None, dict[str, Any]]] = []
            for pick in self.rng.permutation(2 * len(TURN_ANGLES))[:CHANGE_TRIES]:
                angle = TURN_ANGLES[int(pick) // 2]
                degrees = float(angle if pick % 2 else -angle)
                trials.append((None, {"kind": "turn", "degrees_ccw": degrees}))
            return trials
        assert root is not None
        riders = list(scene.descendants(root))
        if kind == "remove":
            return [(remove(scene, root), {"kind": "remove", "object": root, "with": riders})]
        shifts = self._shifts(kind, root, north, shown)
        if not shifts:
            return []
        order = self.rng.permutation(len(shifts))
        moves = np.array([[shifts[i][1], shifts[i][2]] for i in order])
        fits = self.check.fits(component(scene, root), moves)
        order, moves = order[fits], moves[fits]
        if predict is not None and len(order) and want is not None:
            guess = predict(root, moves)
            rank = np.where(guess == int(want), 0, np.where(guess < 0, 2, 1))
            order = order[np.argsort(rank, kind="stable")]
        return [
            (None, {**shifts[i][0], "with": riders, "dx": shifts[i][1], "dz": shifts[i][2]})
            for i in order[:tries].tolist()
        ]

    def _change(
        self,
        kind: str,
        roots: Sequence[str | None],
        north: NDArray[np.float64],
        want: bool | None,
        judge: Callable[[Scene, dict[str, Any]], tuple[bool, Any] | None] | None,
        predict: Callable[[str, NDArray[np.float64]], NDArray[np.intp]] | None = None,
        shown: set[str] | None = None,
        tries: int = CHANGE_TRIES,
    ) -> tuple[Scene, dict[str, Any], Any] | None:
        """A valid change of ``kind`` (a root and what rests on it moved, orbited or taken
        away; the layout turned) that alters the relation, or keeps it, as wanted. ``judge``
        tells of a changed state whether it does and what to keep of it (None: unusable; no
        judge: every valid change is taken as it comes). Root by root (``roots``, or none for
        a turn), the first of the ``_trials`` judged as wanted, else the first usable one. An
        orbit's pivot is one of ``shown`` (all named objects if None)."""
        fallback = None
        for root in roots:
            for after, info in self._trials(kind, root, north, want, predict, shown, tries):
                if after is None and kind == "turn":
                    after = turn_layout(self.scene, info["degrees_ccw"])
                    if self.check.problems(after):
                        continue
                elif after is None:
                    # Moves and orbits were checked by ``ChangeCheck.fits``; a removal cannot
                    # leave the ground or make a collision.
                    after = move(self.scene, info["object"], info["dx"], info["dz"])
                verdict = (want, None) if judge is None else judge(after, info)
                info = {k: v for k, v in info.items() if k not in ("dx", "dz")}
                if verdict is None:
                    continue
                changed, kept = verdict
                if want is None or changed == want:
                    return after, info, kept
                if fallback is None:
                    fallback = (after, info, kept)
        return fallback

    # -- views ------------------------------------------------------------------------------

    def _chain(
        self, first: list[str], second: list[str]
    ) -> tuple[Chain, tuple[list[str], list[str]]] | None:
        """A cross-view chain between two groups, either group first (drawn): which of them
        image 1 shows, and which the last image, is no hint to the answer."""
        groups = (first, second) if self.rng.random() < 0.5 else (second, first)
        chain = cross_view_chain(self.table, groups[0], groups[1], self.rng)
        return None if chain is None else (chain, groups)

    @staticmethod
    def _chain_facts(chain: Chain, anchors: tuple[list[str], list[str]]) -> dict[str, Any]:
        return {
            "anchors": {"first": list(anchors[0]), "last": list(anchors[1])},
            "chain_coverage": [list(c) for c in chain.coverage],
            "shared": [list(s) for s in chain.shared],
        }

    # -- the tasks --------------------------------------------------------------------------

    def direction(self, task: Task, frame: Frame, want: bool | None = None) -> Draft | None:
        pair = self._cross_pair()
        if pair is None:
            return None
        target, reference = pair
        facing: dict[str, Any] = {}
        first = [reference]
        if frame == "object" and task.change != "turn":
            toward = self._facing(target, reference)
            if toward is None:
                return None
            facing = {"object": toward}
            first.append(toward)
        found = self._chain(first, [target])
        if found is None:
            return None
        chain, anchors = found
        views = tuple(self.table.camera(n) for n in chain.views)
        shown = self._shown(views)
        roots: list[str | None] = [None]
        if task.change in ("move", "orbit"):
            roots = [r for r in self._root_movers([target, reference], []) if r in shown]
            if not roots:
                return None
        north = camera_forward(views[0])
        if frame == "object" and task.change == "turn":
            facing = {"cardinal": int(self.rng.integers(8))}

        def forward(state: Scene) -> NDArray[np.float64] | None:
            if frame == "camera":
                return camera_forward(views[-1])
            if frame == "world":
                return north
            if "cardinal" in facing:
                return forward_of_sector(facing["cardinal"], north)
            offset = ground(state.get_object(facing["object"]).position) - ground(
                state.get_object(reference).position
            )
            if np.linalg.norm(offset) < FACING_DISTANCE:
                return None
            return unit(offset)

        world = frame == "world"

        def label_of(state: Scene) -> str | None:
            ahead = forward(state)
            if ahead is None:
                return None
            return direction_label(state, target, reference, ahead, world=world)

        before = label_of(self.scene)
        # A chain cannot show one object of a stack without the other: no above or below.
        if before is None or before in (ABOVE, BELOW):
            return None
        ring = list(CARDINALS if world else SECTORS)
        label, info = before, dict[str, Any]()
        if task.change != "none":

            def judge(state: Scene, _: dict[str, Any]) -> tuple[bool, Any] | None:
                """Whether the change alters the sector, and to what. A change by one sector
                (45 degrees) counts as altering only when keeping is wanted: the options are
                90 degrees apart, so the sector before it lies between two options, one of
                them right, and reading it as the nearer option would pass half such items."""
                after = label_of(state)
                if after is None or after in (ABOVE, BELOW):
                    return None
                step = (ring.index(after) - ring.index(before)) % 8
                return (step not in (0, 1, 7) if want else step != 0), after

            def predict(root: str, shifts: NDArray[np.float64]) -> NDArray[np.intp]:
                """Whether the sector after each shift differs, from the centres alone."""
                moving = set(component(self.scene, root))

                def at(object_id: str) -> NDArray[np.float64]:
                    spot = ground(self.obj(object_id).position)
                    return (
                        spot + shifts
                        if object_id in moving
                        else np.broadcast_to(spot, shifts.shape)
                    )

                if frame == "object" and "object" in facing:
                    ahead: NDArray[np.float64] = at(facing["object"]) - at(reference)
                    far = np.linalg.norm(ahead, axis=1) >= FACING_DISTANCE
                    ahead = np.where(far[:, None], ahead, 1.0)
                else:
                    ahead = np.broadcast_to(forward(self.scene), shifts.shape)  # type: ignore[arg-type]
                    far = np.ones(len(shifts), dtype=bool)
                found = sectors(at(target) - at(reference), ahead)
                step = (found - ring.index(before)) % 8
                altered = ~np.isin(step, (0, 1, 7)) if want else step != 0
                return np.where((found < 0) | ~far, -1, altered.astype(np.intp))

            changed = self._change(
                task.change, roots, north, want, judge, predict, shown, LABEL_TRIES
            )
            if changed is None:
                return None
            _, info, label = changed
        k = ring.index(label)
        wrong = [ring[(k + 2 * j) % 8] for j in (1, 2, 3)]
        return Draft(
            task,
            self.scene.scene_id,
            {
                "target": target,
                "reference": reference,
                **({"facing": facing["object"]} if "object" in facing else {}),
            },
            views,
            label,
            before,
            wrong,
            change=info,
            frame=frame,
            facing=facing,
            facts=self._chain_facts(chain, anchors),
        )

    def distance(
        self, task: Task, want: bool | None = None, wanted: str | None = None
    ) -> Draft | None:
        """The distance bin of two objects; with ``wanted`` (a question without a change),
        a pair in that bin is drawn first where there is one (pairs shown apart are mostly
        far apart)."""
        pair = self._cross_pair()
        if pair is not None and wanted is not None:
            within = [p for p in self._cross_pairs() if self._bin_of(p) == wanted]
            if within and self.rng.random() < 0.7:
                pair = within[int(self.rng.integers(len(within)))]
        if pair is None:
            return None
        first, second = pair
        before, metres = distance_label(self.scene, first, second)
        if before is None:
            return None
        found = self._chain([first], [second])
        if found is None:
            return None
        chain, anchors = found
        views = tuple(self.table.camera(n) for n in chain.views)
        shown = self._shown(views)
        roots: list[str | None] = [None]
        if task.change in ("move", "orbit"):
            roots = [r for r in self._root_movers(pair, []) if r in shown]
            if not roots:
                return None
        label, info = before, dict[str, Any]()
        if task.change != "none":

            def judge(state: Scene, _: dict[str, Any]) -> tuple[bool, Any] | None:
                found = distance_label(state, first, second)
                return None if found[0] is None else (found[0] != before, found)

            changed = self._change(
                task.change, roots, camera_forward(views[0]), want, judge, None, shown, LABEL_TRIES
            )
            if changed is None:
                return None
            _, info, (label, metres) = changed
        return Draft(
            task,
            self.scene.scene_id,
            {"first": first, "second": second},
            views,
            label,
            before,
            [b for b in DISTANCE_BINS if b != label],
            change=info,
            facts={"distance": round(metres, 6), **self._chain_facts(chain, anchors)},
        )

    def occlusion(self, task: Task, wanted: str | None, want: bool | None = None) -> Draft | None:
        """An occlusion question of ``task``'s kind, aiming at the ``wanted`` state."""
        if task.change in ("move", "orbit"):
            return self.pair_occlusion(task, wanted, want)
        if task.change == "remove":
            return self.removal_occlusion(task, wanted, want)
        return self.static_occlusion(task, wanted)

    def _target_views(self, wanted: str | None) -> list[tuple[int, str]]:
        """Views (numbers) and named targets they frame wholly and hold some of, in random
        order; those the survey grid guesses in the ``wanted`` state first."""
        framed = np.array([self.caster.in_frame(self.obj(o), 2) for o in self.named]).T
        columns = [self.table.index(o) for o in self.named]
        full = self.table.full[:, columns]
        found = np.argwhere(framed.reshape(full.shape) & (full > 0))
        order = self.rng.permutation(len(found))
        pairs = [(int(found[k][0]), self.named[int(found[k][1])]) for k in order]
        if wanted is not None:
            pairs.sort(key=lambda pair: self._guess(*pair) != wanted)
        return pairs

    def _guess(self, c: int, target: str) -> str:
        """The survey grid's guess of a target's state, so that the exact casts run only where
        they may pay."""
        index = self.table.index(target)
        full, visible = int(self.table.full[c, index]), int(self.table.visible[c, index])
        if visible == full:
            return "not occluded"
        return "not visible" if visible == 0 else "partly occluded"

    def static_occlusion(self, task: Task, wanted: str | None) -> Draft | None:
        """The state of one target in one view."""
        tried = 0
        for c, target in self._target_views(wanted):
            tried += 1
            if tried > OCCLUSION_VIEWS:
                return None
            label = occlusion_label(self.caster, self.scene, target, c)
            if label is None:
                continue
            return Draft(
                task,
                self.scene.scene_id,
                {"target": target},
                (self.cameras[c],),
                label,
                None,
                [s for s in OCCLUSION_STATES if s != label],
            )
        return None

    def removal_occlusion(self, task: Task, wanted: str | None, want: bool | None) -> Draft | None:
        """The state of one target in view 1 after an object seen there is taken away (with
        what rests on it). The target may be hidden in view 1 (removing an object reveals,
        never hides, so an item about a target seen there could never be 'not visible'); a
        second view, sharing an object with view 1, shows it seen."""
        if wanted == "not visible":
            # Only a target hidden before stays hidden: the change keeps the relation.
            want = False
        # The state before that can end in the wanted one, changed or kept as wanted:
        # hidden -> partly seen, partly (or hidden) -> wholly seen.
        start = wanted
        if want and wanted == "partly occluded":
            start = "not visible"
        elif want and wanted == "not occluded":
            start = "partly occluded"
        tried = 0
        for c, target in self._target_views(start):
            camera, index = self.cameras[c], self.table.index(target)
            # Taking an object away alters a target nothing hides in no way.
            if want and self._guess(c, target) == "not occluded":
                continue
            seconds = [
                v
                for v in np.flatnonzero(self.table.linkable[:, index] & self.table.links[c])
                if v != c
            ]
            if not seconds:
                continue
            tried += 1
            if tried > OCCLUSION_VIEWS:
                return None
            counted = occlusion_count(self.caster, self.scene, target, c)
            before = occlusion_state(counted)
            if before is None:
                continue
            seen_here = [
                o
                for o in self._nearby(target, camera)
                if self.table.seen(camera.name, o) and target not in component(self.scene, o)
            ]
            hiding = [o for o in seen_here if o in counted.covers]
            clear = [o for o in seen_here if o not in counted.covers]
            movers = (hiding + clear) if want is not False else (clear + hiding)
            best: tuple[tuple[bool, bool], str, str] | None = None
            for remover in movers[:CHANGE_TRIES]:
                found = occlusion_label(self.caster, remove(self.scene, remover), target, c)
                if found is None:
                    continue
                rank = ((found != before) != want, wanted is not None and found != wanted)
                if best is None or rank < best[0]:
                    best = (rank, remover, found)
            if best is None:
                continue
            _, remover, label = best
            second = self.cameras[int(seconds[int(self.rng.integers(len(seconds)))])]
            info = {
                "kind": "remove",
                "object": remover,
                "with": list(self.scene.descendants(remover)),
            }
            return Draft(
                task,
                self.scene.scene_id,
                {"target": target},
                (camera, second),
                label,
                before,
                [s for s in OCCLUSION_STATES if s != label],
                change=info,
                facts={"shared": [list(self.table.shared(camera.name, second.name))]},
            )
        return None

    def _pair_state(self, state: Scene, occluder: str, target: str, c: int) -> str | None:
        """How much of ``target`` the ``occluder`` hides from camera ``c``, the two alone."""
        pair = (state.get_object(occluder), state.get_object(target))
        counted = self.caster.count(pair, 1, c, OCCLUSION_STRIDE, large=OCCLUSION_LARGE)
        return occlusion_state(counted)

    def pair_occlusion(self, task: Task, wanted: str | None, want: bool | None) -> Draft | None:
        """Whether one object occludes another after a move or an orbit (the paper's directed
        pairwise occlusion): the state of the target with the occluder alone in front of it,
        from view 1, which shows both and the moved object seen. An orbit's item adds a second
        view, sharing an object with view 1, and its pivot is seen in one of the two. The
        occluder is the nearer of the two and ends nearer the camera than the target, so the
        depth order alone never gives the answer."""
        tried = 0
        for c in [int(i) for i in self.rng.permutation(len(self.cameras))]:
            here = [o for o in self.named if self.table.linkable[c, self.table.index(o)]]
            if len(here) < 2:
                continue
            pair = self._pair_roles(c, here, wanted)
            if pair is None:
                continue
            roots = [
                r
                for r in self._root_movers(list(pair), [])
                if r in here and not set(pair) <= set(component(self.scene, r))
            ]
            if not roots:
                continue
            shown = set(here)
            seconds: list[int] = []
            if task.change == "orbit":
                seconds = [int(v) for v in np.flatnonzero(self.table.links[c]) if v != c]
                if not seconds:
                    continue
                shown |= self._shown([self.cameras[v] for v in seconds])
            tried += 1
            if tried > OCCLUSION_VIEWS:
                return None
            draft = self._pair_draft(task, c, pair, roots, shown, wanted, want)
            if draft is None:
                continue
            if seconds:
                pivot = draft.change["pivot"]
                fits = [
                    v
                    for v in seconds
                    if pivot in here or self.table.linkable[v, self.table.index(pivot)]
                ]
                second = self.cameras[fits[int(self.rng.integers(len(fits)))]]
                draft.views = (self.cameras[c], second)
                draft.facts["shared"] = [list(self.table.shared(self.cameras[c].name, second.name))]
            return draft
        return None

    def _pair_roles(self, c: int, here: list[str], wanted: str | None) -> tuple[str, str] | None:
        """Two objects view ``c`` shows seen, the nearer first (the occluder), the target wholly
        in frame. To hide all of the target, the occluder must look the larger: for that state
        only such pairs are drawn."""
        eye = np.asarray(self.cameras[c].pose[:3, 3], dtype=float)
        ranked = sorted(
            here, key=lambda o: float(np.linalg.norm(np.asarray(self.obj(o).position) - eye))
        )
        pairs = [
            (a, b)
            for i, a in enumerate(ranked)
            for b in ranked[i + 1 :]
            if self.caster.in_frame(self.obj(b), 2)[c]
        ]
        if wanted == "not visible":
            size = {
                o: float(
                    np.prod(
                        np.diff(self.caster.framing(self.obj(o)).corners[c].reshape(2, 2), axis=0)
                    )
                )
                for o in here
            }
            pairs = [(a, b) for a, b in pairs if size[a] > size[b]]
        if not pairs:
            return None
        return pairs[int(self.rng.integers(len(pairs)))]

    def _pair_draft(
        self,
        task: Task,
        c: int,
        pair: tuple[str, str],
        roots: list[str],
        here: set[str],
        wanted: str | None,
        want: bool | None,
    ) -> Draft | None:
        """``pair_occlusion`` in camera ``c`` for ``pair`` (occluder, target): root by root,
        the moves or orbits that fit, ranked by how well the two objects' image boxes after
        them match the wanted state; the first ``PAIR_TRIES`` cast exactly, the first of the
        wanted state and kind kept, else the first usable one."""
        occluder, target = pair
        camera = self.cameras[c]
        before = self._pair_state(self.scene, occluder, target, c)
        if before is None:
            return None
        eye = np.asarray(camera.pose[:3, 3], dtype=float)
        fallback: tuple[dict[str, Any], str] | None = None
        for root in roots:
            shifts = self._shifts(task.change, root, camera_forward(camera), here)
            if not shifts:
                continue
            moves = np.array([[dx, dz] for _, dx, dz in shifts])
            fits = np.flatnonzero(self.check.fits(component(self.scene, root), moves))
            if not len(fits):
                continue
            score = self._pair_score(camera, pair, root, moves[fits], wanted)
            order = np.lexsort((self.rng.random(len(fits)), score))[:PAIR_TRIES]
            for k in fits[order[np.isfinite(score[order])]].tolist():
                info, dx, dz = shifts[k]
                after = move(self.scene, root, dx, dz)
                ahead, behind = (np.asarray(after.get_object(o).position) for o in pair)
                if np.linalg.norm(ahead - eye) >= np.linalg.norm(behind - eye):
                    continue
                if not self.caster.in_frame(after.get_object(target), 2)[c]:
                    continue
                found = self._pair_state(after, occluder, target, c)
                if found is None:
                    continue
                info = {**info, "with": list(self.scene.descendants(root))}
                if (found != before) == want and (wanted is None or found == wanted):
                    return self._pair(task, camera, pair, before, info, found)
                if fallback is None:
                    fallback = (info, found)
        return None if fallback is None else self._pair(task, camera, pair, before, *fallback)

    def _pair(
        self,
        task: Task,
        camera: Camera,
        pair: tuple[str, str],
        before: str,
        info: dict[str, Any],
        label: str,
    ) -> Draft:
        return Draft(
            task,
            self.scene.scene_id,
            {"occluder": pair[0], "target": pair[1]},
            (camera,),
            label,
            before,
            [s for s in OCCLUSION_STATES if s != label],
            change=info,
        )

    def _pair_score(
        self,
        camera: Camera,
        pair: tuple[str, str],
        root: str,
        shifts: NDArray[np.float64],
        wanted: str | None,
    ) -> NDArray[np.float64]:
        """Per shift of ``root``'s component (which holds one of the two): how far the share of
        the target that the occluder hides lies from the wanted state's (none; some; all), by
        rays through the target's pixels every ``PAIR_STRIDE`` (moving either object moves it
        against the other, and the target's own pixels keep their hits when the camera's view
        of it is unchanged); inf where the occluder would not end nearer the camera."""
        occluder, target = pair
        c = self.caster.index[camera.name]
        eye = np.asarray(camera.pose[:3, 3], dtype=float)
        sign = 1.0 if occluder in set(component(self.scene, root)) else -1.0
        offsets = np.zeros((len(shifts), 3))
        offsets[:, [0, 2]] = sign * shifts
        ahead = np.asarray(self.obj(occluder).position) + offsets
        nearer = np.linalg.norm(ahead - eye, axis=1) < np.linalg.norm(
            np.asarray(self.obj(target).position) - eye
        )
        box = self.caster.grid_box(self.obj(target), c, PAIR_STRIDE)
        if box is None:
            return np.full(len(shifts), np.inf)
        (own,) = self.caster.casts([(self.obj(target), box)], c, PAIR_STRIDE)
        origins, directions = self.caster.rays(c, PAIR_STRIDE, box)
        hit = np.isfinite(own.reshape(-1))
        if not hit.any():
            return np.full(len(shifts), np.inf)
        starts = origins[hit][None] - offsets[:, None]
        ahead_t = pair_hits(
            [self.obj(occluder)],
            np.zeros(starts.shape[0] * starts.shape[1], dtype=np.intp),
            starts.reshape(-1, 3),
            np.broadcast_to(directions[hit][None], starts.shape).reshape(-1, 3),
        ).reshape(len(shifts), -1)
        share = (ahead_t < own.reshape(-1)[hit][None]).mean(axis=1)
        goal = {
            "not occluded": (0.0, 0.0),
            "partly occluded": (0.15, 0.85),
            "not visible": (1.0, 1.0),
        }
        low, high = goal.get(wanted or "", (0.0, 1.0))
        gap = np.maximum(np.maximum(low - share, share - high), 0.0)
        return np.where(nearer, gap, np.inf)

    def _nearby(self, target: str, camera: Camera) -> list[str]:
        """Named objects other than ``target`` by how close they appear to it in ``camera``,
        the nearest first (the likeliest to cover it, or to be moved in front of it)."""
        others = [o for o in self.named if o != target]
        uv, depth = camera.project(
            np.array([self.obj(o).position for o in [target, *others]], dtype=float)
        )
        gaps = np.linalg.norm(uv[1:] - uv[0], axis=1)
        ahead = [i for i in np.argsort(gaps, kind="stable") if depth[i + 1] > 0]
        return [others[i] for i in ahead]

    def attachment(self, task: Task, wanted: int | None) -> Draft | None:
        if not any(o.parent is not None for o in self.scene.objects):
            return None
        roots = list(self.named)
        self.rng.shuffle(roots)
        if wanted is not None:
            # Roots carrying the wanted number of objects first (stable: the draw's order).
            roots.sort(key=lambda r: min(len(self.scene.descendants(r)), 3) != wanted)
        for root in roots:
            carried = [d for d in self.scene.descendants(root) if d in self.named]
            if len(carried) != len(self.scene.descendants(root)):
                continue
            others = [o for o in self.named if o != root and o not in carried]
            # A root may carry more than is offered (the wanted count): "none of these" then
            # asks to see what rests on it and that none of it is offered.
            true_count = min(len(carried), 3, 3 if wanted is None else wanted)
            chosen = [carried[int(i)] for i in self.rng.permutation(len(carried))[:true_count]]
            need = 3 - len(chosen)
            if len(others) < need:
                continue
            # Distractors: what the root rests on, and what rests elsewhere, first.
            parent = self.obj(root).parent
            ranked = sorted(
                others,
                key=lambda o: (
                    o != parent,
                    self.obj(o).parent is None and not self.scene.children(o),
                    self.rng.random(),
                ),
            )
            options = chosen + ranked[:need]
            options = [options[int(i)] for i in self.rng.permutation(3)]
            view = self._showing([root, *options])
            if view is None:
                continue
            answer = tuple(o for o in options if o in moving_with(self.scene, root))
            return Draft(
                task,
                self.scene.scene_id,
                {"root": root, "options": ",".join(options)},
                (view,),
                ",".join(answer) if answer else text.NONE_OPTION,
                None,
                [],
                answer_set=answer,
                options_fixed=tuple(options),
            )
        return None

    def most_carried(self) -> int:
        """The most objects (up to 3) a named object carries, all of them named."""
        counts = [
            min(len(carried), 3)
            for carried in (self.scene.descendants(o) for o in self.named)
            if all(d in self.named for d in carried)
        ]
        return max(counts, default=0)

    def _showing(self, objects: Sequence[str]) -> Camera | None:
        for camera in self.cameras:
            if all(self.table.shows(camera.name, o) == "referable" for o in objects):
                return camera
        return None


@dataclass
class SplitBalance:
    """Label counts so far per task, to draw the least used next."""

    labels: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    frames: Counter[str] = field(default_factory=Counter)

    def least(self, task: str, choices: Sequence[str]) -> str:
        counts = self.labels[task]
        return min(choices, key=lambda c: (counts[c], choices.index(c)))


#: Answer sets of an attachment item per number of offered objects that move: none ("none of
#: these"), any one of three, any two, all three. Uniform answer sets (chance 1/8) need the
#: counts drawn in these proportions.
ATTACHMENT_SETS_BY_COUNT: Final = (1, 3, 3, 1)


def tag(draft: Draft) -> str:
    """What a task's labels are balanced over: the label, or an attachment's answer set (the
    letters of the offered objects that move, "D" for none)."""
    if draft.task.relation != "attachment":
        return draft.label
    letters = "".join("ABC"[i] for i, o in enumerate(draft.options_fixed) if o in draft.answer_set)
    return letters or "D"


def scene_drafts(
    scene: Scene, cameras: Sequence[Camera], rng: np.random.Generator, balance: SplitBalance
) -> list[list[Draft]]:
    """Each task's drafts (up to ``DRAFTS``, none where none is found), best first. A task with
    a change first draws the kind it wants (a changed relation with chance ``CHANGED_SHARE``,
    else a kept one) and the label the split has used least; it draws roles until it holds
    ``DRAFTS`` drafts (or ``ROLE_TRIES`` draws are spent). The best is one of the wanted kind
    whose label the split has used least; the split counts it as used (the split's selection
    may yet choose another, ``suites.spacecast.selection``)."""
    builder = SceneBuilder(scene, cameras, rng)
    drafts: list[list[Draft]] = []
    for name in TASK_NAMES:
        task = TASKS[name]
        counts = balance.labels[name]
        want = None if task.change == "none" else bool(rng.random() < CHANGED_SHARE)
        found: list[Draft] = []
        for _ in range(ROLE_TRIES):
            draft: Draft | None
            if task.relation == "direction":
                frame: Frame = (
                    task.frame
                    if task.frame is not None
                    else min(FRAMES, key=lambda f: (balance.frames[f"{name}/{f}"], FRAMES.index(f)))
                )
                draft = builder.direction(task, frame, want)
            elif task.relation == "distance":
                wanted_bin = balance.least(name, list(DISTANCE_BINS)) if want is None else None
                draft = builder.distance(task, want, wanted_bin)
            elif task.relation == "occlusion":
                draft = builder.occlusion(task, balance.least(name, list(OCCLUSION_STATES)), want)
            else:
                used = [0, 0, 0, 0]
                for key, n in counts.items():
                    used[0 if key == "D" else len(key)] += n
                wanted = min(
                    range(builder.most_carried() + 1),
                    key=lambda k: (used[k] / ATTACHMENT_SETS_BY_COUNT[k], k),
                )
                draft = builder.attachment(task, wanted)
            if draft is not None:
                found.append(draft)
                # Enough drafts, one at least of the wanted kind (else draw on).
                if len(found) >= DRAFTS and any(d.changed == want for d in found):
                    break
        found.sort(key=lambda d: (d.changed != want, counts[tag(d)]))
        if found:
            counts[tag(found[0])] += 1
            if found[0].frame is not None:
                balance.frames[name + "/" + found[0].frame] += 1
        drafts.append(found)
    return drafts


__all__ = [
    "ATTACHMENT_SETS_BY_COUNT",
    "Draft",
    "SceneBuilder",
    "SplitBalance",
    "scene_drafts",
    "tag",
]
