"""xpu_passes.integration.isa: reading IGC's output, the ocloc plumbing, the ISA judge, and one
corpus kernel compiled natively to PVC ISA when ocloc is installed (tools/install-igc)."""

from __future__ import annotations

import dataclasses
import stat
from pathlib import Path

import pytest

from xpu_passes.integration import isa, oracle

ZE_INFO = """---
version:         '1.73'
kernels:
  - name:            other_kernel
    execution_env:
      grf_count:       128
      simd_size:       32
      spill_size:      64
  - name:            my_kernel
    user_attributes:
      intel_reqd_sub_group_size: 16
    execution_env:
      barrier_count:   1
      grf_count:       256
      has_dpas:        true
      simd_size:       16
      spill_size:      896
      slm_size:        4096
    payload_arguments:
      - arg_type:        arg_bypointer
        offset:          0
        size:            8
    per_thread_memory_buffers:
      - type:            scratch
        usage:           single_space
        size:            1024
      - type:            global
        usage:           private_space
        size:            256
kernels_misc_info:
  - name:            my_kernel
    execution_env:
      spill_size:      99999
"""

# One line of each message kind the figures count, and of the ones they must not count.
ASM = """L0:
(W)     mov (16|M0)              r255.0<1>:ud  0x0:ud
(W)     send.ugm (1|M0)          r1       r255    null:0  0xFF000000            0x6228E500           {A@1,$0} // wr:1+0, rd:2; load.ugm.d32x32t.a32.ca.ca.bti[255]
        send.ugm (1|M0)          r20      r18     null:0  0x0            0x02800203           {$4} // wr:1+0, rd:8; load_block2d.ugm.d16.a64.ca.ca
        send.ugm (1|M0)          null     r19     null:0  0x0            0x02080203           {A@1,$5} // wr:1+0, rd:0; load_block2d.ugm.d16.a64.ca.ca
        send.ugm (1|M0)          null     r19     r40:8   0x0            0x02000207           {$6} // wr:1+8, rd:0; store_block2d.ugm.d32.a64
        send.ugm (16|M0)         r6       r2      null:0  0x0            0x04100580           {I@1,$19} // wr:2+0, rd:1; load.ugm.d32.a64
(f0.0)  send.ugm (16|M0)         r6       r2      null:0  0x0            0x04100580           {$20} // wr:2+0, rd:4; load_cmask.ugm.d32.xyzw.a64
        send.ugm (16|M0)         null     r2      r8:1    0x0            0x04000584           {$21} // wr:2+1, rd:0; store.ugm.d16u32.a64
        send.ugm (1|M0)          null     r2      r8:4    0x0            0x04000584           {$22} // wr:1+4, rd:0; store.ugm.d32x64t.a64
        send.slm (16|M0)         null     r7      r5:1    0x0            0x02000504           {I@2,$11} // wr:1+1, rd:0; store.slm.d32.a32
        send.slm (16|M0)         r9       r7      null:0  0x0            0x02100500           {$12} // wr:1+0, rd:1; load.slm.d32x4.a32
(W)     send.slm (1|M0)          null     r0      null:0  0x0            0x0210011F           {$13} // wr:1+0, rd:0; fence.slm.none.group
(W)     send.dc0 (8|M0)          null     r0      r49:1   0x0            0x020F1014           {$8} // wr:1h+1, rd:0; hword scratch block write x2
(W)     send.ugm (16|M0)         r44      r3      null:0  0x0            0x021C1014           {$9} // wr:1+0, rd:2; load.ugm.d32x32t.a32.ss[a0.2]
// a comment line

        dpas.8x8 (16|M0)         r10:f    r10:f    r20:bf  r30.0:bf {Atomic}
        dpas.8x8 (16|M0)         r18:f    r18:f    r20:bf  r38.0:bf {$1}
L1200:
(W&~f1.1) jmpi                               L488
        bfn.(s0&s1|s2) (16|M0)   r5.0<1>:ud    r4.0<1;0>:ud      r5.0<1;0>:ud      r3.0<1;0>:ud     // s0&s1|s2
(W)     send.gtwy (1|M0)         null     r112    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread
"""


