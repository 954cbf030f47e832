"""Linear layouts (Triton's `LinearLayout`), as a small immutable value type.

A layout maps a hardware index (register, lane, warp, block) to tensor
coordinates. Each input dim has one basis per bit of its index; a basis is a
tuple of output coordinates (dim0, dim1, ...). The coordinates of an index are
the XOR of the bases of its set bits. All sizes are powers of two, so the map is
linear over GF(2): injectivity, surjectivity and "which source bits hold what a
destination bit holds" (the heart of a layout conversion) are Gaussian elimination.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

IN_DIMS: tuple[str, ...] = ("register", "lane", "warp", "block")

Coord = tuple[int, ...]
Bases = tuple[Coord, ...]


def _log2(n: int) -> int:
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


@functools.lru_cache(maxsize=1024)
def _shifts(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Where each dim's bits start in `LinearLayout.flat` (dim0 lowest); raises unless powers of two."""
    out, shift = [], 0
    for s in shape:
        out.append(shift)
        shift += _log2(s)
    return tuple(out)


def _xor(a: Coord, b: Coord) -> Coord:
    return tuple(x ^ y for x, y in zip(a, b))


@dataclass(frozen=True)
class LinearLayout:
    """A map (register, lane, warp, block) -> coordinates of a tensor of `shape`.

    Equality is equality as maps: same bases for every input bit and same
    output shape (the representation is canonical, so dataclass equality is it).
    """

    shape: tuple[int, ...]
    register: Bases = ()
    lane: Bases = ()
    warp: Bases = ()
    block: Bases = ()
    # Not part of the map: the order out-dims were introduced in while building
    # (Triton wraps registers around out-dims in this order; see `with_shape`).
    # None: standard order dim0, dim1, ...
    out_order: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        shape, rank = self.shape, len(self.shape)
        _shifts(shape)  # (raises unless powers of two)
        for dim, bases in zip(IN_DIMS, (self.register, self.lane, self.warp, self.block)):
            for b in bases:
                if len(b) != rank:
                    raise ValueError(f"{dim} basis {b} has rank {len(b)}, layout has rank {rank}")
                for c, s in zip(b, shape):
                    if c < 0 or c >= s:
                        raise ValueError(f"{dim} basis {b} is outside shape {shape}")

    # ------------------------------------------------------------ access

    @property
    def rank(self) -> int:
        return len(self.shape)

    def bases(self, dim: str) -> Bases:
        if dim not in IN_DIMS:
            raise KeyError(f"unknown input dim {dim!r} (expected one of {IN_DIMS})")
        return getattr(self, dim)  # type: ignore[no-any-return]

    def num(self, dim: str) -> int:
        """Size of an input dim (registers per thread, lanes per warp, ...)."""
        return 1 << len(self.bases(dim))

    @property
    def num_elements(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def apply(self, register: int = 0, lane: int = 0, warp: int = 0, block: int = 0) -> Coord:
        """Coordinates of the element at this hardware index."""
        out: Coord = (0,) * self.rank
        for dim, idx in zip(IN_DIMS, (register, lane, warp, block)):
            bases = self.bases(dim)
            if idx < 0 or idx >= 1 << len(bases):
                raise IndexError(f"{dim} index {idx} out of range [0, {1 << len(bases)})")
            for bit, b in enumerate(bases):
                if idx >> bit & 1:
                    out = _xor(out, b)
        return out

    def __str__(self) -> str:
        parts = [f"{d} = {[list(b) for b in self.bases(d)]}" for d in IN_DIMS if self.bases(d)]
        return f"LinearLayout<{'x'.join(map(str, self.shape))}: " + ", ".join(parts) + ">"

    # -------------------------------------------------------- algebra

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Triton's product: `outer` repeats `self`; shared out-dims stack (self minor)."""
        if self.rank != outer.rank:
            raise ValueError("product of layouts of different rank")
        scaled = {d: tuple(tuple(c * s for c, s in zip(b, self.shape)) for b in outer.bases(d)) for d in IN_DIMS}
        order = list(self.dims_order())
        order += [d for d in outer.dims_order() if d not in order]
        return LinearLayout(
            tuple(a * b for a, b in zip(self.shape, outer.shape)),
            **{d: self.bases(d) + scaled[d] for d in IN_DIMS},
            out_order=tuple(order),
        )

    def dims_order(self) -> tuple[int, ...]:
        return tuple(range(self.rank)) if self.out_order is None else self.out_order

    def flat(self, c: Coord) -> int:
        """Coordinates as one bit vector (dim0's bits lowest)."""
        v = 0
        for x, shift in zip(c, _shifts(self.shape)):
            v |= x << shift
        return v

    def images(self, dims: Iterable[str]) -> list[int]:
        return [self.flat(b) for d in dims for b in self.bases(d)]

    def is_surjective(self) -> bool:
        return _rank(self.images(IN_DIMS)) == sum(_log2(s) for s in self.shape)

    def is_injective(self) -> bool:
        imgs = self.images(IN_DIMS)
        return _rank(imgs) == len(imgs)

    def is_bijective(self) -> bool:
        return self.is_surjective() and self.is_injective()

    def free_bases(self, dim: str) -> list[int]:
        """Indices of the zero bases of `dim` (the bits along which it holds replicas)."""
        return [i for i, b in enumerate(self.bases(dim)) if not any(b)]

    def holds_all_of(self, other: LinearLayout, level: str) -> bool:
        """Every unit at `level` of `other` needs only data this layout has in the same unit.

        `level` is the first input dim that stays fixed: "lane" asks whether each thread
        (lane, warp, block) already holds what `other` puts there (so converting only
        renumbers registers when it holds both ways); "warp" whether each warp does;
        "block" whether each CTA does. Replicas count as held.
        """
        if self.shape != other.shape:
            return False
        inner = IN_DIMS[: IN_DIMS.index(level)]
        span = _Span(self.images(inner))
        if not all(span.reduce(v) == 0 for v in other.images(inner)):
            return False
        # The fixed dims: other's element there differs from ours by something the unit holds.
        for d in IN_DIMS[IN_DIMS.index(level) :]:
            if len(self.bases(d)) != len(other.bases(d)):
                return False
            if any(span.reduce(self.flat(a) ^ other.flat(b)) for a, b in zip(self.bases(d), other.bases(d))):
                return False
        return True

    def invert(self) -> dict[Coord, tuple[int, int, int, int]]:
        """For a bijective layout: coordinates -> (register, lane, warp, block)."""
        if not self.is_bijective():
            raise ValueError(f"{self} is not a bijection")
        out: dict[Coord, tuple[int, int, int, int]] = {}
        for r in range(self.num("register")):
            for ln in range(self.num("lane")):
                for w in range(self.num("warp")):
                    for b in range(self.num("block")):
                        out[self.apply(r, ln, w, b)] = (r, ln, w, b)
        return out


Conversion = dict[str, tuple[tuple[tuple[str, int], ...], ...]]


# (id(src), id(dst)) -> (src, dst, the conversion or why none): both questions about a pair
# (reorders_registers, mixed_transpositions) need it; entries keep their layouts alive.
_CONVERSIONS: dict[tuple[int, int], tuple[LinearLayout, LinearLayout, Conversion | str]] = {}


def conversion(src: LinearLayout, dst: LinearLayout) -> Conversion:
    """Triton's `dst.invertAndCompose(src)`: for each input bit of dst, the src input
    bits whose XOR holds the same element (src must cover the tensor). Remembered per
    pair of layout objects (the answer is shared: not to be changed).

    The pseudo-inverse of src prefers registers, then lanes, warps, blocks (its pivots
    are taken greedily in that order); bits along which *both* layouts hold replicas
    are paired with each other, as Triton's broadcasting heuristic does.
    """
    key = (id(src), id(dst))
    hit = _CONVERSIONS.get(key)
    if hit is None or hit[0] is not src or hit[1] is not dst:
        try:
            found: Conversion | str = _conversion(src, dst)
        except ValueError as e:
            found = str(e)
        if len(_CONVERSIONS) > 8192:
            _CONVERSIONS.clear()
        hit = _CONVERSIONS[key] = (src, dst, found)
    if isinstance(hit[2], str):
        raise ValueError(hit[2])
    return hit[2]


def _conversion(src: LinearLayout, dst: LinearLayout) -> Conversion:
    if src.shape != dst.shape:
        raise ValueError(f"conversion between shapes {src.shape} and {dst.shape}")
    if not src.is_surjective():
        raise ValueError(f"{src} does not cover its shape")
    width = sum(_log2(s) for s in src.shape)
    fake: dict[tuple[str, int], int] = {}
    for d in IN_DIMS:
        for i, (a, b) in enumerate(zip(src.bases(d), dst.bases(d))):
            if not any(a) and not any(b):
                fake[(d, i)] = 1 << (width + len(fake))

    def column(ll: LinearLayout, d: str, i: int) -> int:
        return ll.flat(ll.bases(d)[i]) | fake.get((d, i), 0)

    # Greedy pivots over src's input bits; each reduced row remembers which src bits made it, as
    # a bit mask (bit k: the k-th src bit in (dim, index) order, the order the images list them).
    bits = [(d, i) for d in IN_DIMS for i in range(len(src.bases(d)))]
    rows: dict[int, tuple[int, int]] = {}

    def reduce(v: int, made: int) -> tuple[int, int]:
        while v:
            top = v.bit_length() - 1
            if top not in rows:
                break
            rv, rm = rows[top]
            v, made = v ^ rv, made ^ rm
        return v, made

    for k, (d, i) in enumerate(bits):
        v, made = reduce(column(src, d, i), 1 << k)
        if v:
            rows[v.bit_length() - 1] = (v, made)
    out: dict[str, tuple[tuple[tuple[str, int], ...], ...]] = {}
    for d in IN_DIMS:
        images = []
        for i in range(len(dst.bases(d))):
            v, made = reduce(column(dst, d, i), 0)
            if v:
                raise ValueError(f"{dst} holds elements {src} does not")
            images.append(tuple(bits[k] for k in range(made.bit_length()) if made >> k & 1))
        out[d] = tuple(images)
    return out


def quotient_dims(conv: Conversion, src: LinearLayout, dst: LinearLayout) -> list[str]:
    """The dims Triton's minimalCvtLayout can divide out, from block inwards: a dim
    divides out when dst's bit i of it comes from src's bit i of it alone, and no
    other dim draws on it."""
    done: list[str] = []
    for d in ("block", "warp", "lane"):
        if len(src.bases(d)) != len(dst.bases(d)):
            break
        ok = all(img == ((d, i),) for i, img in enumerate(conv[d]))
        ok = ok and all(
            dd == d or all(x[0] != d for x in img) for dd in IN_DIMS if dd not in done for img in conv[dd]
        )
        if not ok:
            break
        done.append(d)
    return done


def mixed_transpositions(src: LinearLayout, dst: LinearLayout) -> int | None:
    """For a conversion within warps that only permutes register and lane bits: how
    many lane bits of dst come from register bits of src (each is one register<->lane
    swap, a shuffle round). None when it is not such a permutation."""
    try:
        conv = conversion(src, dst)
    except ValueError:
        return None
    if quotient_dims(conv, src, dst)[:2] != ["block", "warp"]:
        return None
    if src.free_bases("lane") or dst.free_bases("lane"):
        return None  # lanes holding replicas: not a plain permutation
    images = [img for d in ("register", "lane") for img in conv[d]]
    if any(len(img) != 1 or img[0][0] not in ("register", "lane") for img in images):
        return None
    if len(set(images)) != len(images):
        return None
    return sum(1 for img in conv["lane"] if img[0][0] == "register")


def reorders_registers(src: LinearLayout, dst: LinearLayout) -> bool:
    """Triton's cvtReordersRegisters: converting needs no data exchange between threads."""
    try:
        return quotient_dims(conversion(src, dst), src, dst) == ["block", "warp", "lane"]
    except ValueError:
        return False


def _rank(vectors: Iterable[int]) -> int:
    return len(_Span(vectors).pivots)


class _Span:
    """A GF(2) span of bit vectors, in reduced row-echelon form keyed by pivot bit."""

    def __init__(self, vectors: Iterable[int] = ()) -> None:
        self.pivots: dict[int, int] = {}
        for v in vectors:
            self.add(v)

    def reduce(self, v: int) -> int:
        while v:
            top = v.bit_length() - 1
            if top not in self.pivots:
                return v
            v ^= self.pivots[top]
        return 0

    def add(self, v: int) -> bool:
        v = self.reduce(v)
        if v:
            self.pivots[v.bit_length() - 1] = v
        return bool(v)


# ------------------------------------------------------------ building blocks


@functools.lru_cache(maxsize=1024)  # (pure; the layouts are immutable)
def identity1d(size: int, in_dim: str, out_dim: int, rank: int) -> LinearLayout:
    """`size` inputs along `in_dim` that walk `out_dim` one by one."""
    bases = tuple(tuple(1 << i if d == out_dim else 0 for d in range(rank)) for i in range(_log2(size)))
    shape = tuple(size if d == out_dim else 1 for d in range(rank))
    return LinearLayout(shape, **{in_dim: bases}, out_order=(out_dim,))


@functools.lru_cache(maxsize=1024)  # (pure; the layouts are immutable)
def zeros1d(size: int, in_dim: str, out_dim: int, rank: int) -> LinearLayout:
    """`size` inputs along `in_dim` that all hold the same element (broadcast)."""
    bases = tuple((0,) * rank for _ in range(_log2(size)))
    return LinearLayout((1,) * rank, **{in_dim: bases}, out_order=(out_dim,))


@functools.lru_cache(maxsize=1024)  # (pure; the layouts are immutable)
def empty(rank: int) -> LinearLayout:
    return LinearLayout((1,) * rank, out_order=())


def product(layouts: Iterable[LinearLayout], rank: int) -> LinearLayout:
    out = empty(rank)
    for ll in layouts:
        out = out * ll
    return out


def with_shape(ll: LinearLayout, shape: Sequence[int], broadcast_registers: bool = False) -> LinearLayout:
    """Triton's ensureLayoutNotSmallerThan then ensureLayoutNotLargerThan.

    Smaller: the layout wraps around, i.e. more registers, one out-dim at a time in
    the order the dims were introduced. Larger: bases that point past the shape
    become 0 (lanes/warps then hold replicas) and such register bases are dropped,
    or kept as 0 with `broadcast_registers` (what triton's combineCtaCgaWithShape does:
    the map its verifiers compare, `encodings.triton_linear`).
    """
    if len(shape) != ll.rank:
        raise ValueError(f"shape {tuple(shape)} has rank {len(shape)}, layout has rank {ll.rank}")
    order = list(ll.dims_order()) + [d for d in range(ll.rank) if d not in ll.dims_order()]
    for d in order:
        if ll.shape[d] < shape[d]:
            if shape[d] % ll.shape[d]:
                raise ValueError(f"shape {tuple(shape)} is not a multiple of the layout's {ll.shape}")
            ll = ll * identity1d(shape[d] // ll.shape[d], "register", d, ll.rank)
    if all(a <= b for a, b in zip(ll.shape, shape)):
        return replace(ll, out_order=tuple(order))
    new_shape = tuple(min(a, b) for a, b in zip(ll.shape, shape))
    dropped: set[int] = set()
    bases: dict[str, list[Coord]] = {}
    for dim in IN_DIMS:
        bases[dim] = []
        for i, b in enumerate(ll.bases(dim)):
            nb = tuple(0 if c >= s else c for c, s in zip(b, new_shape))
            if nb != b and dim == "register" and not broadcast_registers:
                dropped.add(i)
            bases[dim].append(nb)
    bases["register"] = [b for i, b in enumerate(bases["register"]) if i not in dropped]
    return LinearLayout(new_shape, **{d: tuple(v) for d, v in bases.items()}, out_order=tuple(order))

