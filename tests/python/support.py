"""Helpers shared by tests: a corpus kernel compiled with the round trips' times, a benchmark script loaded as a
module, a corpus dump taken before a RemoveLayoutConversions and the pass's output and remarks on a text."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip


def compile_timed(text: str, kernel: tuple[str, str], monkeypatch: pytest.MonkeyPatch,
                  **round_trips: bool) -> tuple[str, dict[str, float]]:
    """The kernel's TTIR through `text` (a pipeline name or text; `round_trips`: RoundTripOptions):
    (final TTGIR, roundtrip.timing of the compile)."""
    from xpu_passes import corpus

    spec, cfg = corpus.find(*kernel)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    p = pipeline.plan(text)
    p.round_trips = dataclasses.replace(p.round_trips, **round_trips)
    with roundtrip.timing() as times:
        out = pipeline.run_plan(mod, {}, opts, backend.properties, p)
    return str(out), times


def load_benchmark(name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """benchmarks/<name>.py as a module (registered in sys.modules for the test: its dataclasses look it up)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


RLC_STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def rlc_dump(kernel: str, config: str | None, position: int) -> Path:
    """The corpus dump taken before the kernel's `position`-th RemoveLayoutConversions (`config`
    None: its first config)."""
    return step_dump(kernel, config, RLC_STEP, position)


def step_dump(kernel: str, config: str | None, step: str, position: int = 0, specs: str = "core") -> Path:
    """The corpus dump taken before the kernel's `position`-th run of `step` ("ttgir.<flag>"), from
    the corpus set `specs`."""
    from xpu_passes.corpus import entries

    entry = next(e for e in entries(specs=specs) if e["kernel"] == kernel and config in (None, e["config"]))
    return Path(entry["dir"]) / [s["file"] for s in entry["steps"] if s["step"] == step][position]


def rlc_output(text: str, **options: Any) -> str:
    """Our RemoveLayoutConversions (with `options`) on `text`: its remarks, then the module as triton 3.3 prints it."""
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import Spelling, parse_module, print_module
    from xpu_passes.transforms import base
    from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

    ctx = make_context()
    module = parse_module(ctx, text).module
    with base.collecting_remarks() as sink:
        RemoveLayoutConversions(**options).apply(ctx, module)
    remarks = [f"{r.op.name}: {r.message}" for r in sink.remarks]
    return "\n".join([*remarks, print_module(module, Spelling.choose("triton-3.3"))])
