# typing.NamedTuple and collections.namedtuple: fields, indexing, unpacking, repr, _replace.
from collections import namedtuple
from typing import NamedTuple


class Vec(NamedTuple):
    x: float
    y: float
    z: float = 0.0


v = Vec(1.0, 2.0)
print(v, v.x, v[1], v.z)
x, y, z = v
print(x + y + z, len(v), tuple(v))
print(v._replace(z=5.0))
print(v == (1.0, 2.0, 0.0))

Color = namedtuple("Color", ["r", "g", "b"])
red = Color(1, 0, 0)
print(red, red.r, red[2], sum(red))
print(Color._fields)
