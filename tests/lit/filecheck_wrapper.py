"""`filecheck` (the Python FileCheck, 1.0.6) with LLVM FileCheck's `--implicit-check-not`.

lit's `FileCheck` substitution runs this. The Python port lacks the option
(AntonLydike/filecheck issue 20); everything else goes to it unchanged. LLVM's meaning:
`--implicit-check-not=PAT` (repeatable) adds a `CHECK-NOT: PAT` before every check and
after the last, i.e. PAT may occur only inside what positive checks matched. PAT is a
check pattern (`{{regex}}` allowed). The port's own CHECK-NOT cannot carry this: it
also searches the next positive match (a NOT's range ends where that match ends).
"""

from __future__ import annotations

import re
import sys

from filecheck import main as filecheck_main
from filecheck import matcher as fc_matcher
from filecheck.compiler import compile_uops
from filecheck.finput import FInput
from filecheck.ops import CheckOp
from filecheck.options import parse_argv_options
from filecheck.parser import Parser, pattern_for_opts
from filecheck.preprocess import Preprocessor

OPTION = "implicit-check-not"


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """(argv without the option, its patterns): `--implicit-check-not=P`, `-implicit-check-not P`."""
    rest: list[str] = []
    patterns: list[str] = []
    it = iter(argv)
    for arg in it:
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name == OPTION:
            patterns.append(value if eq else next(it, ""))
        else:
            rest.append(arg)
    return rest, patterns


class _Spans(Preprocessor):
    """The port's label preprocessing, also noting each label's match."""

    spans: list[tuple[int, int]] = []

    def preprocess_label(self, op: CheckOp) -> None:
        pattern, _ = compile_uops(op, dict(), self.opts)
        if (m := self.input.find_between(pattern, self.range)) is not None:
            _Spans.spans.append(m.span())
        super().preprocess_label(op)


class ImplicitNotMatcher(fc_matcher.Matcher):
    """The port's matcher; after its checks pass, no implicit pattern outside a positive match."""

    implicit: list[CheckOp] = []

    def capture_results(self, match: re.Match[str], capture: dict, op: CheckOp) -> None:  # type: ignore[type-arg]
        _Spans.spans.append(match.span())
        super().capture_results(match, capture, op)

    def run(self) -> int:
        code = super().run()
        if code != 0:
            return code
        text = self.file.content
        for op in self.implicit:
            pattern, _ = compile_uops(op, self.ctx.live_variables, self.opts)
            for m in pattern.finditer(text):
                if not any(s <= m.start() and m.end() <= e for s, e in _Spans.spans):
                    print(f"{self.opts.match_filename}: error: {op.check_name}: excluded string found in input "
                          f"('{op.arg}')", file=self.stderr)
                    print("Matching at: " + self.file.print_line(m.start(0), m.end(0)), file=self.stderr)
                    return 1
        return 0


def main(argv: list[str]) -> None:
    rest, patterns = split_argv(argv)
    if not patterns:
        filecheck_main.main(rest)
        return
    opts = parse_argv_options(list(rest))
    parser = Parser(opts, None, *pattern_for_opts(opts))  # type: ignore[arg-type]
    implicit = [CheckOp("IMPLICIT-CHECK", "NOT", p, 0, parser.parse_args(p, p)) for p in patterns]
    fc_matcher.Preprocessor = _Spans  # type: ignore[misc]  # the matcher module's name for it
    m = ImplicitNotMatcher(opts, FInput.from_opts(opts), Parser.from_opts(opts))
    m.implicit = implicit
    sys.exit(m.run())


if __name__ == "__main__":
    main(sys.argv)
