"""ProVisE's pixel work: reading and writing images, the typed parser operations' kernels, and
the marks that item inputs, oracle drawings and perturbations draw.

This is the only module of the project that imports OpenCV, ``scipy.ndimage`` and
scikit-image (the ``provise`` extra); the suite imports it only when it builds or grades.
Images are 8-bit BGR arrays (OpenCV's order), rows top to bottom; masks are boolean arrays;
points are pixel coordinates (x right, y down, pixel centres at half-integers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import breadth_first_order
from skimage.graph import route_through_array
from skimage.morphology import skeletonize

Image = NDArray[np.uint8]
Mask = NDArray[np.bool_]
Point = tuple[float, float]
BGR = tuple[int, int, int]


class ImageUnreadable(ValueError):
    """An answer image that cannot be decoded."""


# -- files ----------------------------------------------------------------------------------


def decode(data: bytes, *, source: str = "image") -> Image:
    """PNG or JPEG bytes as an 8-bit BGR image (grey and alpha images are made BGR)."""
    array = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(array, cv2.IMREAD_UNCHANGED) if array.size else None
    if image is None:
        raise ImageUnreadable(f"{source}: not a decodable image")
    if image.dtype != np.uint8:
        image = (image / 257).astype(np.uint8) if image.dtype == np.uint16 else image
        if image.dtype != np.uint8:
            raise ImageUnreadable(f"{source}: unsupported pixel type {image.dtype}")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.shape[2] == 4:
        # Transparent pixels are shown on black, as a viewer would show an unpainted mask.
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        return np.rint(image[:, :, :3] * alpha).astype(np.uint8)
    return np.ascontiguousarray(image[:, :, :3])


def read_image(path: Path) -> Image:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ImageUnreadable(f"{path}: {error.strerror or error}") from None
    return decode(data, source=str(path))


def read_labels(path: Path) -> NDArray[np.uint8]:
    """A single-channel 8-bit label map (an ID pass, or a truth mask of the items)."""
    labels = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if labels is None or labels.ndim != 2 or labels.dtype != np.uint8:
        raise ImageUnreadable(f"{path}: not an 8-bit single-channel PNG")
    return np.asarray(labels)


def encode_png(image: NDArray[np.uint8]) -> bytes:
    ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:
        raise ValueError("PNG encoding failed")
    return bytes(data.tobytes())


def encode_jpeg(image: Image, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return bytes(data.tobytes())


def resize(image: NDArray[np.uint8], width: int, height: int, *, nearest: bool = False) -> Image:
    if image.shape[1] == width and image.shape[0] == height:
        return image
    shrinking = width * height < image.shape[0] * image.shape[1]
    mode = cv2.INTER_NEAREST if nearest else cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(image, (width, height), interpolation=mode), dtype=np.uint8)


# -- registration ---------------------------------------------------------------------------------

#: How far an aspect ratio may differ from the source's and still count as the same.
ASPECT_TOLERANCE = 0.01
#: A letterbox bar's column (or row): this share of its pixels within ``BAR_LEVELS`` of the bar.
BAR_SHARE = 0.98
BAR_LEVELS = 12
#: The largest transform registration accepts (beyond it an answer is taken as drawn).
MAX_SHIFT = 0.05
MAX_SCALE = 0.08
MAX_ANGLE = 4.0
#: A transform smaller than this everywhere in the image (pixels) is no transform.
MIN_MOTION = 1.5
#: A transform must leave at most this share of the decorrelation (1 - correlation) between
#: answer and source that there was without it.
IMPROVEMENT = 0.9


@dataclass(frozen=True)
class Registration:
    """How a drawn answer was brought onto its source: the letterbox bars cut off (pixels of
    the answer as returned: left, top, right, bottom), then a resize to the source's size, then
    the affine ``matrix`` (source pixel -> resized answer pixel), found by ``method``."""

    size: tuple[int, int]
    bars: tuple[int, int, int, int] | None
    matrix: NDArray[np.float64]
    method: str
    correlation: float | None = None

    @property
    def moved(self) -> bool:
        return self.method == "ecc"

    def to_dict(self) -> dict[str, object]:
        """The transform in words a reader checks: the answer's size, the bars, the shift
        (pixels at the source's size), the scale and the rotation (degrees)."""
        linear = self.matrix[:, :2]
        scale = float(np.sqrt(abs(np.linalg.det(linear))))
        angle = float(np.degrees(np.arctan2(linear[1, 0], linear[0, 0])))
        return {
            "answer_size": list(self.size),
            "letterbox": None if self.bars is None else list(self.bars),
            "method": self.method,
            "shift": [round(float(v), 2) for v in self.matrix[:, 2]],
            "scale": round(scale, 4),
            "rotation": round(angle, 3),
            **({} if self.correlation is None else {"correlation": round(self.correlation, 4)}),
        }


IDENTITY = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def _bar_run(lines: NDArray[np.int16]) -> int:
    """How many leading lines (rows of ``lines``: each a line of pixels, by 3 channels) are
    all of the first line's colour."""
    colour = np.median(lines[0], axis=0)
    close = np.all(np.abs(lines - colour) <= BAR_LEVELS, axis=2).mean(axis=1) >= BAR_SHARE
    return int(np.argmin(close)) if not close.all() else len(lines)


def letterbox_bars(image: Image, width: int, height: int) -> tuple[int, int, int, int] | None:
    """The uniform bars around an answer whose aspect ratio is not the source's (``width`` by
    ``height``), as (left, top, right, bottom) pixels, when cutting them restores the source's
    aspect ratio; None otherwise. The cut is split between the two sides as evenly as the bars
    allow."""
    h, w = image.shape[:2]
    want = width / height
    if abs(w / h - want) <= ASPECT_TOLERANCE * want:
        return None
    pixels = image.astype(np.int16)
    if w / h > want:
        total = w - round(h * want)
        columns = pixels.transpose(1, 0, 2)
        first, second = _bar_run(columns), _bar_run(columns[::-1])
    else:
        total = h - round(w / want)
        first, second = _bar_run(pixels), _bar_run(pixels[::-1])
    if first + second < total:
        return None
    cut = min(max(total // 2, total - second), first)
    if w / h > want:
        return (cut, 0, total - cut, 0)
    return (0, cut, 0, total - cut)


def _motion(matrix: NDArray[np.float64], width: int, height: int) -> float:
    """The largest distance the transform moves an image corner, in pixels."""
    corners = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]], float)
    return float(np.max(np.hypot(*(corners @ (matrix - IDENTITY).T).T)))


