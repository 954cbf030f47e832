"""What a PVC runs: Intel's GPU compiler (IGC, through `ocloc`) on a kernel's SPIR-V, and its figures.

    from xpu_passes.integration import isa
    figs = isa.compile_spirv(spv, build_flags, kernel_name)   # IsaFigures, or IsaError
    isa.ocloc_path()                                          # None: not installed (tools/install-igc)

The SPIR-V and build flags are what triton-xpu hands the driver (`oracle.spirv(kernel)` gets
them from a `triton.compile` result). ocloc compiles them for `-device pvc` into a zebin, its
disassembler writes `.ze_info` (YAML: GRF count, spill and SLM sizes, SIMD width) and the ISA
of the kernel; `parse` counts the memory messages in it (each `send` names its message in a
trailing comment). Counts are static: an instruction in a loop body counts once.
No GPU is needed. Each call works in its own temporary directory (thread and process safe).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, fields, replace
from pathlib import Path

from xpu_passes.integration.occupancy import SLM_LIMIT, fewer_work_groups

DEFAULT_INSTALL = "/opt/xpu-passes-igc/ocloc"  # where tools/install-igc puts its launcher
DEVICE = "pvc"
TIMEOUT_S = 600  # one kernel takes 0.1-2 s; a hung ocloc must not hang a benchmark


class IsaError(RuntimeError):
    """ocloc failed, or its output could not be read: which kernel, which step, what it said."""

    def __init__(self, kernel: str, step: str, message: str) -> None:
        self.kernel, self.step, self.message = kernel, step, message.strip()
        super().__init__(f"ISA of '{kernel}': {step}: {self.message or 'no message'}")


@dataclass(frozen=True)
class IsaFigures:
    """IGC's own figures for one kernel (per hardware thread where a size)."""

    instructions: int  # ISA lines that are instructions (no labels, no comment lines)
    spill_bytes: int  # .ze_info spill_size; absent = 0
    grf_count: int  # 128 or 256 registers per thread
    private_size: int  # private memory per thread (0 when none)
    slm_size: int  # static SLM; triton's is dynamic (metadata "shared"), so usually 0
    block2d_loads: int  # load_block2d messages that return data
    block2d_prefetches: int  # load_block2d messages with no destination
    block2d_stores: int
    gathers: int  # load.ugm / load_cmask.ugm, one address per lane (not transposed, not scratch)
    scatters: int  # store.ugm / store_cmask.ugm likewise
    slm_messages: int  # SLM reads, writes and atomics
    dpas: int
    simd: int

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


FIGURE_NAMES = tuple(f.name for f in fields(IsaFigures))


# ------------------------------------------------------------------ finding ocloc


def ocloc_path(explicit: str | None = None) -> str | None:
    """`explicit` if given (it must run), else `ocloc` on PATH, else tools/install-igc's launcher."""
    if explicit is not None:
        return explicit if os.access(explicit, os.X_OK) else None
    return shutil.which("ocloc") or (DEFAULT_INSTALL if os.access(DEFAULT_INSTALL, os.X_OK) else None)


def available(explicit: str | None = None) -> bool:
    return ocloc_path(explicit) is not None


MISSING = "IGC (ocloc) not found: ISA figures skipped (install it with tools/install-igc)"


# ------------------------------------------------------------------ compiling


def _run(cmd: list[str], cwd: str, kernel: str, step: str) -> None:
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise IsaError(kernel, step, str(e)) from None
    if done.returncode != 0:
        text = "\n".join(ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip())
        raise IsaError(kernel, step, f"exit status {done.returncode}: {text[-2000:]}")


# triton-xpu 3.3's driver (driver.c, loadBinary): a kernel built with no GRF flag that spills more than
# this many bytes is rebuilt with the large GRF file, and that build is what runs.
DRIVER_MAX_SPILL = 1000
LARGE_GRF_FLAG = "-cl-intel-256-GRF-per-thread"
GRF_FLAGS = (LARGE_GRF_FLAG, "-cl-intel-128-GRF-per-thread", "-cl-intel-enable-auto-large-GRF-mode")


