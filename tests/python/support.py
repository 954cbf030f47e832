"""Helpers shared by tests: a corpus kernel compiled with the round trips' times, a benchmark script loaded as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from xpu_passes import pipeline, roundtrip


def compile_timed(text: str, kernel: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, dict[str, float]]:
    """The kernel's TTIR through `text` (a pipeline name or text): (final TTGIR, roundtrip.TIMES of the compile)."""
    from xpu_passes import corpus

    spec, cfg = corpus.find(*kernel)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    times: dict[str, float] = {}
    monkeypatch.setattr(roundtrip, "TIMES", times)
    out = pipeline.run_plan(mod, {}, opts, backend.properties, pipeline.plan(text))
    monkeypatch.setattr(roundtrip, "TIMES", None)
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
