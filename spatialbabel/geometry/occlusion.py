"""What a camera sees of each object, by ray casts through pixel centres against the exact
shapes (``spatialbabel.geometry.raycast``): the same question an object-ID pass answers by rendering.

A pixel (x, y) is seen along the ray through its centre (x + 0.5, y + 0.5) with the camera's
``K``. Casts go through a grid of pixels: every ``stride``-th one each way, starting at pixel
``stride // 2`` (every pixel at stride 1). An object's *full* pixels are those whose ray meets
it; its *visible* pixels those whose ray meets it first. Its occlusion state is one of three:

- ``not occluded``: every full pixel is visible, and no nearer object comes within
  ``OcclusionMargins.ring`` grid pixels of its outline (so a renderer's tessellation cannot
  change the verdict);
- ``partly occluded``: between ``OcclusionMargins.share`` and 1 - share of its full pixels are
  visible, and at least ``OcclusionMargins.pixels`` of each kind;
- ``not visible``: nothing of it is seen, and nearer objects cover its outline grown by ``ring``
  grid pixels.

Anything else (a sliver covered or a sliver seen, an object cut by the image border, one behind
the camera) has no state: questions about it are excluded.

``ViewCaster`` does the casting for a fixed set of cameras. A ray can meet an object only
inside the object's projected exact bounds, so each object is cast only through the grid pixels
there (its bounding box clipped ``NEAR`` in front of the camera; an object reaching into the
frustum's first ``NEAR`` metres is cast through the whole image). Casts are cached per object
(by value: a moved object is a new one), camera, stride and window, so that the states of a
scene before and after a change share the casts of every object that did not move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from spatialbabel.geometry.bounds import cached_world_aabb
from spatialbabel.geometry.raycast import pair_hits
from spatialbabel.scene import Camera, SceneObject

Array = NDArray[np.float64]
OcclusionState = Literal["not occluded", "partly occluded", "not visible"]
OCCLUSION_STATES: Final[tuple[OcclusionState, ...]] = (
    "not occluded",
    "partly occluded",
    "not visible",
)

#: A window of a camera's grid: rows r0:r1 and columns k0:k1 of grid pixels.
Box = tuple[int, int, int, int]

#: Survey grid pixels of an object's window from which it is sampled on every other grid row
#: and column only (``ViewCaster.survey``).
SURVEY_LARGE: Final = 200

#: Metres in front of a camera at which an object's bounding box is clipped before projecting.
NEAR: Final = 0.05

#: Unit ray directions through the grid pixels of a camera's own frame, by its intrinsics and
#: the stride (candidate cameras share a few intrinsics).
_GRIDS: dict[tuple[float, ...], Array] = {}

_CORNER_BITS: Final = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)])
#: The 12 edges of a box, as pairs of corner indices that differ in one coordinate.
_EDGES: Final = np.array(
    [(a, b) for a in range(8) for b in range(a + 1, 8) if bin(a ^ b).count("1") == 1]
)


@dataclass(frozen=True)
class OcclusionMargins:
    #: Grid pixels by which an outline is grown when checking that nothing nearer is close to it.
    ring: int = 3
    #: Least share of full pixels seen, and hidden, for ``partly occluded``.
    share: float = 0.1
    #: Least number of (grid) pixels seen, and hidden, for ``partly occluded``.
    pixels: int = 25
    #: Pixels between an object's projected bounds and the image border for it to be in frame.
    border: int = 2

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_OCCLUSION_MARGINS: Final = OcclusionMargins()


@dataclass(frozen=True)
class PixelCount:
    """An object's grid pixels in a view, by ray casts through every grid pixel of its window."""

    full: int
    visible: int
    #: Pixels of the outline's ring (grown by ``ring``, outside the object) where another
    #: object is met before the object's farthest point (it might cover the object there), and
    #: where one is met before its nearest point (it surely would), and the ring's size.
    ring_near: int
    ring_front: int
    ring: int
    in_frame: bool
    #: The grid's stride (each grid pixel stands for stride**2 pixels).
    stride: int = 1
    #: Ids of the objects that hide some of it.
    covers: tuple[str, ...] = ()

    @property
    def hidden(self) -> int:
        return self.full - self.visible


