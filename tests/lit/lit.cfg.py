# lit configuration for the xpu-passes IR tests (FileCheck'd .mlir files).
import importlib.util
import os
import sys

import lit.formats

config.name = "xpu-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttgir", ".ttir"]
config.excludes = ["Inputs", "lit.cfg.py", "filecheck_wrapper.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# Tools come from the environment the suite runs in (the project's venv).
config.environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
for var in ("HOME", "TMPDIR", "XPU_PASSES_CORPUS_DIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The Python filecheck, with LLVM's --implicit-check-not added (the one wrapper of it).
filecheck = f"{sys.executable} {os.path.join(os.path.dirname(__file__), 'filecheck_wrapper.py')}"
config.substitutions.append(("FileCheck", filecheck))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

# Tests that ask triton-xpu (the oracle) to parse our output need the [triton] extra.
if importlib.util.find_spec("triton") is not None:
    config.available_features.add("triton")
