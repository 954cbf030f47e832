"""Triton's enum attributes of `tt` (I32EnumAttr cases: keyword -> value) and their keyword
directives for declarative formats (`custom<Sem>($sem)`, see _syntax.keyword_directive).
"""

from __future__ import annotations

from xpu_passes.dialects._syntax import keyword_directive


# Triton's I32EnumAttr cases: keyword -> value.
CACHE = {"none": 1, "ca": 2, "cg": 3, "wb": 4, "cs": 5, "wt": 6, "cv": 7}


EVICT = {"evict_normal": 1, "evict_first": 2, "evict_last": 3}


PADDING = {"zero": 1, "nan": 2}


PROGRAM_DIM = {"x": 0, "y": 1, "z": 2}


INPUT_PRECISION = {"tf32": 0, "tf32x3": 1, "ieee": 2, "bf16x3": 3, "bf16x6": 4}


ROUNDING = {"rtz": 0, "rtne": 1}


PROPAGATE_NAN = {"none": 0, "all": 0xFFFF}


RMW = {"and": 1, "or": 2, "xor": 3, "add": 4, "fadd": 5, "max": 6, "min": 7, "umax": 8, "umin": 9, "exch": 10}


SEM = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4}


SCOPE = {"gpu": 1, "cta": 2, "sys": 3}


# Enum keywords in declarative formats (`custom<Sem>($sem)`), see _syntax.keyword_directive.
ProgramDim = keyword_directive("ProgramDim", PROGRAM_DIM, "program dimension")


PropagateNan = keyword_directive("PropagateNan", PROPAGATE_NAN, "propagateNan")


RMWKind = keyword_directive("RMWKind", RMW, "atomic_rmw_op")


Sem = keyword_directive("Sem", SEM, "sem")


Scope = keyword_directive("Scope", SCOPE, "scope")


SCALE_DOT_ELEM = {"e4m3": 0, "e5m2": 1, "e2m3": 2, "e3m2": 3, "e2m1": 4, "bf16": 5, "fp16": 6}


REDUCE_KIND = {"add": 1, "min": 2, "max": 3, "inc": 4, "dec": 5, "and": 6, "or": 7, "xor": 8}


ReduceKind = keyword_directive("ReduceKind", REDUCE_KIND, "reduction kind")


ScaleDotElem = keyword_directive("ScaleDotElem", SCALE_DOT_ELEM, "scaled-dot element type")