def _dilate(mask: NDArray[np.bool_], steps: int) -> NDArray[np.bool_]:
    grown = mask.copy()
    for _ in range(steps):
        shifted = grown.copy()
        shifted[1:, :] |= grown[:-1, :]
        shifted[:-1, :] |= grown[1:, :]
        shifted[:, 1:] |= grown[:, :-1]
        shifted[:, :-1] |= grown[:, 1:]
        grown = shifted
    return grown


def occlusion_state(
    count: PixelCount, margins: OcclusionMargins = DEFAULT_OCCLUSION_MARGINS
) -> OcclusionState | None:
    """The state of ``count`` beyond the margins, None when it is within them."""
    if not count.in_frame or count.full == 0:
        return None
    if count.visible == count.full and count.ring_near == 0:
        return "not occluded"
    if count.visible == 0 and count.ring_front == count.ring:
        return "not visible"
    least = max(margins.pixels, margins.share * count.full)
    if count.visible >= least and count.hidden >= least:
        return "partly occluded"
    return None


@dataclass(frozen=True)
class Framing:
    """Where one object's exact bounding box falls in each camera of a ``ViewCaster``
    (arrays over the cameras)."""

    #: Image bounds (x0, y0, x1, y1) of the box's eight corners; meaningful where ``front``.
    corners: Array
    #: Every corner in front of the camera; every corner behind it.
    front: NDArray[np.bool_]
    behind: NDArray[np.bool_]
    #: Image bounds of the part of the box at least ``NEAR`` in front (NaN where there is
    #: none); the whole image where the object may reach into the frustum's first ``NEAR``.
    reach: Array
    low: Array
    high: Array


