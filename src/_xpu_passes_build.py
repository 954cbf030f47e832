"""Build step (setuptools `cmdclass`, see pyproject.toml): ship `xpu-passes-autoload.pth`.

Python runs the `import` line of every `.pth` file in site-packages at start-up. Ours
costs one environment look-up; only when `XPU_PASSES_PIPELINE` is set does it import
`xpu_passes._autoload`, which waits (without importing triton) for triton to be
imported and then switches our pipeline on. This module is not part of the package.
"""

from __future__ import annotations

import os

from setuptools.command.build_py import build_py

PTH_NAME = "xpu-passes-autoload.pth"
# Sorts after setuptools' `__editable__.*.pth`, so an editable checkout is on sys.path first.
PTH_TEXT = (
    'import os; os.environ.get("XPU_PASSES_PIPELINE") and '
    '__import__("xpu_passes._autoload", fromlist=["install"]).install()\n'
)


class BuildPy(build_py):
    """build_py that also writes the `.pth` file at the root of the wheel."""

    def run(self) -> None:
        super().run()
        # A regular wheel is packed from build_lib; an editable one (PEP 660) from the
        # directory setuptools points `install_lib` at (build_lib is thrown away then).
        root = self.get_finalized_command("install").install_lib if self.editable_mode else self.build_lib
        os.makedirs(root, exist_ok=True)
        with open(os.path.join(root, PTH_NAME), "w") as f:
            f.write(PTH_TEXT)