def _plausible(matrix: NDArray[np.float64], width: int, height: int) -> bool:
    """An editor's drift: near a similarity (shear at most 0.02), scaled by at most
    ``MAX_SCALE``, turned by at most ``MAX_ANGLE`` degrees, its centre moved by at most
    ``MAX_SHIFT`` of the image's size."""
    linear = matrix[:, :2]
    scale = float(np.sqrt(abs(np.linalg.det(linear))))
    angle = np.arctan2(linear[1, 0], linear[0, 0])
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shear = float(np.linalg.norm(linear - scale * turn))
    centre = np.array([width / 2.0, height / 2.0])
    moved = linear @ centre + matrix[:, 2] - centre
    return (
        abs(scale - 1.0) <= MAX_SCALE
        and abs(float(np.degrees(angle))) <= MAX_ANGLE
        and shear <= 0.02
        and abs(float(moved[0])) <= MAX_SHIFT * width
        and abs(float(moved[1])) <= MAX_SHIFT * height
    )


def _shrink(image: NDArray[np.float32], factor: int) -> NDArray[np.float32]:
    height, width = image.shape
    size = (max(8, width // factor), max(8, height // factor))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.float32)


def _at(matrix: NDArray[np.float64], factor: float) -> NDArray[np.float32]:
    """A warp of full-size pixels as the warp of pixels ``factor`` times smaller."""
    scaled = matrix.astype(np.float32).copy()
    scaled[:, 2] /= factor
    return scaled


def _ecc_step(
    template: NDArray[np.float32],
    moving: NDArray[np.float32],
    matrix: NDArray[np.float64],
    factor: int,
    iterations: int,
) -> NDArray[np.float64]:
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-4)
    everywhere = np.full(template.shape, 255, np.uint8)
    _, found = cv2.findTransformECC(
        template, moving, _at(matrix, factor), cv2.MOTION_AFFINE, criteria, everywhere, 3
    )
    full = np.asarray(found, dtype=np.float64)
    full[:, 2] *= factor
    return full


def _correlation(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    a = a - a.mean()
    b = b - b.mean()
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float((a * b).sum()) / norm if norm else 0.0


def _ecc(
    template: NDArray[np.float32], moving: NDArray[np.float32]
) -> tuple[NDArray[np.float64] | None, float, float]:
    """The affine warp (template pixel -> moving pixel) maximising the enhanced correlation
    coefficient, coarse to fine: at a quarter of the size from no motion, then, unless that
    found no motion, refined at half the size (a tenth of a pixel there is plenty). Also the
    correlation of the two at a quarter of the size before the warp and after it."""
    height, width = template.shape
    quarter_t, quarter_m = _shrink(template, 4), _shrink(moving, 4)
    before = _correlation(quarter_t, quarter_m)
    matrix = _ecc_step(quarter_t, quarter_m, IDENTITY, 4, 40)
    if _motion(matrix, width, height) < MIN_MOTION:
        return None, before, before
    matrix = _ecc_step(_shrink(template, 2), _shrink(moving, 2), matrix, 2, 8)
    size = (quarter_t.shape[1], quarter_t.shape[0])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    warped = cv2.warpAffine(
        quarter_m, _at(matrix, 4), size, flags=flags, borderMode=cv2.BORDER_REPLICATE
    )
    return matrix, before, _correlation(quarter_t, np.asarray(warped, dtype=np.float32))


def register(drawn: Image, source: Image, *, edit: bool) -> tuple[Image, Registration]:
    """The drawn answer on the source's pixel grid.

    Letterbox bars are cut off first (``letterbox_bars``) and the rest is resized to the
    source's size (paper §1). An ``edit`` of the input (marks, overlays, strokes) is then
    aligned to the source by ECC (OpenCV's ``findTransformECC``, affine, coarse to fine, on
    grey levels): a generative editor returns the picture shifted, zoomed or turned a little.
    The transform is kept only when it is a plausible editor's (a near-similarity within
    ``MAX_SHIFT``, ``MAX_SCALE``, ``MAX_ANGLE``), removes a tenth of the decorrelation with the source
    (``IMPROVEMENT``), and moves some pixel by at least ``MIN_MOTION``; pixels it brings in
    from outside the answer are the source's, unchanged. An answer drawn from scratch (a depth
    map, a mask) shares no content with the input to align on (its edges proved no guide: on
    them a correct mask drew a false match 18 px away, and a zoom none), so it is only cut
    and resized."""
    height, width = source.shape[:2]
    size = (int(drawn.shape[1]), int(drawn.shape[0]))
    bars = letterbox_bars(drawn, width, height)
    if bars is not None:
        left, top, right, bottom = bars
        drawn = drawn[top : drawn.shape[0] - bottom, left : drawn.shape[1] - right]
    resized = resize(np.ascontiguousarray(drawn), width, height)
    if not edit:
        return resized, Registration(size, bars, IDENTITY.copy(), "none")
    template, moving = gray(source).astype(np.float32), gray(resized).astype(np.float32)
    try:
        matrix, before, after = _ecc(template, moving)
    except cv2.error:
        matrix, before, after = None, 0.0, 0.0
    # An edit that covers much of a plain image pulls ECC a little way by itself.
    if matrix is not None and (
        1.0 - after > IMPROVEMENT * (1.0 - before) or not _plausible(matrix, width, height)
    ):
        matrix = None
    if matrix is None:
        return resized, Registration(size, bars, IDENTITY.copy(), "none", before)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    aligned = cv2.warpAffine(resized, matrix, (width, height), flags=flags)
    inside = cv2.warpAffine(
        np.full((height, width), 255, np.uint8),
        matrix,
        (width, height),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
    )
    outside = inside == 0
    aligned[outside] = source[outside]
    registration = Registration(size, bars, matrix, "ecc", after)
    return np.asarray(aligned, dtype=np.uint8), registration


# -- colour and difference --------------------------------------------------------------------


def hsv_mask(image: Image, ranges: Sequence[tuple[Sequence[int], Sequence[int]]]) -> Mask:
    """Pixels inside any of the HSV boxes (OpenCV's hue scale, 0-180)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    out = np.zeros(image.shape[:2], dtype=bool)
    for low, high in ranges:
        out |= cv2.inRange(hsv, np.array(low, np.uint8), np.array(high, np.uint8)) > 0
    return out


def channel_excess(image: Image, channel: int, minimum: int) -> Mask:
    """Pixels whose ``channel`` (0 blue, 1 green, 2 red) exceeds both others by ``minimum``."""
    planes = cv2.split(image)
    mine = planes[channel]
    others = [plane for k, plane in enumerate(planes) if k != channel]
    # Saturating differences: both reach ``minimum`` exactly when the excess over the larger does.
    first = cv2.subtract(mine, others[0]) >= minimum
    return first & (cv2.subtract(mine, others[1]) >= minimum)


def gray(image: Image) -> NDArray[np.uint8]:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def changed(drawn: Image, source: Image, threshold: int, *, by: str = "channel") -> Mask:
    """Pixels the drawing changed: the largest channel difference (``channel``) or the grey
    level difference (``gray``) at least ``threshold``."""
    if by == "gray":
        return cv2.absdiff(gray(drawn), gray(source)) >= threshold
    blue, green, red = cv2.split(cv2.absdiff(drawn, source))
    return cv2.max(cv2.max(blue, green), red) >= threshold


def saturated_fraction(image: Image, min_saturation: int, min_value: int) -> float:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    coloured = (hsv[:, :, 1] >= min_saturation) & (hsv[:, :, 2] >= min_value)
    return float(np.count_nonzero(coloured)) / coloured.size


def likeness(first: Image, second: Image) -> float:
    """Normalised cross-correlation of two images' grey levels (1 for the same picture)."""
    a = gray(first).astype(np.float32)
    b = gray(second).astype(np.float32)
    a -= a.mean()
    b -= b.mean()
    norm = float(np.sqrt(float((a * a).sum()) * float((b * b).sum())))
    return float((a * b).sum()) / norm if norm else 0.0


def overlay_mask(
    drawn: Image,
    source: Image,
    ink: BGR,
    *,
    hues: Sequence[tuple[int, int]],
    min_saturation: int,
    min_change: float,
    min_alpha: float,
    max_residual: float,
) -> Mask:
    """Pixels the drawing covered with a translucent layer of ``ink``.

    A layer of opacity a turns a source pixel s into s + a (ink - s): the change d = drawn - s
    points from s toward the ink. A pixel is covered when the opacity that explains d best
    (least squares) is at least ``min_alpha`` (and at most 1.25), d is at least ``min_change``
    long, what that opacity leaves of d unexplained is at most ``max_residual`` of d, and the
    drawn pixel is tinted (saturation at least ``min_saturation``) with a hue in ``hues``
    (OpenCV's 0-180; a greyed magenta is the same change as a green layer, but grey). So blue
    at 50% over yellow reads as blue, and a greyscale image or an untouched object reads as
    nothing, whatever colour the object is."""
    # Only pixels with a channel changed by min_change / sqrt(3) can have a change that long.
    rows, cols = np.nonzero(changed(drawn, source, int(min_change / np.sqrt(3.0))))
    out = np.zeros(drawn.shape[:2], dtype=bool)
    if rows.size == 0:
        return out
    now = drawn[rows, cols]
    was = source[rows, cols].astype(np.float32)
    change = now.astype(np.float32) - was
    toward = np.asarray(ink, np.float32) - was
    reach = np.maximum((toward * toward).sum(axis=1), 1.0)
    alpha = (change * toward).sum(axis=1) / reach
    left = change - alpha[:, None] * toward
    length = np.sqrt((change * change).sum(axis=1))
    residual = np.sqrt((left * left).sum(axis=1))
    hsv = cv2.cvtColor(now[:, None, :], cv2.COLOR_BGR2HSV)[:, 0, :]
    hue = np.zeros(len(rows), dtype=bool)
    for low, high in hues:
        hue |= (hsv[:, 0] >= low) & (hsv[:, 0] <= high)
    out[rows, cols] = (
        (alpha >= min_alpha)
        & (alpha <= 1.25)
        & (length >= min_change)
        & (residual <= max_residual * length)
        & (hsv[:, 1] >= min_saturation)
        & hue
    )
    return out


def region_cover(
    mask: Mask, labels: NDArray[np.uint8], min_share: float, min_pixels: int
) -> list[int]:
    """The labels (regions of a label map, 0 excluded) whose pixels ``mask`` covers: at least
    ``min_share`` of the region and at least ``min_pixels`` pixels."""
    sizes = np.bincount(labels.ravel(), minlength=256)
    covered = np.bincount(labels[mask].ravel(), minlength=256)
    return [
        int(k)
        for k in range(1, 256)
        if sizes[k] and covered[k] >= min_pixels and covered[k] >= min_share * sizes[k]
    ]


def midtone_fraction(image: Image, low: int, high: int) -> float:
    levels = gray(image)
    return float(np.count_nonzero((levels > low) & (levels < high))) / levels.size


# -- masks and components -----------------------------------------------------------------------


def morph(mask: Mask, operation: str, size: int) -> Mask:
    kernel = np.ones((size, size), np.uint8)
    op = {
        "open": cv2.MORPH_OPEN,
        "close": cv2.MORPH_CLOSE,
        "dilate": cv2.MORPH_DILATE,
        "erode": cv2.MORPH_ERODE,
    }[operation]
    return cv2.morphologyEx(mask.astype(np.uint8), op, kernel) > 0


@dataclass(frozen=True)
class Component:
    """One connected component: its bounding box ``(x, y, w, h)``, its pixels within that box
    (``crop``), area, centroid (pixel coordinates of the pixel centres' mean), fill (area over
    box area) and compactness (box short side over long side)."""

    crop: Mask
    area: int
    box: tuple[int, int, int, int]
    centroid: Point

    @property
    def fill(self) -> float:
        return self.area / float(self.box[2] * self.box[3])

    @property
    def compactness(self) -> float:
        return min(self.box[2], self.box[3]) / float(max(self.box[2], self.box[3]))

    def points(self) -> NDArray[np.float64]:
        """The centres of its pixels (N x 2, x and y)."""
        ys, xs = np.nonzero(self.crop)
        return np.column_stack([xs + self.box[0] + 0.5, ys + self.box[1] + 0.5])


def components(
    mask: Mask, *, connectivity: int, min_area: int, min_fill: float, min_compactness: float
) -> list[Component]:
    """Connected components passing the area, fill and compactness filters, largest first
    (ties by position, so the order is deterministic)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=connectivity
    )
    kept: list[Component] = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area < min_area:
            continue
        fill = area / float(w * h)
        compact = min(w, h) / float(max(w, h))
        if fill < min_fill or compact < min_compactness:
            continue
        cx, cy = centroids[label]
        crop = labels[y : y + h, x : x + w] == label
        kept.append(Component(crop, area, (x, y, w, h), (cx + 0.5, cy + 0.5)))
    kept.sort(key=lambda c: (-c.area, c.box[1], c.box[0]))
    return kept


def grid_counts(mask: Mask, rows: int, cols: int) -> NDArray[np.int64]:
    """Mask pixels in each cell of a rows x cols grid over the image."""
    h, w = mask.shape
    ys = np.minimum((np.arange(h) * rows) // h, rows - 1)
    xs = np.minimum((np.arange(w) * cols) // w, cols - 1)
    per_row = np.add.reduceat(mask.astype(np.int64), np.searchsorted(ys, np.arange(rows)), axis=0)
    return np.add.reduceat(per_row, np.searchsorted(xs, np.arange(cols)), axis=1)


def corner_counts(mask: Mask, zone: float, margin: float) -> list[int]:
    """Mask pixels in the four corner zones (top-left, top-right, bottom-left, bottom-right):
    squares of ``zone`` of each side, ``margin`` of each side in from the border."""
    h, w = mask.shape
    x0, x1 = round(margin * w), round((margin + zone) * w)
    y0, y1 = round(margin * h), round((margin + zone) * h)
    spans_x = ((x0, x1), (w - x1, w - x0))
    spans_y = ((y0, y1), (h - y1, h - y0))
    return [int(np.count_nonzero(mask[ya:yb, xa:xb])) for ya, yb in spans_y for xa, xb in spans_x]


def local_mean(image: Image, point: Point, size: int) -> float:
    """Mean grey level of the ``size`` x ``size`` window at ``point`` (clipped at the border)."""
    h, w = image.shape[:2]
    x, y = int(point[0]), int(point[1])
    half = size // 2
    window = image[max(0, y - half) : min(h, y + half + 1), max(0, x - half) : min(w, x + half + 1)]
    return float(gray(np.ascontiguousarray(window)).mean()) if window.size else 0.0


def skeleton_path(component: Component, start: Point) -> NDArray[np.float64]:
    """The longest walk along the skeleton of a component from the skeleton pixel nearest
    ``start``: breadth-first from there to the farthest pixel, as pixel-centre points."""
    mask = np.pad(component.crop, 1)
    skeleton = skeletonize(mask)  # type: ignore[no-untyped-call]
    ys, xs = np.nonzero(skeleton)
    if ys.size == 0:
        return np.zeros((0, 2))
    index = -np.ones(mask.shape, dtype=np.int64)
    index[ys, xs] = np.arange(ys.size)
    rows: list[NDArray[np.int64]] = []
    cols: list[NDArray[np.int64]] = []
    h, w = mask.shape
    for dy, dx in ((0, 1), (1, -1), (1, 0), (1, 1)):
        ny, nx = ys + dy, xs + dx
        ok = (ny >= 0) & (ny < h) & (nx >= 0) & (nx < w)
        other = np.full(ys.shape, -1)
        other[ok] = index[ny[ok], nx[ok]]
        link = other >= 0
        rows.append(np.nonzero(link)[0])
        cols.append(other[link])
    r, c = np.concatenate(rows), np.concatenate(cols)
    graph = coo_matrix((np.ones(r.size), (r, c)), shape=(ys.size, ys.size)).tocsr()
    # Back from the padded crop to image coordinates.
    centres = np.column_stack([xs + component.box[0] - 0.5, ys + component.box[1] - 0.5])
    first = int(np.argmin(np.hypot(*(centres - np.asarray(start)).T)))
    order, predecessors = breadth_first_order(graph, first, directed=False)
    last = int(order[-1])
    walk = [last]
    while walk[-1] != first:
        walk.append(int(predecessors[walk[-1]]))
    return centres[walk[::-1]]


def fill_holes(mask: Mask) -> Mask:
    """The mask with every region it encloses filled (a torus's hole)."""
    return np.asarray(ndimage.binary_fill_holes(mask), dtype=bool)


def inside_distance(mask: Mask) -> NDArray[np.float64]:
    """Distance of each pixel of ``mask`` to the nearest pixel outside it."""
    return np.asarray(ndimage.distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1])


def grid_route(
    cost: NDArray[np.float64], start: tuple[int, int], end: tuple[int, int]
) -> NDArray[np.int64]:
    """The cheapest 8-connected route through a cost grid (row, column cells)."""
    path, _ = route_through_array(  # type: ignore[no-untyped-call]
        cost, start, end, fully_connected=True, geometric=True
    )
    return np.asarray(path, dtype=np.int64)


# -- drawing ----------------------------------------------------------------------------------


def _xy(point: Point, shift: int = 4) -> tuple[int, int]:
    scale = 1 << shift
    return (round((point[0] - 0.5) * scale), round((point[1] - 0.5) * scale))


def star(image: Image, centre: Point, radius: float, colour: BGR) -> None:
    """A filled five-pointed star pointing up."""
    angles = -np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, radius, radius * 0.45)
    points = np.column_stack(
        [centre[0] + radii * np.cos(angles), centre[1] + radii * np.sin(angles)]
    )
    polygon(image, points, colour)


def polygon(image: Image, points: NDArray[np.float64], colour: BGR) -> None:
    fixed = np.array([_xy((float(x), float(y))) for x, y in points], dtype=np.int32)
    cv2.fillPoly(image, [fixed], colour, cv2.LINE_AA, shift=4)


def dot(image: Image, centre: Point, radius: float, colour: BGR) -> None:
    cv2.circle(image, _xy(centre), round(radius * 16), colour, -1, cv2.LINE_AA, shift=4)


def ring(image: Image, centre: Point, radius: float, colour: BGR, thickness: int) -> None:
    cv2.circle(image, _xy(centre), round(radius * 16), colour, thickness, cv2.LINE_AA, shift=4)


def polyline(image: Image, points: NDArray[np.float64], colour: BGR, thickness: int) -> None:
    fixed = np.array([_xy((float(x), float(y))) for x, y in points], dtype=np.int32)
    cv2.polylines(image, [fixed], False, colour, thickness, cv2.LINE_AA, shift=4)


def rectangle(image: Image, box: tuple[int, int, int, int], colour: BGR) -> None:
    x0, y0, x1, y1 = box
    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), colour, -1)


