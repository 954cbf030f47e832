"""Walk order of a module's ops: a fast pre-order walk and keys kept up to date as ops move
(RemoveLayoutConversions' journal keeps them instead of walking the module again)."""

from __future__ import annotations

from xdsl.ir import Operation


def walk_list(root: Operation) -> list[Operation]:
    """`list(root.walk())`, several times faster (no nested generators)."""
    out: list[Operation] = []
    stack = [root]
    while stack:
        op = stack.pop()
        out.append(op)
        if op.regions:
            kids = []
            for r in op.regions:
                for b in r.blocks:
                    o = b.first_op
                    while o is not None:
                        kids.append(o)
                        o = o.next_op
            stack.extend(reversed(kids))
    return out


def subtree(op: Operation) -> list[Operation]:
    """`op` and its nested ops in walk order."""
    return walk_list(op) if op.regions else [op]


def _last(op: Operation) -> Operation:
    """The last op of `op`'s subtree in walk (pre-)order."""
    for r in reversed(op.regions):
        for b in reversed(r.blocks):
            if b.last_op is not None:
                return _last(b.last_op)
    return op


def _before(op: Operation) -> Operation | None:
    """The op right before `op` in walk order."""
    if op.prev_op is not None:
        return _last(op.prev_op)
    block = op.parent
    assert block is not None
    b = block.prev_block
    while b is not None:
        if b.last_op is not None:
            return _last(b.last_op)
        b = b.prev_block
    region = block.parent
    parent = region.parent if region is not None else None
    if parent is None:
        return None
    for r in reversed(parent.regions[: parent.regions.index(region)]):  # type: ignore[arg-type]
        for b in reversed(r.blocks):
            if b.last_op is not None:
                return _last(b.last_op)
    return parent


def _after(op: Operation) -> Operation | None:
    """The op right after `op`'s subtree in walk order."""
    while True:
        if op.next_op is not None:
            return op.next_op
        block = op.parent
        if block is None:
            return None
        b = block.next_block
        while b is not None:
            if b.first_op is not None:
                return b.first_op
            b = b.next_block
        region = block.parent
        parent = region.parent if region is not None else None
        if parent is None:
            return None
        for r in parent.regions[parent.regions.index(region) + 1:]:  # type: ignore[arg-type]
            for b in r.blocks:
                if b.first_op is not None:
                    return b.first_op
        op = parent


class Order:
    """Walk-order keys of a module's ops, kept up to date as ops are inserted."""

    GAP = 1 << 32

    def __init__(self, module: Operation, ops: list[Operation] | None = None) -> None:
        self.module = module
        self.keys: dict[Operation, int] = {}
        self.renumber(ops)

    def renumber(self, ops: list[Operation] | None = None) -> None:
        self.keys = {op: i * self.GAP for i, op in enumerate(ops or walk_list(self.module))}

    def __getitem__(self, op: Operation) -> int:
        return self.keys[op]

    def get(self, op: Operation, default: int) -> int:
        return self.keys.get(op, default)

    def place(self, op: Operation) -> None:
        """Key `op` (and its nested ops) where it now is."""
        prev, nxt = op._prev_op, op._next_op  # pyright: ignore[reportPrivateUsage]
        if prev is not None and nxt is not None and not op.regions and not prev.regions:
            lo, hi = self.keys[prev], self.keys[nxt]  # (what _before and _after find there)
            if hi - lo > 1:
                self.keys[op] = lo + (hi - lo) // 2
                return
        sub = subtree(op)
        prev, nxt = _before(op), _after(op)
        lo = self.keys[prev] if prev is not None else -self.GAP
        hi = self.keys[nxt] if nxt is not None else lo + self.GAP * (len(sub) + 1)
        if hi - lo <= len(sub):
            self.renumber()
            return
        step = (hi - lo) // (len(sub) + 1)
        for i, o in enumerate(sub, 1):
            self.keys[o] = lo + i * step

    def check(self) -> None:
        """Raise if the keys do not follow the walk (debug)."""
        keys = [self.keys.get(o) for o in self.module.walk()]
        if None in keys or keys != sorted(keys) or len(set(keys)) != len(keys):  # type: ignore[type-var]
            raise AssertionError("journal: order keys do not follow the walk")
