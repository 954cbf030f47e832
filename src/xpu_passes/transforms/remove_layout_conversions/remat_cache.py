"""Values already recomputed in a layout, reused by later slices (RemoveLayoutConversions).

Native triton keeps the same map (LayoutRematerialization's rematMapping): once a value
has a copy in a layout (a rewrite's clone, a boundary conversion, a conversion the pass
kept), a later backward slice that needs the value in that layout stops there when the
copy dominates the use, instead of cloning the chain again (copies cse would merge later;
on a bitonic sort each index chain was cloned once per stage).

Not inside loops: there a copy read early steered the greedy order away from a cheaper
loop-carried solution (flash_attention_fwd 128x64x64: 4 conversions left instead of 1),
while straight-line code only loses duplicates (sparsemax_fwd: 1,584 -> 1,187 lines, and
no figure worse on the corpus).

Entries are checked when read, never undone: a copy counts while its op is in the module,
its result is still that op's (a retype in place makes a new value) and still has the
layout (a trial not kept detaches its clones).
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from xpu_passes.transforms.remove_layout_conversions.costs import loop_depth
from xpu_passes.layouts.memoize import same
from xpu_passes.layouts.propagation import encoding
from xpu_passes.ir.walk_order import Order


class RematCache:
    """(value, layout) -> copies of the value in that layout, for one module being rewritten."""

    def __init__(self, order: Order) -> None:
        self.order = order
        # Keyed by the first value of a copy's lineage (a copy of a copy is a copy of it): ids,
        # the objects pinned by the entries.
        self._copies: dict[int, list[tuple[SSAValue, Attribute, OpResult]]] = {}
        self._root: dict[int, tuple[SSAValue, SSAValue]] = {}  # id(copy) -> (copy, first value)
        self.hits = 0  # copies found (a run that found none decided as with an empty cache)

    def root(self, v: SSAValue) -> SSAValue:
        got = self._root.get(id(v))
        return got[1] if got is not None and got[0] is v else v

    def put(self, v: SSAValue, layout: Attribute | None, copy: SSAValue) -> None:
        """`copy` holds `v`'s elements in `layout`."""
        if layout is None or not isinstance(copy, OpResult) or copy is v:
            return
        root = self.root(v)
        self._root[id(copy)] = (copy, root)
        entries = self._copies.setdefault(id(root), [])
        if len(entries) >= 16:  # dead copies (trials undone, values replaced) dropped now and then
            entries[:] = [e for e in entries if self._live(e[2], e[1])]
        entries.append((root, layout, copy))

    def lookup(self, v: SSAValue, layout: Attribute, user: Operation) -> SSAValue | None:
        """A live copy of `v` in `layout` that properly dominates `user`, if any."""
        root = self.root(v)
        entries = self._copies.get(id(root))
        if not entries:
            return None
        for old, lay, copy in entries:
            if old is root and same(lay, layout) and self._live(copy, layout) and self._dominates(copy.op, user):
                self.hits += 1
                return copy
        return None

    def _live(self, copy: OpResult, layout: Attribute) -> bool:
        op = copy.op
        rs = op.results  # (a loop's result added by a trial not kept is gone again)
        return (op.parent is not None and op in self.order.keys and copy.index < len(rs) and rs[copy.index] is copy
                and same(encoding(copy.type), layout))

    def _dominates(self, d: Operation, user: Operation) -> bool:
        """Whether `d` properly dominates `user` (structured regions: `d`'s block holds `user` or
        an ancestor of it, after `d`), with no loop around either (see the module's note)."""
        if loop_depth(d) or loop_depth(user):
            return False
        block, u = d.parent, user
        while u.parent is not block:
            parent = u.parent_op()
            if parent is None:
                return False
            u = parent
        keys = self.order.keys
        return u is not d and keys[d] < keys.get(u, -1)

