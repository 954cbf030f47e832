"""Defaults of pass and pipeline options taken from environment variables.

Read when an option object is made (a dataclass field's default_factory), never at import:
the option itself is what a run uses, and a test sets the option, not the variable.
"""

from __future__ import annotations

import os


def env_flag(name: str) -> bool:
    """True when `name` is set to anything but "" or "0"."""
    return os.environ.get(name, "") not in ("", "0")
