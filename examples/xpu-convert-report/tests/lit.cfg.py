# lit configuration of the example pass package: FileCheck'd xpu-opt runs.
# The package must be installed (pip install, or pip install --target DIR with DIR on PYTHONPATH).
import os
import shutil
import sys

import lit.formats

config.name = "xpu-convert-report"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
for var in ("HOME", "TMPDIR", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.substitutions.append(("FileCheck", shutil.which("filecheck", path=config.environment["PATH"]) or "filecheck"))
config.substitutions.append(("%examples", os.path.dirname(os.path.dirname(config.test_source_root))))

# Pipelines mixing in triton-xpu's native passes need the [triton] extra of xpu-passes.
import importlib.util  # noqa: E402

if importlib.util.find_spec("triton") is not None:
    config.available_features.add("triton")
