"""SLM messages in the estimate (isa_estimate, layouts/slm_messages.py) against IGC's, and the stage guard's
use of them. The construct (integration/gemv_construct.py, written for these tests): a GEMV step in one
warp whose dequantized tile is reduced along axis 0 either where pairs of lanes share a column (the
32x1 scale column converted into lanes holding different rows: a load per row) or where every lane holds
whole columns (the tile shuffled, the column read at the same addresses by every lane). The first has
one conversion fewer and the same SLM bytes, so the TTGIR's figures prefer it; IGC sends 17 SLM messages
where the second sends 3 (gemlite's gemv W_nbits=1 in the third-party set: also 960 B of spill)."""

from __future__ import annotations

import pytest

from xpu_passes.integration import isa, oracle
from xpu_passes.integration.isa_estimate import estimate_text
from xpu_passes.integration.stage_figures import judge_stages

from integration.gemv_construct import gemv
from integration.plugin_support import needs_triton


def _messages(text: str) -> int:
    est = estimate_text(text)
    assert est is not None
    return est.slm_messages


def test_a_column_split_between_lanes_costs_more_messages_than_a_broadcast_one() -> None:
    split, whole = _messages(gemv("#tile")), _messages(gemv("#row"))
    assert split > whole > 0


@pytest.mark.triton
@needs_triton
@pytest.mark.skipif(not isa.available(), reason=isa.MISSING)
@pytest.mark.parametrize("reduce_in", ["#tile", "#row"])
def test_estimated_slm_messages_are_igcs(reduce_in: str) -> None:
    text = gemv(reduce_in)
    backend = oracle.pvc_backend()
    spv, flags, name = oracle.lower_spirv(oracle.parse(text), backend.parse_options(dict(num_warps=1)), backend)
    assert isa.compile_spirv(spv, flags, name).slm_messages == _messages(text)


@needs_triton
def test_the_stage_guard_keeps_natives_broadcast_column() -> None:
    ours, native = gemv("#tile"), gemv("#row")
    assert ours.count("ttg.convert_layout") < native.count("ttg.convert_layout")
    loss = f"SLM messages {_messages(ours)} > {_messages(native)} (estimated)"
    losses, why = judge_stages(ours, native, oracle.context())
    assert losses == [loss], why
    assert why.startswith(f"triton-xpu's stage kept: ours would leave {loss}")
    # the other way round nothing is lost in messages (native keeps its stage by its conversion fewer)
    losses, why = judge_stages(native, ours, oracle.context())
    assert not any("SLM messages" in x for x in losses), why