def test_figures_of_each_message_kind() -> None:
    f = isa.parse(ZE_INFO, ASM, "my_kernel")
    assert f == isa.IsaFigures(
        instructions=19, spill_bytes=896, grf_count=256, private_size=256, slm_size=4096, block2d_loads=1,
        block2d_prefetches=1, block2d_stores=1, gathers=2, scatters=1, slm_messages=2, dpas=2, simd=16,
    )  # fmt: skip
    assert f.as_dict()["gathers"] == 2 and tuple(f.as_dict()) == isa.FIGURE_NAMES


def test_the_kernel_named_is_read_and_absent_sizes_are_zero() -> None:
    f = isa.parse(ZE_INFO, "  add (1|M0)  r1.0<1>:d  r2.0<0;1,0>:d  1:w\n", "other_kernel")
    assert (f.grf_count, f.simd, f.spill_bytes, f.private_size, f.slm_size, f.instructions) == (128, 32, 64, 0, 0, 1)
    no_spill = ZE_INFO.replace("      spill_size:      896\n", "")
    assert isa.parse(no_spill, ASM, "my_kernel").spill_bytes == 0
    assert (f.gathers, f.scatters, f.slm_messages, f.block2d_loads, f.dpas) == (0, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("load_block2d.ugm.d16v.a64", "block2d_loads"),
        ("store_block2d.ugm.d32.a64", "block2d_stores"),
        ("load.ugm.d8u32.a64", "gathers"),
        ("store_cmask.ugm.d32.xy.a64", "scatters"),
        ("atomic_iadd.slm.d32.a32", "slm_messages"),
        ("load.ugm.d32x16t.a32.ca.ca.bti[255]", None),  # transposed: one address, a block
        ("store.ugm.d32x16.a32.ss[a0.2]", None),  # scratch: a spill
        ("hword scratch block read x8", None),
        ("fence.slm.none.group", None),
        ("atomic_fadd.ugm.d32.a64", None),
        ("end of thread", None),
    ],
)
def test_classify(message: str, kind: str | None) -> None:
    assert isa.classify(message) == kind


@pytest.mark.parametrize(
    ("ze_info", "asm", "step", "says"),
    [
        ("version: '1.0'\n", ASM, "read .ze_info", "no 'kernels:' list"),
        (ZE_INFO.replace("my_kernel", "renamed"), ASM, "read .ze_info", "no kernel 'my_kernel' in it (kernels: other_kernel, renamed)"),
        (ZE_INFO.replace("grf_count:       256", "grf_count:       lots"), ASM, "read .ze_info", "grf_count: 'lots' is not an integer"),
        (ZE_INFO.replace("      grf_count:       256\n", ""), ASM, "read .ze_info", "no grf_count"),
        (ZE_INFO.replace("    execution_env:\n      barrier_count", "    other_env:\n      barrier_count"), ASM,
         "read .ze_info", "no execution_env for kernel 'my_kernel'"),
        (ZE_INFO, "L0:\n// nothing\n\n", "read the ISA", "no instruction"),
    ],
)  # fmt: skip
def test_malformed_output_is_a_located_error(ze_info: str, asm: str, step: str, says: str) -> None:
    with pytest.raises(isa.IsaError) as e:
        isa.parse(ze_info, asm, "my_kernel")
    assert (e.value.kernel, e.value.step) == ("my_kernel", step)
    assert says in e.value.message and str(e.value).startswith(f"ISA of 'my_kernel': {step}: ")


# ------------------------------------------------------------- the ocloc plumbing, with a stand-in


