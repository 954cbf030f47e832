"""Subgroup2DBlock layout assignment and its legalization for triton-xpu 3.3, on the corpus.

Every GEMM/attention kernel of the corpus, from the TTGIR right before the native
MaterializeBlockPointer: native MaterializeBlockPointer, then our
OptimizeBlockIOEncoding (2D block layouts on the dot operands' loads) and
LegalizeBlockIOEncoding (back to layouts 3.3 knows), then the rest of triton-xpu's
pipeline and its lowering. The result must verify and lower with no fewer 2D block
reads and DPAS calls than the native compile, and no more SLM.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xdsl.dialects.builtin import ModuleOp

from xpu_passes.dialects import make_context, tt, ttg
from xpu_passes.dialects.ttig import BLOCK_IO, DpasEncodingAttr, Subgroup2DBlockEncodingAttr
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.layouts.block_io import BlockRead, NoBlockRead, operand_block_read, subgroup_2d_block_for
from xpu_passes.transforms.base import collecting_remarks
from xpu_passes.transforms.legalize_block_io_encoding import LegalizeBlockIOEncoding
from xpu_passes.transforms.optimize_block_io_encoding import OptimizeBlockIOEncoding

MBP = "tritonintelgpu-materialize-block-pointer"


def _dpas(warps: list[int], rep_cluster: list[int], ops_per_chan: int = 2) -> DpasEncodingAttr:
    return DpasEncodingAttr.make(
        repeatCount=8,
        systolicDepth=8,
        executionSize=16,
        opsPerChan=ops_per_chan,
        threadsPerWarp=16,
        warpsPerCTA=warps,
        repCluster=rep_cluster,
    )


def _dot(op_idx: int, dpas: DpasEncodingAttr, k_width: int) -> ttg.DotOperandEncodingAttr:
    return ttg.DotOperandEncodingAttr.make(opIdx=op_idx, parent=dpas, kWidth=k_width)


# ------------------------------------------------------------ read shapes


@pytest.mark.parametrize(
    ("warps", "rep_cluster", "op_idx", "shape", "row_major", "expected", "builtin"),
    [
        # 256x256x32 bf16, 32 warps: A stacks 4 DPAS tiles (32 rows) and reads both K tiles
        # as 2 blocks; B stacks its 2 K tiles (32 rows) and its repCluster as 2 blocks.
        ([8, 4], [4, 2], 0, (256, 32), True, BlockRead((32, 16), 2, False), "read_16b_32r16x2c"),
        ([8, 4], [4, 2], 1, (32, 256), True, BlockRead((32, 16), 2, False), "read_transform_16b_32r16x2c"),
        # 8x128x64, 4 warps: A has one 8-row tile; 4 K tiles but 64 bytes per row allow 2.
        ([1, 4], [1, 2], 0, (8, 64), True, BlockRead((8, 16), 2, False), "read_16b_8r16x2c"),
        # Attention's K (column major): a transposed 32-bit read of 32 N rows x 16 K
        # (8 dwords); in the tensor: K x 16 lanes, 2 lane groups along N.
        ([8, 1], [2, 2], 1, (64, 64), False, BlockRead((16, 16), 2, True), "read_transpose_32b_32r8x1c"),
    ],
)
def test_operand_block_read(
    warps: list[int],
    rep_cluster: list[int],
    op_idx: int,
    shape: tuple[int, int],
    row_major: bool,
    expected: BlockRead,
    builtin: str,
) -> None:
    dpas = _dpas(warps, rep_cluster)
    read = operand_block_read(_dot(op_idx, dpas, 1 if op_idx == 0 else 2), shape, 16, row_major)
    assert read == expected
    assert read.builtin(16, vnni=op_idx == 1) == f"intel_sub_group_2d_block_{builtin}"


def test_no_block_read_for_column_major_a_or_unpacked_b() -> None:
    dpas = _dpas([8, 4], [4, 2])
    a = operand_block_read(_dot(0, dpas, 1), (256, 32), 16, row_major=False)
    assert isinstance(a, NoBlockRead) and "A operand" in a.reason
    b = operand_block_read(_dot(1, _dpas([8, 4], [4, 2], ops_per_chan=1), 1), (32, 256), 16, row_major=False)
    assert isinstance(b, NoBlockRead) and "packed" in b.reason


def test_subgroup_2d_block_layout_fields() -> None:
    dpas = _dpas([8, 4], [4, 2])
    layout = subgroup_2d_block_for(_dot(1, dpas, 2), (32, 256), 16, True)
    assert isinstance(layout, Subgroup2DBlockEncodingAttr)
    assert layout.warps_per_cta == (8, 4) and layout.instr_shape == (32, 16) and layout.num_blocks == 2
    assert layout.order == (0, 1) and layout.k_width == 2 and layout.threads_per_warp == 16


# ------------------------------------------------------------ corpus


def _entries() -> list[dict]:
    if not oracle.available():
        return []
    from xpu_passes.corpus import entries

    out = []
    for e in entries():
        step = next((s for s in e["steps"] if s["step"] == f"ttgir.{MBP}"), None)
        if step and "tt.dot" in (Path(e["dir"]) / step["file"]).read_text():
            out.append({**e, "mbp_file": step["file"]})
    return out


ENTRIES = _entries()


def _block_loads(module: ModuleOp) -> list[str]:
    """The read builtin of each load in a 2D block layout, which must feed exactly one
    conversion, to a dot operand, and have the fields of that operand's read."""
    reads = []
    for op in module.walk():
        if isinstance(op, tt.LoadOp) and isinstance(op.result.type.encoding, Subgroup2DBlockEncodingAttr):
            layout = op.result.type.encoding
            users = [u.operation for u in op.result.uses]
            assert len(users) == 1 and isinstance(users[0], ttg.ConvertLayoutOp)
            dot = users[0].result.type.encoding
            assert isinstance(dot, ttg.DotOperandEncodingAttr)
            assert all(isinstance(u.operation, tt.DotOp) for u in users[0].result.uses)
            bits = op.result.type.element_type.bitwidth
            row_major = op.attributes[BLOCK_IO].data == "row_major"
            read = operand_block_read(dot, op.result.type.get_shape(), bits, row_major)
            assert isinstance(read, BlockRead)
            assert (read.shape, read.num_blocks) == (layout.instr_shape, layout.num_blocks)
            packed = dot.parent.ops_per_chan * bits == 32
            reads.append(read.builtin(bits, vnni=dot.op_idx == 1 and packed and bits != 32))
    return reads


