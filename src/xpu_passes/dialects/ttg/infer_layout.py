"""Result layouts that Triton's verifiers infer (inferTrans/Join/SplitOpEncoding), for the
layouts they define in closed form: blocked and swizzled shared, CTA fields included.
None where Triton goes through linear layouts (other layouts): the verifier then compares
shape and element type only.

Triton keeps these in the TritonGPU dialect (DialectInferLayoutInterface): the ops' verifiers
use them, so they sit here, below the layout algebra (`layouts/`), which reads only attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.ir import Attribute

from xpu_passes.dialects.ttg import attributes as ttg

_CORE = ("sizePerThread", "threadsPerWarp", "warpsPerCTA")


def _ints(a: ttg.BlockedEncodingAttr | ttg.SwizzledSharedEncodingAttr, key: str) -> list[int] | None:
    v = a.get(key)
    return None if v is None else list(cast(Sequence[int], v))


def _permute(xs: Sequence[int], perm: Sequence[int]) -> list[int]:
    return [xs[p] for p in perm]


def trans_encoding(enc: Attribute, perm: Sequence[int]) -> Attribute | None:
    inv = [list(perm).index(i) for i in range(len(perm))]
    if isinstance(enc, ttg.BlockedEncodingAttr):
        if len(enc.order) != len(perm):
            return None
        values: dict[str, object] = {k: _permute(cast(Sequence[int], enc.get(k)), perm) for k in _CORE}
        values["order"] = [inv[o] for o in enc.order]
    elif isinstance(enc, ttg.SwizzledSharedEncodingAttr):
        order = _ints(enc, "order") or []
        if len(order) != len(perm):
            return None
        values = {k: enc.get(k) for k in ("vec", "perPhase", "maxPhase")}
        values["order"] = [inv[o] for o in order]
    else:
        return None
    cta, split, cta_order = (_ints(enc, k) for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder"))
    if cta is not None and split is not None and cta_order is not None:
        if not len(cta) == len(split) == len(cta_order) == len(perm):
            return None
        values |= {"CTAsPerCGA": _permute(cta, perm), "CTASplitNum": _permute(split, perm),
                   "CTAOrder": [inv[o] for o in cta_order]}
    return type(enc).make(**values)


def join_encoding(enc: Attribute) -> Attribute | None:
    """A new most-minor dim holding 2 elements per thread."""
    if not isinstance(enc, ttg.BlockedEncodingAttr):
        return None
    n = len(enc.order)
    values: dict[str, object] = {
        "sizePerThread": [*enc.size_per_thread, 2], "threadsPerWarp": [*enc.threads_per_warp, 1],
        "warpsPerCTA": [*enc.warps_per_cta, 1], "order": [n, *enc.order],
    }
    cta, split, cta_order = (_ints(enc, k) for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder"))
    if cta is not None and split is not None and cta_order is not None:
        values |= {"CTAsPerCGA": [*cta, 1], "CTASplitNum": [*split, 1], "CTAOrder": [n, *cta_order]}
    return ttg.BlockedEncodingAttr.make(**values)


def split_encoding(enc: Attribute) -> Attribute | str | None:
    """The result layout, or Triton's reason why a blocked layout cannot be split."""
    if not isinstance(enc, ttg.BlockedEncodingAttr):
        return None
    if enc.size_per_thread[-1] != 2:
        return "SplitOp requires 2 elements per thread in the last dimension of the input"
    cta, split, cta_order = (_ints(enc, k) for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder"))
    if enc.threads_per_warp[-1] != 1 or enc.warps_per_cta[-1] != 1 or (cta and cta[-1] != 1):
        return "SplitOp requires threadsPerWarp, warpsPerCTA, and CTAsPerCGA = 1 for the last dimension of the input"
    last = len(enc.order) - 1
    values: dict[str, object] = {
        "sizePerThread": list(enc.size_per_thread[:-1]), "threadsPerWarp": list(enc.threads_per_warp[:-1]),
        "warpsPerCTA": list(enc.warps_per_cta[:-1]), "order": [o for o in enc.order if o != last],
    }
    if cta is not None and split is not None and cta_order is not None:
        values |= {"CTAsPerCGA": cta[:-1], "CTASplitNum": split[:-1], "CTAOrder": cta_order[1:]}
    return ttg.BlockedEncodingAttr.make(**values)


def same_layout(a: Attribute | None, b: Attribute | None) -> bool:
    """Equal as Triton compares them: CTA fields left out mean the default CTA layout (one CTA)."""
    if a == b:
        return True
    if not (isinstance(a, ttg.BlockedEncodingAttr) and isinstance(b, ttg.BlockedEncodingAttr)):
        return False
    if any(a.get(k) != b.get(k) for k in (*_CORE, "order")):
        return False
    for x, y in ((a, b), (b, a)):
        if x.get("CTAsPerCGA") is None and y.get("CTAsPerCGA") is not None:
            n = len(x.order)
            return (_ints(y, "CTAsPerCGA") == [1] * n and _ints(y, "CTASplitNum") == [1] * n
                    and _ints(y, "CTAOrder") == list(range(n - 1, -1, -1)))
    return False