class ViewCaster:
    """Ray casts of objects through the pixel grids of a fixed set of cameras."""

    def __init__(self, cameras: Sequence[Camera]) -> None:
        self.cameras = tuple(cameras)
        self.index = {camera.name: c for c, camera in enumerate(self.cameras)}
        poses = np.array([camera.pose for camera in self.cameras]).reshape(-1, 4, 4)
        intrinsics = np.array([camera.intrinsics for camera in self.cameras]).reshape(-1, 3, 3)
        self.rotation, self.eye = poses[:, :3, :3], poses[:, :3, 3]
        self.fx, self.fy = intrinsics[:, 0, 0], intrinsics[:, 1, 1]
        self.cx, self.cy = intrinsics[:, 0, 2], intrinsics[:, 1, 2]
        self.width = np.array([camera.width for camera in self.cameras], dtype=float)
        self.height = np.array([camera.height for camera in self.cameras], dtype=float)
        # A sphere round the eye holding the frustum's first NEAR metres.
        self._near_reach = NEAR * np.sqrt(
            1.0 + (self.width / 2.0 / self.fx) ** 2 + (self.height / 2.0 / self.fy) ** 2
        )
        self._framings: dict[SceneObject, Framing] = {}
        self._casts: dict[tuple[SceneObject, int, int, Box], Array] = {}
        self._boxes: dict[tuple[SceneObject, int], NDArray[np.intp]] = {}
        self._layouts: dict[tuple[int, int], tuple[Sequence[SceneObject], Any]] = {}

    # -- where objects fall -----------------------------------------------------------------

    def _image(self, local: Array) -> tuple[Array, Array]:
        """Image coordinates (x right, y down) of camera-frame points (cameras x points x 3)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            depth = -local[..., 2]
            x = self.fx[:, None] * local[..., 0] / depth + self.cx[:, None]
            y = -self.fy[:, None] * local[..., 1] / depth + self.cy[:, None]
        return x, y

    def framing(self, obj: SceneObject) -> Framing:
        found = self._framings.get(obj)
        if found is not None:
            return found
        low, high = cached_world_aabb(obj)
        corners = low + _CORNER_BITS * (high - low)
        local = np.einsum("ckj,cji->cki", corners[None, :, :] - self.eye[:, None, :], self.rotation)
        depth = -local[..., 2]
        x, y = self._image(local)
        front, behind = (depth > 1e-6).all(axis=1), (depth <= 1e-6).all(axis=1)
        box = np.column_stack([x.min(axis=1), y.min(axis=1), x.max(axis=1), y.max(axis=1)])
        # The box clipped NEAR in front: its corners there, and its edges' crossings of the plane.
        a, b = _EDGES[:, 0], _EDGES[:, 1]
        da, db = depth[:, a] - NEAR, depth[:, b] - NEAR
        crossing = da * db < 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(crossing, da / (da - db), 0.0)
        cut = local[:, a] + share[..., None] * (local[:, b] - local[:, a])
        points = np.concatenate([local, cut], axis=1)
        keep = np.concatenate([depth >= NEAR, crossing], axis=1)
        px, py = self._image(points)
        reach = np.column_stack(
            [
                np.where(keep, px, np.inf).min(axis=1),
                np.where(keep, py, np.inf).min(axis=1),
                np.where(keep, px, -np.inf).max(axis=1),
                np.where(keep, py, -np.inf).max(axis=1),
            ]
        )
        reach[~keep.any(axis=1)] = np.nan
        centre, radius = (low + high) / 2.0, float(np.linalg.norm(high - low)) / 2.0
        close = np.linalg.norm(self.eye - centre, axis=1) - radius < self._near_reach
        reach[close] = np.column_stack(
            [np.zeros(close.sum()), np.zeros(close.sum()), self.width[close], self.height[close]]
        )
        framing = Framing(box, front, behind, reach, low, high)
        self._framings[obj] = framing
        return framing

    def in_frame(self, obj: SceneObject, border: int = 0) -> NDArray[np.bool_]:
        """Per camera: the object's projected bounds lie wholly in front of the camera and at
        least ``border`` pixels inside the image."""
        f = self.framing(obj)
        x0, y0, x1, y1 = f.corners.T
        return (
            f.front
            & (x0 >= border)
            & (y0 >= border)
            & (x1 <= self.width - border)
            & (y1 <= self.height - border)
        )

    def out_of_frame(self, obj: SceneObject) -> NDArray[np.bool_]:
        """Per camera: the object lies wholly outside the image, or wholly behind the camera."""
        f = self.framing(obj)
        x0, y0, x1, y1 = f.corners.T
        outside = (x1 <= 0) | (y1 <= 0) | (x0 >= self.width) | (y0 >= self.height)
        return f.behind | (f.front & outside)

    # -- grids ------------------------------------------------------------------------------

    def grid_shape(self, c: int, stride: int) -> tuple[int, int]:
        phase = stride // 2
        rows = -(-(int(self.height[c]) - phase) // stride)
        cols = -(-(int(self.width[c]) - phase) // stride)
        return rows, cols

    def _layout(
        self, objects: Sequence[SceneObject], stride: int
    ) -> tuple[Array, Array, NDArray[np.intp]]:
        """Lows and highs of the objects' boxes (objects x 3) and their windows in every camera
        (objects x cameras x 4), kept for the last few object lists asked about (the states of
        one scene are asked about again and again)."""
        key = (id(objects), stride)
        found = self._layouts.get(key)
        if found is not None and found[0] is objects:
            return found[1]
        boxes = [cached_world_aabb(o) for o in objects]
        made = (
            np.array([b[0] for b in boxes]).reshape(-1, 3),
            np.array([b[1] for b in boxes]).reshape(-1, 3),
            np.array([self._grid_boxes(o, stride) for o in objects]),
        )
        if len(self._layouts) > 64:
            self._layouts.clear()
        self._layouts[key] = (objects, made)
        return made

    def _grid_boxes(self, obj: SceneObject, stride: int) -> NDArray[np.intp]:
        """``grid_box`` (ungrown) in every camera at once: rows of r0, r1, k0, k1, empty
        (r1 <= r0) where no ray may meet the object."""
        key = (obj, stride)
        found = self._boxes.get(key)
        if found is not None:
            return found
        x0, y0, x1, y1 = self.framing(obj).reach.T
        phase, pad = stride // 2 + 0.5, 1e-6
        rows = -(-(self.height.astype(np.intp) - stride // 2) // stride)
        cols = -(-(self.width.astype(np.intp) - stride // 2) // stride)
        some = x0 <= x1  # False for NaN too: nothing of it in front of the camera
        x0, y0, x1, y1 = (np.where(some, v, 0.0) for v in (x0, y0, x1, y1))
        boxes = np.column_stack(
            [
                np.maximum(0, np.ceil((y0 - phase - pad) / stride)),
                np.minimum(rows, np.floor((y1 - phase + pad) / stride) + 1),
                np.maximum(0, np.ceil((x0 - phase - pad) / stride)),
                np.minimum(cols, np.floor((x1 - phase + pad) / stride) + 1),
            ]
        ).astype(np.intp)
        empty = ~some | (boxes[:, 1] <= boxes[:, 0]) | (boxes[:, 3] <= boxes[:, 2])
        boxes[empty] = 0
        self._boxes[key] = boxes
        return boxes

    def grid_box(self, obj: SceneObject, c: int, stride: int, grow: int = 0) -> Box | None:
        """The grid pixels whose rays may meet ``obj`` in camera ``c`` (None for none), grown by
        ``grow`` grid pixels each way."""
        r0, r1, k0, k1 = (int(v) for v in self._grid_boxes(obj, stride)[c])
        if r1 <= r0:
            return None
        if grow:
            rows, cols = self.grid_shape(c, stride)
            r0, r1 = max(0, r0 - grow), min(rows, r1 + grow)
            k0, k1 = max(0, k0 - grow), min(cols, k1 + grow)
        return r0, r1, k0, k1

    def _directions(self, cameras: NDArray[np.intp], xs: Array, ys: Array) -> Array:
        """Unit world directions of the rays through pixels (xs, ys) of the given cameras."""
        u = (xs + 0.5 - self.cx[cameras]) / self.fx[cameras]
        v = -(ys + 0.5 - self.cy[cameras]) / self.fy[cameras]
        local = np.column_stack([u, v, -np.ones_like(u)])
        local /= np.linalg.norm(local, axis=1, keepdims=True)
        return np.einsum("nij,nj->ni", self.rotation[cameras], local)

    def _grid(self, c: int, stride: int) -> Array:
        """Unit directions (rows x columns x 3) through camera ``c``'s grid pixels in its own
        frame, shared by the cameras with the same intrinsics."""
        key = (
            self.fx[c],
            self.fy[c],
            self.cx[c],
            self.cy[c],
            self.width[c],
            self.height[c],
            stride,
        )
        found = _GRIDS.get(key)
        if found is None:
            rows, cols = self.grid_shape(c, stride)
            phase = stride // 2
            ys, xs = np.meshgrid(
                phase + stride * np.arange(rows, dtype=float),
                phase + stride * np.arange(cols, dtype=float),
                indexing="ij",
            )
            found = np.stack(
                [
                    (xs + 0.5 - self.cx[c]) / self.fx[c],
                    -(ys + 0.5 - self.cy[c]) / self.fy[c],
                    -np.ones_like(xs),
                ],
                axis=2,
            )
            found /= np.linalg.norm(found, axis=2, keepdims=True)
            found.flags.writeable = False
            _GRIDS[key] = found
        return found

    def rays(self, c: int, stride: int, box: Box) -> tuple[Array, Array]:
        """World origins and unit directions of the rays through a window's grid pixels, row
        by row."""
        r0, r1, k0, k1 = box
        directions = self._grid(c, stride)[r0:r1, k0:k1].reshape(-1, 3) @ self.rotation[c].T
        return np.broadcast_to(self.eye[c], directions.shape), directions

    def casts(self, wanted: Sequence[tuple[SceneObject, Box]], c: int, stride: int) -> list[Array]:
        """Hit distances (rows x columns of each window) of each object through its window's
        grid pixels of camera ``c``, inf where a ray misses; those not cached yet cast in one
        batch."""
        keys = [(obj, c, stride, box) for obj, box in wanted]
        missing = list(dict.fromkeys(k for k in keys if k not in self._casts))
        if missing:
            objects = list(dict.fromkeys(k[0] for k in missing))
            which, origins, directions = [], [], []
            for obj, _, _, box in missing:
                o, d = self.rays(c, stride, box)
                which.append(np.full(len(d), objects.index(obj)))
                origins.append(o)
                directions.append(d)
            t = pair_hits(
                objects, np.concatenate(which), np.concatenate(origins), np.concatenate(directions)
            )
            start = 0
            for key in missing:
                r0, r1, k0, k1 = key[3]
                size = (r1 - r0) * (k1 - k0)
                self._casts[key] = t[start : start + size].reshape(r1 - r0, k1 - k0)
                start += size
        return [self._casts[k] for k in keys]

    # -- counts -----------------------------------------------------------------------------

    def survey(
        self,
        objects: Sequence[SceneObject],
        stride: int,
        large: int = SURVEY_LARGE,
        targets: NDArray[np.bool_] | None = None,
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Full and visible pixels of every object in every camera (cameras x objects), for a
        quick survey of many views, estimated on the grid of ``stride``: each grid pixel
        stands for ``stride**2`` pixels. An object whose window there spans ``large`` grid
        pixels or more is sampled on every other grid row and column only (each sample then
        stands for four times as many pixels), which still gives it at least a quarter as many
        samples. Every object is cast at every sample of every object its window holds, all
        in one batch; the nearest hit at a sample is the one seen. With ``targets`` (cameras x
        objects), only those cells are counted (the others give 0), though every object still
        hides what it covers."""
        count, number = len(self.cameras), len(objects)
        if not number:
            empty = np.zeros((count, 0), dtype=np.intp)
            return empty, empty
        shapes = np.array([self.grid_shape(c, stride) for c in range(count)]).reshape(-1, 2)
        offsets = np.concatenate([[0], np.cumsum(shapes[:, 0] * shapes[:, 1])])
        boxes = np.array(
            [self._grid_boxes(obj, stride) for obj in objects]
        )  # objects x cameras x 4
        area = (boxes[..., 1] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 2])
        coarse = area >= large
        counted = area > 0 if targets is None else (area > 0) & np.asarray(targets).T
        samples = [
            _lattice(boxes[i], np.flatnonzero(counted[i] & (coarse[i] == step_two)), step)
            for i in range(number)
            for step_two, step in ((False, 1), (True, 2))
        ]
        camera = np.concatenate([p[0] for p in samples])
        flat = offsets[camera] + np.concatenate([p[1] for p in samples]) * shapes[camera, 1]
        flat += np.concatenate([p[2] for p in samples])
        points = np.unique(flat)
        camera = np.searchsorted(offsets, points, side="right") - 1
        row, col = np.divmod(points - offsets[camera], shapes[camera, 1])
        # Every object at every sample its window holds: a sample's nearest hit needs them all.
        # The samples are in camera, row, column order, so a window's rows are one run of them.
        pairs_which, pairs_point = [], []
        for i in sorted(range(number), key=lambda i: objects[i].class_name):
            cams = np.flatnonzero(area[i] > 0)
            r0, r1, k0, k1 = boxes[i][cams].T
            low = np.searchsorted(points, offsets[cams] + r0 * shapes[cams, 1])
            high = np.searchsorted(points, offsets[cams] + r1 * shapes[cams, 1])
            sizes = high - low
            band = np.repeat(low - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
            inside = band[(col[band] >= np.repeat(k0, sizes)) & (col[band] < np.repeat(k1, sizes))]
            pairs_which.append(np.full(len(inside), i))
            pairs_point.append(inside)
        which = np.concatenate(pairs_which).astype(np.intp)
        point = np.concatenate(pairs_point).astype(np.intp)
        phase = stride // 2
        directions = self._directions(
            camera, (phase + stride * col).astype(float), (phase + stride * row).astype(float)
        )
        t = pair_hits(objects, which, self.eye[camera[point]], directions[point])
        met = np.isfinite(t)
        which, point, t = which[met], point[met], t[met]
        owner = np.full(len(points), -1, dtype=np.intp)
        # The first of each sample's hits, nearest first (the lower index on a tie).
        order = np.lexsort((which, t, point))
        first = order[np.concatenate([[True], np.diff(point[order]) != 0])] if len(order) else order
        owner[point[first]] = which[first]
        cams = camera[point]
        sampled = counted[which, cams] & (
            ~coarse[which, cams] | ((row[point] % 2 == 0) & (col[point] % 2 == 0))
        )
        slot = cams * number + which
        full = np.bincount(slot[sampled], minlength=count * number).reshape(count, number)
        seen = sampled & (owner[point] == which)
        visible = np.bincount(slot[seen], minlength=count * number).reshape(count, number)
        weight = np.where(coarse.T, 4 * stride * stride, stride * stride)
        return full * weight, visible * weight

    def count(
        self,
        objects: Sequence[SceneObject],
        index: int,
        camera: int,
        stride: int,
        margins: OcclusionMargins = DEFAULT_OCCLUSION_MARGINS,
        large: int | None = None,
    ) -> PixelCount:
        """Full and visible grid pixels of ``objects[index]`` in camera number ``camera``, and
        how much of the ring around its outline a nearer object covers. With ``large``, a
        target whose window (grown by the ring) spans that many grid pixels or more is counted
        on the grid of twice the stride: it has samples to spare, and casts to save."""
        target = objects[index]
        framing = self.framing(target)
        if not framing.front[camera]:
            return PixelCount(0, 0, 0, 0, 0, False, stride)
        frame = bool(self.in_frame(target, margins.border)[camera])
        box = self.grid_box(target, camera, stride, margins.ring)
        if box is not None and large is not None and (box[1] - box[0]) * (box[3] - box[2]) >= large:
            stride *= 2
            box = self.grid_box(target, camera, stride, margins.ring)
        if box is None:
            return PixelCount(0, 0, 0, 0, 0, frame, stride)
        r0, r1, k0, k1 = box
        eye = self.eye[camera]
        farthest = float(
            np.linalg.norm(np.maximum(np.abs(framing.low - eye), np.abs(framing.high - eye)))
        )
        wanted: list[tuple[SceneObject, Box]] = [(target, box)]
        if len(objects) > 1:
            low, high, windows = self._layout(objects, stride)
            # Wholly beyond the target's farthest point, one can neither hide it nor count in
            # its ring: no need to cast it.
            near = np.linalg.norm(np.maximum(np.maximum(low - eye, eye - high), 0.0), axis=1)
            a0, a1 = np.maximum(windows[:, camera, 0], r0), np.minimum(windows[:, camera, 1], r1)
            b0, b1 = np.maximum(windows[:, camera, 2], k0), np.minimum(windows[:, camera, 3], k1)
            meet = (near < farthest) & (a1 > a0) & (b1 > b0)
            meet[index] = False
            for j in np.flatnonzero(meet).tolist():
                wanted.append((objects[j], (int(a0[j]), int(a1[j]), int(b0[j]), int(b1[j]))))
        own, *others = self.casts(wanted, camera, stride)
        nearest = np.full(own.shape, np.inf)
        full = np.isfinite(own)
        covers = []
        for (other, (w0, w1, v0, v1)), t in zip(wanted[1:], others, strict=True):
            window = nearest[w0 - r0 : w1 - r0, v0 - k0 : v1 - k0]
            np.minimum(window, t, out=window)
            mine = own[w0 - r0 : w1 - r0, v0 - k0 : v1 - k0]
            if ((t < mine) & (mine < np.inf)).any():
                covers.append(other.id)
        visible = full & (own <= nearest)
        # The ring: pixels near the outline but off the object, where another object would show
        # up first in a renderer whose outline differs by a pixel or two.
        ring = _dilate(full, margins.ring) & ~full
        closest = float(own[full].min()) if full.any() else np.inf
        return PixelCount(
            int(full.sum()),
            int(visible.sum()),
            int((ring & (nearest < farthest)).sum()),
            int((ring & (nearest < closest)).sum()),
            int(ring.sum()),
            frame,
            stride,
            tuple(covers),
        )


def _lattice(
    boxes: NDArray[np.intp], cameras: NDArray[np.intp], step: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Camera, row and column of the grid pixels in the given cameras' boxes whose row and
    column are multiples of ``step``."""
    r0, r1, k0, k1 = (-(-boxes[cameras].T // step)).astype(np.intp)
    sizes = np.maximum(r1 - r0, 0) * np.maximum(k1 - k0, 0)
    offset = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    width = np.repeat(k1 - k0, sizes)
    rows = (np.repeat(r0, sizes) + offset // np.maximum(width, 1)) * step
    cols = (np.repeat(k0, sizes) + offset % np.maximum(width, 1)) * step
    return np.repeat(cameras, sizes), rows, cols


def count_pixels(
    objects: Sequence[SceneObject],
    index: int,
    camera: Camera,
    margins: OcclusionMargins = DEFAULT_OCCLUSION_MARGINS,
    *,
    stride: int = 1,
) -> PixelCount:
    """``ViewCaster.count`` for one camera, without a cache to share."""
    return ViewCaster([camera]).count(objects, index, 0, stride, margins)


__all__ = [
    "DEFAULT_OCCLUSION_MARGINS",
    "NEAR",
    "OCCLUSION_STATES",
    "SURVEY_LARGE",
    "Framing",
    "OcclusionMargins",
    "OcclusionState",
    "PixelCount",
    "ViewCaster",
    "count_pixels",
    "occlusion_state",
]