def _ocloc_script(tmp_path: Path, compile_case: str, ze_info: str) -> Path:
    """An `ocloc` that logs its arguments, runs `compile_case` for `compile` and disassembles to the
    file `ze_info` (a shell word) and ASM."""
    (tmp_path / "asm").write_text(ASM)
    exe = tmp_path / "ocloc"
    exe.write_text(f"""#!/bin/sh
echo "$@" >> {tmp_path}/calls
case "$1" in
compile) {compile_case}
         mkdir -p "${{13}}" && echo ZEBIN > "${{13}}/${{11}}_pvc.bin" ;;
disasm)  mkdir -p "$5" && cp {ze_info} "$5/.ze_info" && cp {tmp_path}/asm "$5/.text.my_kernel.asm" ;;
esac
""")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def _fake_ocloc(tmp_path: Path, compile_exit: int = 0) -> Path:
    """An `ocloc` that writes a zebin and a disassembly of ZE_INFO/ASM (a failing compile: `compile_exit`)."""
    (tmp_path / "ze_info").write_text(ZE_INFO)
    return _ocloc_script(tmp_path, f"""[ {compile_exit} = 0 ] || {{ echo "Error: Invalid SPIR-V module"; exit {compile_exit}; }}
         [ "$(cat "$4")" = SPIRV ] || exit 9""", f"{tmp_path}/ze_info")


def test_compile_passes_the_build_flags_and_reads_the_dump(tmp_path: Path) -> None:
    exe = _fake_ocloc(tmp_path)
    f = isa.compile_spirv(b"SPIRV", "-cl-intel-256-GRF-per-thread", "my_kernel", ocloc=str(exe))
    assert f == isa.parse(ZE_INFO, ASM, "my_kernel")
    compile_call, disasm_call = (tmp_path / "calls").read_text().splitlines()
    assert compile_call == "compile -q -file k.spv -spirv_input -device pvc -options -cl-intel-256-GRF-per-thread -output k -out_dir bin"
    assert disasm_call.startswith("disasm -file ") and disasm_call.endswith("/bin/k_pvc.bin -dump dis")
    with pytest.raises(isa.IsaError, match=r"ISA of 'renamed': ocloc disasm: no .ze_info or .text.renamed.asm"):
        isa.compile_spirv(b"SPIRV", "", "renamed", ocloc=str(exe))


def _grf_ocloc(tmp_path: Path, small_spill: int, large_fails: bool = False) -> Path:
    """An `ocloc` whose build spills `small_spill` bytes with 128 GRFs and none with the large file."""
    large = ZE_INFO.replace("spill_size:      896", "spill_size:      0")
    (tmp_path / "small").write_text(ZE_INFO.replace("grf_count:       256", "grf_count:       128")
                                    .replace("spill_size:      896", f"spill_size:      {small_spill}"))
    (tmp_path / "large").write_text(large)
    return _ocloc_script(tmp_path, f"""case "$9" in *256-GRF*) [ {int(large_fails)} = 0 ] || exit 3; echo large > {tmp_path}/mode ;;
                      *) echo small > {tmp_path}/mode ;; esac""", f"{tmp_path}/$(cat {tmp_path}/mode)")


def test_a_spilling_kernel_with_no_grf_flag_is_measured_as_the_driver_rebuilds_it(tmp_path: Path) -> None:
    exe = str(_grf_ocloc(tmp_path, small_spill=2048))
    f = isa.compile_spirv(b"SPIRV", "", "my_kernel", ocloc=exe)
    assert (f.grf_count, f.spill_bytes) == (256, 0)
    assert [c.split(" -output")[0].split("-options ")[1] for c in (tmp_path / "calls").read_text().splitlines()
            if c.startswith("compile")] == ["", "-cl-intel-256-GRF-per-thread"]  # fmt: skip
    assert (isa.compile_spirv(b"SPIRV", "", "my_kernel", ocloc=exe, driver_retry=False).spill_bytes) == 2048
    # a GRF mode in the flags is kept as given, as the driver does
    for flag in ("-cl-intel-128-GRF-per-thread", "-cl-intel-enable-auto-large-GRF-mode"):
        assert isa.compile_spirv(b"SPIRV", flag, "my_kernel", ocloc=exe).spill_bytes == 2048


