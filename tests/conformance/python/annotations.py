# Type annotations do nothing at run time: annotated assignments, hints, Optional, aliases.
from typing import Dict, List, Optional, Tuple

Vector = Tuple[float, float, float]
count: int = 3
names: List[str] = ["a", "b"]
pending: Optional[int]
origin: Vector = (0.0, 0.0, 0.0)


def scale(v: Vector, k: float = 2.0) -> Vector:
    return (v[0] * k, v[1] * k, v[2] * k)


def table(keys: List[str]) -> Dict[str, int]:
    result: Dict[str, int] = {}
    for i, key in enumerate(keys):
        result[key] = i
    return result


print(count, names, origin, scale((1.0, 2.0, 3.0)), table(names))
print("pending" in globals())