def compile_spirv(spv: bytes, build_flags: str, kernel: str, ocloc: str | None = None,
                  device: str = DEVICE, driver_retry: bool = True) -> IsaFigures:  # fmt: skip
    """IGC's figures for `kernel` in the SPIR-V module `spv`, built with the driver's `build_flags`:
    the binary the driver loads (with `driver_retry`, its large-GRF rebuild of a spilling kernel whose
    flags name no GRF mode; if that rebuild fails the driver keeps the first, and so do we)."""
    first = _compile_once(spv, build_flags, kernel, ocloc, device)
    if not driver_retry or first.spill_bytes <= DRIVER_MAX_SPILL or any(f in build_flags for f in GRF_FLAGS):
        return first
    try:
        return _compile_once(spv, f"{build_flags} {LARGE_GRF_FLAG}".strip(), kernel, ocloc, device)
    except IsaError:
        return first


def _compile_once(spv: bytes, build_flags: str, kernel: str, ocloc: str | None, device: str) -> IsaFigures:
    exe = ocloc_path(ocloc)
    if exe is None:
        raise IsaError(kernel, "find ocloc", ocloc and f"{ocloc} is not executable" or MISSING)
    with tempfile.TemporaryDirectory(prefix="xpu-passes-isa-") as tmp:
        Path(tmp, "k.spv").write_bytes(spv)
        _run([exe, "compile", "-q", "-file", "k.spv", "-spirv_input", "-device", device, "-options", build_flags,
              "-output", "k", "-out_dir", "bin"], tmp, kernel, f"ocloc compile -device {device}")  # fmt: skip
        zebins = sorted(Path(tmp, "bin").glob("k*.bin"))
        if not zebins:
            raise IsaError(kernel, "ocloc compile", "no zebin written")
        _run([exe, "disasm", "-file", str(zebins[0]), "-dump", "dis"], tmp, kernel, "ocloc disasm")
        dis = Path(tmp, "dis")
        ze_info = dis / ".ze_info"
        asm = dis / f".text.{kernel}.asm"
        if not ze_info.is_file() or not asm.is_file():
            raise IsaError(kernel, "ocloc disasm", f"no .ze_info or .text.{kernel}.asm in {sorted(os.listdir(dis))}")
        return parse(ze_info.read_text(errors="replace"), asm.read_text(errors="replace"), kernel)


# ------------------------------------------------------------------ reading