def _ours(text: str, **legalize: bool) -> tuple[list[str], str, list[str]]:
    """(2D block reads of the loads optimize retyped, text after legalize, legalize remarks)."""
    ctx = make_context()
    parsed = parse_module(ctx, text)
    OptimizeBlockIOEncoding().apply(ctx, parsed.module)
    reads = _block_loads(parsed.module)
    with collecting_remarks() as sink:
        LegalizeBlockIOEncoding(**legalize).apply(ctx, parsed.module)
    remarks = [r.message for r in sink.remarks]
    return reads, print_module(parsed.module, parsed.spelling, debuginfo=True), remarks


# Loads that get a 2D block layout: A and B of every block-pointer GEMM, but A of
# gemm_exp_preop goes through a cast first; Q, K, V of attention; none where A/B are
# tensors of pointers.
EXPECTED_BLOCK_LOADS = {"gemm_exp_preop": 1, "flash_attention_fwd": 3, "gemm_tensor_ptr": 0}


def _compile_on(entry: dict, **legalize: bool) -> tuple[oracle.StaticFigures, list[str], list[str]]:
    """(figures of the compile with our passes, reads of the 2D block layouts, legalize remarks)."""
    from xpu_passes.corpus import resume_native

    text = oracle.run_native_pass((Path(entry["dir"]) / entry["mbp_file"]).read_text(), MBP)
    reads, legal, remarks = _ours(text, **legalize)
    assert len(reads) == EXPECTED_BLOCK_LOADS.get(entry["kernel"], 2)
    assert "subgroup_2d_block" not in legal and "#block_io" not in legal
    return resume_native(entry, entry["mbp_file"], legal), reads, remarks


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
def test_dot_kernels_are_covered() -> None:
    assert len(ENTRIES) >= 15
    assert any("flash_attention" in e["kernel"] for e in ENTRIES)


def _native_reads(entry: dict) -> set[str]:
    """The 2D block read builtins triton-xpu's own compile of the kernel calls."""
    from xpu_passes.corpus import find

    _, config = find(entry["kernel"], entry["config"])
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large"))
    llir = backend.make_llir(oracle.parse((Path(entry["dir"]) / "final.ttgir").read_text()), {}, opts)
    return set(re.findall(r"intel_sub_group_2d_block_read\w*?_\d+b_\d+r\d+x\d+c", llir))


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['kernel']}-{e['config']}")
def test_optimize_legalize_compiles_on(entry: dict) -> None:
    figures, reads, remarks = _compile_on(entry)
    # instrShape/numBlocks of every 2D block layout are a read triton-xpu's own lowering issues
    assert set(reads) <= _native_reads(entry)
    assert all("#ttg.linear" not in r for r in remarks)  # every 2D block load was folded
    native = entry["figures"]
    assert figures.block_reads >= native["block_reads"]
    assert figures.dpas >= native["dpas"]
    assert figures.shared_bytes <= native["shared_bytes"]


STRICT = [e for e in ENTRIES if e["config"] in ("256x256x32-w32-s3", "128x64x64-w8-s3") and "gemm_add" not in e["kernel"]]


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
@pytest.mark.parametrize("entry", STRICT, ids=lambda e: f"{e['kernel']}-{e['config']}")
def test_strict_legalization_keeps_b_conversion_and_compiles_on(entry: dict) -> None:
    """Without register-permutation folds, B's 2D block load becomes #ttg.linear plus a conversion."""
    figures, _, remarks = _compile_on(entry, fold_register_permutations=False)
    linear = [r for r in remarks if "#ttg.linear" in r]
    assert len(linear) == (0 if entry["kernel"] == "gemm_tensor_ptr" else 1)
    assert all("order of each thread's registers" in r for r in linear)
    native = entry["figures"]
    assert figures.block_reads >= native["block_reads"] and figures.dpas >= native["dpas"]
    assert figures.shared_bytes <= native["shared_bytes"]
