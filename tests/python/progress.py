"""`--progress-by-file`: which test files are running and how each ended, instead of a dot per test.

One line when a file's first test starts and one when its last ends (counts, elapsed time),
in the process that reports: pytest's, or pytest-xdist's controller, which learns each
file's test count from the workers' collections.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

import pytest


class FileProgress:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.total: Counter[str] = Counter()
        self.started: set[str] = set()
        self.done: Counter[str] = Counter()
        self.outcomes: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.start = time.monotonic()

    def _write(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(f"[{time.monotonic() - self.start:6.0f}s] {text}")

    def expect(self, nodeids: list[str]) -> None:
        if not self.total:
            self.total.update(n.split("::")[0] for n in nodeids)

    @pytest.hookimpl
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.expect([item.nodeid for item in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.expect(ids)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = report.nodeid.split("::")[0]
        if report.when == "setup" and path not in self.started:
            self.started.add(path)
            self._write(f"running {path} ({self.total[path]} tests)")
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.outcomes[path]["failed" if report.failed and report.when == "call" else
                                "error" if report.failed else report.outcome] += 1
        elif report.when == "teardown" and report.failed:
            self.outcomes[path]["error"] += 1
        if report.when == "teardown":
            self.done[path] += 1
            if self.done[path] == self.total[path]:
                counts = ", ".join(f"{n} {k}" for k, n in sorted(self.outcomes[path].items()))
                finished = sum(self.done.values()) * 100 // max(1, sum(self.total.values()))
                self._write(f"done    {path}: {counts} ({finished}% of the suite)")

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        if report.passed and report.when == "call":
            return "passed", "", "PASSED"  # no dot: the file lines say it
        return None


def register(config: pytest.Config) -> None:
    if config.getoption("progress_by_file", False) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(FileProgress(config), "xpu-passes-file-progress")
