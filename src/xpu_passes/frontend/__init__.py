"""The TTGIR front end: parse and print Triton's textual IR with xDSL.

Everything xDSL does not do the way Triton's tools do (old dialect spellings,
location aliases after the module, alias printing, located diagnostics) is
handled here and nowhere else.
"""

from xpu_passes.frontend.diagnostics import SourceMap, TTGIRError
from xpu_passes.frontend.parser import ParsedModule, parse_module, record_copies, verify_module
from xpu_passes.frontend.printer import print_module
from xpu_passes.frontend.spelling import Spelling

__all__ = [
    "ParsedModule",
    "SourceMap",
    "Spelling",
    "TTGIRError",
    "parse_module",
    "print_module",
    "record_copies",
    "verify_module",
]
