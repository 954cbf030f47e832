"""The test suite compiles strict: a failure of our plugin is an error, not a quiet native fallback.

Set before any test imports the plugin, and inherited by the interpreters tests start.
Tests of the default (fallback) behaviour pass `strict=False` explicitly. The `plugin`
fixture below is shared by every test that compiles through triton with our plugin.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ["XPU_PASSES_STRICT"] = "1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--progress-by-file", action="store_true",
                     help="one line as each test file starts and ends (with its counts), no dot per test")


def pytest_configure(config: pytest.Config) -> None:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("xpu_passes_test_progress", Path(__file__).with_name("progress.py"))
    assert spec is not None and spec.loader is not None
    progress = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(progress)
    progress.register(config)


@pytest.fixture()
def plugin(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The plugin module, off, compiling for PVC offline, with a fresh triton cache; off again after."""
    from xpu_passes.integration import plugin as triton_plugin

    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    triton_plugin.disable()  # native first, even when XPU_PASSES_PIPELINE is set for the run
    triton_plugin.use_offline_pvc_target()
    yield triton_plugin
    triton_plugin.disable()