def _nested(lines: list[str], at: int) -> list[str]:
    """The lines nested under lines[at] (indented deeper), up to the next line that is not."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    out = []
    for line in lines[at + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        out.append(line)
    return out


def _pair(text: str) -> tuple[str, str] | None:
    key, colon, value = text.strip().removeprefix("- ").partition(":")
    return (key.strip(), value.strip().strip("'\"")) if colon and key.strip() else None


def ze_info_kernel(text: str, kernel: str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """`kernel`'s execution_env and per_thread_memory_buffers in a .ze_info (the YAML subset ocloc
    writes: block mappings, lists of mappings, scalars)."""
    lines = text.splitlines()
    top = next((i for i, ln in enumerate(lines) if ln.rstrip() == "kernels:"), None)
    if top is None:
        raise IsaError(kernel, "read .ze_info", "no 'kernels:' list")
    body, item, names = _nested(lines, top), None, []
    for i, line in enumerate(body):
        if line.lstrip().startswith("- ") and (kv := _pair(line)) and kv[0] == "name":
            names.append(kv[1])
            if kv[1] == kernel:
                item = _nested(body, i)
                break
    if item is None:
        raise IsaError(kernel, "read .ze_info", f"no kernel '{kernel}' in it (kernels: {', '.join(names) or 'none'})")
    env: dict[str, str] = {}
    buffers: list[dict[str, str]] = []
    for i, line in enumerate(item):
        if line.strip() == "execution_env:":
            env.update(kv for sub in _nested(item, i) if (kv := _pair(sub)))
        elif line.strip() == "per_thread_memory_buffers:":
            for sub in _nested(item, i):
                if sub.lstrip().startswith("- "):
                    buffers.append({})
                if buffers and (kv := _pair(sub)):
                    buffers[-1][kv[0]] = kv[1]
    if not env:
        raise IsaError(kernel, "read .ze_info", f"no execution_env for kernel '{kernel}'")
    return env, buffers


def _int(table: dict[str, str], key: str, kernel: str, default: int | None = 0) -> int:
    value = table.get(key)
    if value is None:
        if default is None:
            raise IsaError(kernel, "read .ze_info", f"no {key}")
        return default
    try:
        return int(str(value), 0)
    except ValueError:
        raise IsaError(kernel, "read .ze_info", f"{key}: {value!r} is not an integer") from None


# A send's trailing comment: `// wr:1+0, rd:8; load_block2d.ugm.d16.a64.ca.ca`
_SEND = re.compile(r"^\s*(?:\([^)]*\)\s*)?sendg?s?c?(?:\.\S+)?\s.*//\s*wr:[^;]*rd:\s*(\d+)[^;]*;\s*(.+?)\s*$")
_DPAS = re.compile(r"^\s*(?:\([^)]*\)\s*)?dpasw?\.")
_LABEL = re.compile(r"^\s*[\w$.]+:\s*(//.*)?$")
# LSC data types: d8..d64, d8u32/d16u32(h), then a vector size, `t` when transposed (one address).
_UGM = re.compile(r"^(load|store)(_cmask)?\.ugm\.d\d+(?:u32h?)?(?:x\d+)?(t)?\b")


def classify(message: str) -> str | None:
    """The kind of a send message named in its comment, or None if none we count."""
    if "scratch" in message or ".ss" in message:
        return None  # spills and fills (spill_bytes measures them)
    if message.startswith("load_block2d"):
        return "block2d_loads"
    if message.startswith("store_block2d"):
        return "block2d_stores"
    if ".slm" in message and not message.startswith("fence"):
        return "slm_messages"
    m = _UGM.match(message)
    if m and not m[3]:
        return "gathers" if m[1] == "load" else "scatters"
    return None


def parse(ze_info: str, asm: str, kernel: str) -> IsaFigures:
    """IsaFigures from the text of ocloc's `.ze_info` and the kernel's disassembly."""
    env, buffers = ze_info_kernel(ze_info, kernel)
    counts = dict.fromkeys(("block2d_loads", "block2d_prefetches", "block2d_stores", "gathers", "scatters",
                            "slm_messages", "dpas"), 0)  # fmt: skip
    instructions = 0
    for line in asm.splitlines():
        text = line.strip()
        if not text or text.startswith("//") or _LABEL.match(text):
            continue
        instructions += 1
        if _DPAS.match(text):
            counts["dpas"] += 1
        elif m := _SEND.match(text):
            kind = classify(m[2])
            if kind == "block2d_loads" and int(m[1]) == 0:
                kind = "block2d_prefetches"
            if kind:
                counts[kind] += 1
    if instructions == 0:
        raise IsaError(kernel, "read the ISA", "no instruction in the disassembly")
    private = _int(env, "private_size", kernel) or sum(
        _int(b, "size", kernel) for b in buffers if b.get("usage", b.get("type")) in ("private_space", "private")
    )
    return IsaFigures(instructions=instructions, spill_bytes=_int(env, "spill_size", kernel),
                      grf_count=_int(env, "grf_count", kernel, None), private_size=private,
                      slm_size=_int(env, "slm_size", kernel), simd=_int(env, "simd_size", kernel, None),
                      **counts)  # fmt: skip


# ------------------------------------------------------------------ judging

MORE_IS_WORSE = ("spill_bytes", "slm_messages", "gathers", "scatters")
FEWER_IS_WORSE = ("block2d_loads", "block2d_prefetches", "block2d_stores", "dpas")


def worse_than(native: IsaFigures, ours: IsaFigures, tolerance: float = 0.05) -> list[str]:
    """The figures in which `ours` loses to `native` on the ISA (empty: never worse): more spill,
    SLM messages, gathers or scatters; fewer 2D block messages or DPAS; more than `tolerance`
    more instructions."""
    def lost(n: str) -> str:
        return f"{n} {getattr(native, n)}->{getattr(ours, n)}"

    out = [lost(n) for n in MORE_IS_WORSE if getattr(ours, n) > getattr(native, n)]
    out += [lost(n) for n in FEWER_IS_WORSE if getattr(ours, n) < getattr(native, n)]
    if ours.instructions > native.instructions * (1 + tolerance):
        out.append(f"instructions {native.instructions}->{ours.instructions} "
                   f"(+{100 * (ours.instructions / native.instructions - 1):.0f}%)")  # fmt: skip
    return out


def judge(native: IsaFigures, ours: IsaFigures, native_slm: int, ours_slm: int,
          warps: int = 0) -> tuple[str, list[str]]:
    """("ok" | "WORSE" | "TRADE", what ours loses): `worse_than` plus SLM (the kernels' dynamic SLM,
    triton's metadata "shared") that holds fewer work-groups of `warps` sub-groups per Xe-core
    (occupancy.fewer_work_groups; warps 0, unknown: any more bytes). TRADE: ours loses on the ISA but
    fits PVC's SLM where native does not, so native cannot launch at all; or ours loses spill bytes
    only, within the driver's own limit (DRIVER_MAX_SPILL), in the default register file where
    native runs in the large one (half the hardware threads per EU: the driver rebuilt it)."""
    lost = worse_than(native, ours)
    more_slm = fewer_work_groups(ours_slm, native_slm, warps)
    if more_slm:
        lost.insert(0, f"SLM {native_slm}->{ours_slm}")
    if not lost:
        return "ok", []
    fewer_registers = not more_slm and _fewer_registers(native, ours)
    return ("TRADE" if native_slm > SLM_LIMIT >= ours_slm or fewer_registers else "WORSE"), lost


def _fewer_registers(native: IsaFigures, ours: IsaFigures) -> bool:
    """Ours loses nothing but spill bytes (`worse_than`), no more than the driver accepts before it rebuilds
    a kernel with the large register file, and runs in a smaller file than native."""
    return (ours.grf_count is not None and native.grf_count is not None and ours.grf_count < native.grf_count
            and ours.spill_bytes <= DRIVER_MAX_SPILL
            and not worse_than(native, replace(ours, spill_bytes=native.spill_bytes)))  # fmt: skip


def gains(native: IsaFigures, ours: IsaFigures, native_slm: int, ours_slm: int, warps: int = 0,
          tolerance: float = 0.05) -> list[str]:
    """What ours wins over native by `judge`'s own thresholds, mirrored: SLM that holds more
    work-groups per Xe-core, less spill, SLM messages, gathers or scatters; more 2D block messages
    or DPAS; native over ours by more than `tolerance` in instructions."""
    def won(n: str) -> str:
        return f"{n} {getattr(native, n)}->{getattr(ours, n)}"

    out = [f"SLM {native_slm}->{ours_slm}"] if fewer_work_groups(native_slm, ours_slm, warps) else []
    out += [won(n) for n in MORE_IS_WORSE if getattr(ours, n) < getattr(native, n)]
    out += [won(n) for n in FEWER_IS_WORSE if getattr(ours, n) > getattr(native, n)]
    if native.instructions > ours.instructions * (1 + tolerance):
        out.append(f"instructions {native.instructions}->{ours.instructions} "
                   f"(-{100 * (1 - ours.instructions / native.instructions):.0f}%)")  # fmt: skip
    return out


def strictly_better(native: IsaFigures, ours: IsaFigures, native_slm: int, ours_slm: int, warps: int = 0) -> bool:
    """Ours loses nothing to native (`judge` says ok) and wins at least one figure (`gains`)."""
    return (judge(native, ours, native_slm, ours_slm, warps)[0] == "ok"
            and bool(gains(native, ours, native_slm, ours_slm, warps)))


TRADE_NOTE = ("TRADE: ours is worse on the ISA but fits PVC's 128 KB of SLM where native does not "
              "(native cannot launch), or spills at most the driver's 1,000 B in 128 registers where native "
              "needs 256 (half the threads per EU): not counted as worse")  # fmt: skip


def columns(*figs: IsaFigures | None) -> str:
    """One line of the main figures of several kernels side by side (a/b/c; x: no ISA)."""
    def cell(name: str) -> str:
        return "/".join("x" if f is None else str(getattr(f, name)) for f in figs)

    labels = {"instructions": "instrs", "spill_bytes": "spill B", "block2d_loads": "2D loads",
              "block2d_prefetches": "prefetch", "block2d_stores": "stores", "gathers": "gathers",
              "scatters": "scatters", "slm_messages": "SLM msgs", "dpas": "DPAS"}  # fmt: skip
    return "  ".join(f"{label} {cell(name)}" for name, label in labels.items())