def test_the_driver_keeps_a_small_spill_and_a_failed_rebuild(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    small = str(_grf_ocloc(tmp_path / "a", small_spill=isa.DRIVER_MAX_SPILL))
    assert isa.compile_spirv(b"SPIRV", "", "my_kernel", ocloc=small).spill_bytes == isa.DRIVER_MAX_SPILL
    (tmp_path / "b").mkdir()
    failing = str(_grf_ocloc(tmp_path / "b", small_spill=4096, large_fails=True))
    f = isa.compile_spirv(b"SPIRV", "", "my_kernel", ocloc=failing)
    assert (f.grf_count, f.spill_bytes) == (128, 4096)


def test_ocloc_failures_are_located_errors(tmp_path: Path) -> None:
    exe = _fake_ocloc(tmp_path, compile_exit=10)
    with pytest.raises(isa.IsaError) as e:
        isa.compile_spirv(b"SPIRV", "", "my_kernel", ocloc=str(exe))
    assert e.value.step == "ocloc compile -device pvc"
    assert e.value.message == "exit status 10: Error: Invalid SPIR-V module"
    missing = tmp_path / "no-ocloc"
    assert isa.ocloc_path(str(missing)) is None and not isa.available(str(missing))
    with pytest.raises(isa.IsaError, match=r"'k': find ocloc: .*no-ocloc is not executable"):
        isa.compile_spirv(b"", "", "k", ocloc=str(missing))


# ------------------------------------------------------------- the judge


BASE = dataclasses.replace(isa.parse(ZE_INFO, ASM, "my_kernel"), instructions=100)


@pytest.mark.parametrize(
    ("change", "lost"),
    [
        ({}, []),
        ({"instructions": 105, "spill_bytes": 0, "gathers": 0, "block2d_loads": 4}, []),  # +5% and better elsewhere
        ({"instructions": 106}, ["instructions 100->106 (+6%)"]),
        ({"spill_bytes": 960}, ["spill_bytes 896->960"]),
        ({"slm_messages": 3, "scatters": 2}, ["slm_messages 2->3", "scatters 1->2"]),
        ({"block2d_stores": 0, "dpas": 1}, ["block2d_stores 1->0", "dpas 2->1"]),
    ],
)
def test_worse_than(change: dict[str, int], lost: list[str]) -> None:
    assert isa.worse_than(BASE, dataclasses.replace(BASE, **change)) == lost


def test_judge_counts_slm_bytes_and_states_the_slm_trade() -> None:
    more_spill = dataclasses.replace(BASE, spill_bytes=2000)
    assert isa.judge(BASE, BASE, 1024, 1024) == ("ok", [])
    assert isa.judge(BASE, BASE, 1024, 2048) == ("WORSE", ["SLM 1024->2048"])  # warps unknown: any more bytes
    # 4 warps: 16 work-groups per Xe-core by its 64 threads; 8 KB each fit 128 KB, 16 KB hold only 8
    assert isa.judge(BASE, BASE, 2688, 8192, warps=4) == ("ok", [])
    assert isa.judge(BASE, BASE, 2576, 16384, warps=4) == ("WORSE", ["SLM 2576->16384"])
    assert isa.judge(BASE, BASE, 2576, 16384, warps=8) == ("ok", [])  # 8 work-groups by threads either way
    assert isa.judge(BASE, more_spill, 64 * 1024, 0) == ("WORSE", ["spill_bytes 896->2000"])
    assert isa.judge(BASE, more_spill, 263168, 0) == ("TRADE", ["spill_bytes 896->2000"])  # native cannot launch
    assert isa.judge(BASE, more_spill, 263168, 140000)[0] == "WORSE"  # nor can ours


def test_judge_states_the_register_file_trade() -> None:
    native = dataclasses.replace(BASE, grf_count=256, spill_bytes=0)  # the driver's large-GRF rebuild
    ours = dataclasses.replace(BASE, grf_count=128, spill_bytes=384)
    assert isa.judge(native, ours, 0, 0) == ("TRADE", ["spill_bytes 0->384"])
    assert isa.judge(native, dataclasses.replace(ours, spill_bytes=1024), 0, 0)[0] == "WORSE"  # past the driver's limit
    assert isa.judge(native, dataclasses.replace(ours, gathers=9), 0, 0)[0] == "WORSE"  # loses more than spill
    assert isa.judge(native, dataclasses.replace(ours, grf_count=256), 0, 0)[0] == "WORSE"  # same file
    assert isa.judge(native, ours, 0, 64)[0] == "WORSE"  # more SLM too


@pytest.mark.parametrize(
    ("change", "slm", "won", "better"),
    [
        ({}, (0, 0), [], False),  # equal is not better
        ({"instructions": 96}, (0, 0), [], False),  # 4% fewer: within the judge's 5%
        ({"instructions": 95}, (0, 0), ["instructions 100->95 (-5%)"], True),
        ({"spill_bytes": 0, "block2d_loads": 4}, (0, 0), ["spill_bytes 896->0", "block2d_loads 1->4"], True),
        ({}, (1024, 0), ["SLM 1024->0"], True),
        ({"spill_bytes": 0, "instructions": 106}, (0, 0), ["spill_bytes 896->0"], False),  # wins one, loses one
        ({"gathers": 0}, (0, 2048), ["gathers 2->0"], False),  # more SLM bytes: worse, so not better
        ({}, (16384, 8192, 4), ["SLM 16384->8192"], True),  # 8 work-groups per Xe-core -> 16
        ({}, (16384, 8192, 8), [], False),  # 8 either way (64 threads / 8 warps): not a gain
        ({"gathers": 0}, (2688, 8192, 4), ["gathers 2->0"], True),  # 16 either way: not a loss
    ],
)
def test_gains_mirror_the_judge(change: dict[str, int], slm: tuple[int, ...], won: list[str], better: bool) -> None:
    ours = dataclasses.replace(BASE, **change)
    assert isa.gains(BASE, ours, *slm) == won
    assert isa.strictly_better(BASE, ours, *slm) is better


# ------------------------------------------------------------- IGC itself


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="the kernel needs triton-xpu")
@pytest.mark.skipif(not isa.available(), reason=isa.MISSING)
def test_a_corpus_gemm_compiles_natively_to_pvc_isa(plugin: object) -> None:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes.corpus import SETS

    spec = next(s for s in SETS["core"] if s.name == "gemm_block_ptr")
    config = next(c for c in spec.configs if c.name == "8x128x64-w4-s3")
    src = ASTSource(spec.fn, spec.signature(), dict(config.constexprs), spec.attrs())
    opts = dict(num_warps=config.num_warps, num_stages=config.num_stages, grf_mode="large")
    kernel = triton.compile(src, target=oracle.pvc_target(), options=opts)
    spv, flags, name = oracle.spirv(kernel)
    assert spv[:4] == b"\x03\x02\x23\x07" and flags == "-cl-intel-256-GRF-per-thread" and name == "gemm_block_ptr"
    f = isa.compile_spirv(spv, flags, name)
    assert (f.grf_count, f.simd) == (256, 16)  # large GRF as asked, sub-groups of 16
    assert f.dpas > 0 and f.block2d_loads > 0 and f.block2d_stores > 0  # a block-pointer GEMM on PVC
    assert f.gathers == f.scatters == f.slm_messages == f.spill_bytes == 0
    # The same TTGIR lowered by oracle.lower_spirv gives the same kernel.
    backend = oracle.pvc_backend()
    again = oracle.lower_spirv(oracle.parse(kernel.asm["ttgir"]), backend.parse_options(opts), backend)
    assert again[1:] == (flags, name) and isa.compile_spirv(*again) == f
