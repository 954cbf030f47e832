"""A strided tile read through `tt.reshape`: when the reshaped tile is still a strided block, its form."""

from __future__ import annotations

from xpu_passes.dialects import tt
from xpu_passes.transforms.raise_block_pointer.forms import DimTerm, Form, Unsupported
from xpu_passes.transforms.raise_block_pointer.poly import ZERO


def reshape_form(f: Form, src: tuple[int, ...], dst: tuple[int, ...], op: tt.ReshapeOp) -> Form:
    """`f` (over `src`) read over `dst` in row-major order, when that keeps it a strided block: unit dims added
    or removed, dims split, or dims merged whose strides compose (`s_d = s_d+1 * size_d+1`)."""
    if op.allow_reorder is not None:
        raise Unsupported("reshape that may reorder elements (allow_reorder)", op)
    base, strides = f.base, []
    for a, t in zip(src, f.dims):
        if t is None:
            strides.append(ZERO)
            continue
        if t.wrap is not None:
            raise Unsupported("reshape of a wrapped-around index", op)
        base = base + t.stride * t.pos  # positions move into the base: every index starts at 0
        strides.append(t.stride)
    sd = [(a, s) for a, s in zip(src, strides) if a != 1]
    dd = [e for e, b in enumerate(dst) if b != 1]
    out: list[DimTerm | None] = [None] * len(dst)
    i = j = 0
    while i < len(sd) and j < len(dd):
        # the smallest run of src dims and of dst dims with equal element counts
        ga, gb = [sd[i]], [dd[j]]
        pa, pb = sd[i][0], dst[dd[j]]
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb and i < len(sd):
                ga.append(sd[i])
                pa, i = pa * sd[i][0], i + 1
            elif pb < pa and j < len(dd):
                gb.append(dd[j])
                pb, j = pb * dst[dd[j]], j + 1
            else:
                raise Unsupported("reshape between shapes that do not group", op)
        sigma, n = ga[-1][1], 1
        for a, s in reversed(ga):
            if s != sigma.scale(n):
                raise Unsupported("reshape merges dims whose strides do not compose (not a strided block)", op)
            n *= a
        n = 1
        for e in reversed(gb):
            t = sigma.scale(n)
            out[e] = DimTerm(t, ZERO) if t.terms else None
            n *= dst[e]
    return Form(base, tuple(out))
