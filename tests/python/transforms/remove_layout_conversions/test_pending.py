"""RemoveLayoutConversions' list of conversions still to try (transforms/remove_layout_conversions/pending.py) after kept
rewrites: the walk's live conversions not tried yet, in walk order, never a stale list."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from xpu_passes.integration import oracle
from xpu_passes.dialects import make_context, ttg
from xpu_passes.frontend import parse_module
from xpu_passes.ir import journal
from xpu_passes.transforms.remove_layout_conversions import solution
from xpu_passes.ir.journal import Journal
from xpu_passes.transforms.remove_layout_conversions.pending import Pending
from xpu_passes.layouts.propagation import encoding, with_encoding

from support import rlc_dump as _dump

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]


def _walk(j: Journal, tried: set[Operation]) -> list[Operation]:
    return sorted(j.converts - tried, key=j.order.keys.__getitem__)


def _rest(p: Pending) -> list[Operation]:
    out = []
    while (c := p.next()) is not None:
        if p.live(c):
            out.append(c)
    return out


def test_a_kept_rewrite_that_adds_and_erases_conversions_is_followed() -> None:
    """A kept rewrite makes conversions in the middle and at the end of the list and replaces one
    not tried yet by a new one: the list follows (as sorting again would), in walk order."""
    module = parse_module(make_context(), _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    j, tried = Journal(module), set()
    p = Pending(j, tried)
    assert len(p.ops) >= 3
    first = p.next()
    tried.add(first)
    later = p.ops[-1]  # erased before it is tried
    anchors = [o for o in module.walk() if o.results and isinstance(o.results[0].type, TensorType)
               and o.results[0].uses and o.parent is not None and o not in j.converts]
    made = []
    j.begin()
    for v in (anchors[len(anchors) // 3].results[0], anchors[-2].results[0]):
        other = next(encoding(c.result.type) for c in j.converts if encoding(c.result.type) != encoding(v.type))
        c = journal.created(ttg.ConvertLayoutOp.build(operands=[v], result_types=[with_encoding(v.type, other)]))
        journal.insert_op(c, InsertPoint.after(v.owner))  # type: ignore[arg-type]
        made.append(c)
    twin = ttg.ConvertLayoutOp.build(operands=[later.operands[0]], result_types=[later.results[0].type])
    journal.created(twin)
    journal.insert_op(twin, InsertPoint.before(later))
    journal.replace_all_uses_with(later.results[0], twin.results[0])
    journal.erase_op(later)
    made.append(twin)
    j.commit()
    expected = _walk(j, tried)
    assert later not in expected and all(c in expected for c in made)
    assert [c for c in p.ops[p.at:] if p.live(c)] != expected  # the list as it was is stale
    p.refresh()
    assert _rest(p) == expected


def test_the_check_mode_finds_a_stale_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A list that missed a new conversion is found by the check mode's full sort."""
    module = parse_module(make_context(), _dump("flash_attention_fwd", "64x32x64-w4-s2", 0).read_text()).module
    j, tried = Journal(module, check=True), set()
    p = Pending(j, tried)
    p.refresh()  # nothing changed: agrees
    p.known.add(p.ops.pop())  # as if one had been listed and lost
    with pytest.raises(AssertionError, match="pending conversions"):
        p.refresh()
