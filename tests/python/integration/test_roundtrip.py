"""Round trips of one compile that skip work (roundtrip.Session): a round trip reading the very
text we printed last takes our module instead of parsing it; one whose passes changed nothing
hands triton back its own module. Each gives what a parse would have given."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.passes import ModulePass

from xpu_passes.integration import oracle
from xpu_passes.integration import pipeline
from xpu_passes.integration import roundtrip
from xpu_passes.integration.pipeline import RLC, plan

from support import compile_timed  # noqa: E402  (tests/python/support.py)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
KERNEL = ("rms_norm_block_fwd", "16x512-w8-s1")  # no loop, no tt.dot; RLC leaves conversions


def _text(*middle: str, last: str = RLC) -> str:
    """Our RLC, native passes, `last` (ours) after triton's conversion to TTGIR."""
    return ("builtin.module(triton-annotate-module{target-arch=spir64}, convert-triton-to-tritongpu{target=xpu}, "
            f"tritonintelgpu-coalesce, {RLC}, {', '.join(middle)}, {last})")


def _compile(text: str, reuse: bool, monkeypatch: pytest.MonkeyPatch, kernel: tuple[str, str] = KERNEL
             ) -> tuple[str, dict[str, float]]:
    return compile_timed(text, kernel, monkeypatch, reuse_modules=reuse)


@needs_triton
def test_a_round_trip_reading_our_print_takes_our_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """symbol-dce changes nothing between our two RLC runs: the second reads what the first
    printed, takes its module (no parse), and the compile's TTGIR is what parsing gives."""
    text = _text("symbol-dce")
    ours, times = _compile(text, True, monkeypatch)
    parsed, times_parsed = _compile(text, False, monkeypatch)
    assert (times["round_trips"], times.get("reused"), times.get("reuse_misses")) == (2, 1, None)
    assert "reused" not in times_parsed and times["ops"] < times_parsed["ops"]  # one parse fewer
    assert ours == parsed


@needs_triton
def test_a_changed_text_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """cse merges the conversion's duplicated ops between the two runs: the text differs, so it is parsed.
    (At 4x2048: at 16x512 the first run keeps its conversions, whose loads would send more messages.)"""
    text = _text("cse")
    kernel = ("rms_norm_block_fwd", "4x2048-w16-s1")
    ours, times = _compile(text, True, monkeypatch, kernel)
    assert (times["round_trips"], times.get("reused"), times.get("reuse_misses")) == (2, None, 1)
    assert ours == _compile(text, False, monkeypatch, kernel)[0]


def test_one_byte_off_is_a_miss() -> None:
    session = roundtrip.Session()
    module, ctx = object(), object()
    session.leave("module {\n}\n", ctx, module)  # type: ignore[arg-type]
    assert session.take("module {\n} \n") is None
    assert session.take("module {\n}\n") is None  # dropped on a miss: nothing kept twice
    session.leave("module {\n}\n", ctx, module)  # type: ignore[arg-type]
    assert session.take("module {\n}\n") == (ctx, module)
    assert session.take("module {\n}\n") is None  # taken: the caller changes it


@needs_triton
def test_nothing_is_kept_from_one_compile_to_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same kernel twice: each compile has its own session, whose first round trip parses."""
    made: list[roundtrip.Session] = []

    class Recorded(roundtrip.Session):
        def __init__(self, options: roundtrip.RoundTripOptions | None = None) -> None:
            super().__init__(options)
            made.append(self)

    monkeypatch.setattr(roundtrip, "Session", Recorded)
    text = _text("symbol-dce")
    first, times = _compile(text, True, monkeypatch)
    second, times_again = _compile(text, True, monkeypatch)
    assert len(made) == 2 and first == second and times["reused"] == times_again["reused"] == 1
    assert times["ops"] == times_again["ops"]


@needs_triton
def test_unchanged_round_trips_hand_back_tritons_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passes that change nothing: triton's own module comes back (not re-read from our print);
    one that changes something: triton's parse of our print."""
    from xpu_passes import corpus
    from xpu_passes.registry import PassSpec, make_pass

    spec, cfg = corpus.find(*KERNEL)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    mod = pipeline.run_plan(mod, {}, opts, backend.properties, plan(
        "builtin.module(triton-annotate-module{target-arch=spir64}, convert-triton-to-tritongpu{target=xpu})"))
    legal = "tritonintelgpu-legalize-block-io-encoding"  # nothing to legalize
    before = str(mod)
    with roundtrip.timing() as times:
        assert roundtrip.run_python(mod, [(legal, make_pass(PassSpec(legal, {})))]) is mod
        assert times["handed_back"] == 1 and "triton_parse" not in times and str(mod) == before
        out = roundtrip.run_python(mod, [(RLC, make_pass(PassSpec(RLC, {})))])  # removes conversions
    assert out is not mod and str(out) != before and times["handed_back"] == 1 and "triton_parse" in times


@pytest.fixture()
def failing_last() -> Iterator[str]:
    """A pass that fails at the function's tt.return (whose line our RLC moves)."""
    from xpu_passes.registry import _REGISTERED, register_pass
    from xpu_passes.transforms import PassError

    @register_pass
    @dataclass(frozen=True)
    class FailAtReturn(ModulePass):
        name = "test-fail-at-return"

        def apply(self, ctx: Any, op: Any) -> None:
            ret = next(o for o in op.walk() if o.name == "tt.return")
            raise PassError(ret, "refused")

    try:
        yield FailAtReturn.name
    finally:
        _REGISTERED.pop(FailAtReturn.name, None)


@needs_triton
def test_a_failure_on_a_taken_module_names_the_line_of_the_text_read(monkeypatch: pytest.MonkeyPatch,
                                                                    failing_last: str) -> None:
    text = _text("symbol-dce", last=failing_last)
    messages = []
    for reuse in (True, False):
        with pytest.raises(roundtrip.PassFailure, match=r"test-fail-at-return failed on 'tt.return' at .*"
                                                        r"ttgir line \d+: refused") as e:
            _compile(text, reuse, monkeypatch)
        messages.append(str(e.value))
    assert messages[0] == messages[1]


@needs_triton
def test_tritons_print_is_read_without_our_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round trip reads triton's print of a module triton's pass manager verified: our verifier
    (about a fifth of a parse) is not run on it. What we print back is still verified, by triton
    (oracle.parse: test_plugin_fallback's test-drop-return is refused so)."""
    from xpu_passes import corpus
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend import parser
    from xpu_passes.registry import PassSpec, make_pass

    spec, cfg = corpus.find(*KERNEL)
    mod, opts, backend = corpus.make_ttir_module(spec, cfg)
    mod = backend.make_ttir(mod, {}, opts)
    mod = pipeline.run_plan(mod, {}, opts, backend.properties, plan(
        "builtin.module(triton-annotate-module{target-arch=spir64}, convert-triton-to-tritongpu{target=xpu})"))
    verified: list[object] = []
    real = parser.verify_module
    monkeypatch.setattr(parser, "verify_module", lambda parsed, **kw: verified.append(parsed) or real(parsed, **kw))
    with roundtrip.timing() as times:
        out = roundtrip.run_python(mod, [(RLC, make_pass(PassSpec(RLC, {})))])  # removes conversions
    assert out is not mod and "triton_parse" in times and times["ops"] > 0
    assert verified == []
    parser.parse_module(make_context(), str(out), "<check>")  # (the verifier does run where asked)
    assert len(verified) == 1