def label(image: Image, text: str, at: Point, colour: BGR, scale: float) -> None:
    """``text`` with a dark outline, its lower-left corner at ``at``."""
    origin = (round(at[0]), round(at[1]))
    thick = max(1, round(scale * 2))
    cv2.putText(
        image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA
    )
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def blend(image: Image, mask: Mask, colour: BGR, opacity: float) -> None:
    """Paint ``colour`` over the pixels of ``mask`` with the given opacity, in place."""
    tint = np.array(colour, dtype=np.float32)
    image[mask] = np.rint(image[mask] * (1.0 - opacity) + tint * opacity).astype(np.uint8)


def warp_similarity(
    image: Image, *, angle: float = 0.0, scale: float = 1.0, dx: float = 0.0, dy: float = 0.0
) -> Image:
    """The image turned by ``angle`` degrees (counter-clockwise) and scaled about its centre,
    then moved by (dx, dy); the border is filled with the edge's pixels."""
    height, width = image.shape[:2]
    centre = (width / 2.0 - 0.5, height / 2.0 - 0.5)
    matrix = np.asarray(cv2.getRotationMatrix2D(centre, angle, scale), dtype=np.float64)
    matrix[:, 2] += (dx, dy)
    warped = cv2.warpAffine(
        image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(warped, dtype=np.uint8)


def gaussian_blur(image: Image, sigma: float) -> Image:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), dtype=np.uint8)


def gaussian_blur_float(values: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    return np.asarray(cv2.GaussianBlur(values, (0, 0), sigma), dtype=np.float32)


def to_grayscale(image: Image) -> Image:
    return np.asarray(cv2.cvtColor(gray(image), cv2.COLOR_GRAY2BGR), dtype=np.uint8)
