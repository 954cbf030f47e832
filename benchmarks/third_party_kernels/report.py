"""Rows read back from third_party.py's CSVs (several runs, e.g. one per library) and the README table."""

from __future__ import annotations

import csv
import re
import statistics
from collections import Counter

from corpus_compare import Result

from xpu_passes.integration import oracle

from .compile import NATIVE, Row, isa_result

FIGURE_NAMES = ("shared_bytes", "converts", "block_reads", "block_writes", "dpas")


def short_error(text: str) -> str:
    """An error's first line without the install prefix of the library's source path, `|` escaped."""
    first = text.splitlines()[0] if text else ""
    first = re.sub(r"python: \S*/include/", "", first)
    return re.sub(r"[^\s\"(]*site-packages/", "", first).replace("|", "/")


def short_name(row: Row) -> str:
    """lib.kernel[config] without what only names a specialization of the launch (None arguments,
    unit strides), at most 140 characters: for tables."""
    keep = [c for c in row.config.split("/")[0].split(",") if not re.fullmatch(r"\w+=None|\w*stride\w*=1", c)]
    config = ",".join(keep) + "/" + row.config.rsplit("/", 1)[-1]
    return f"{row.launch_name.split('.', 1)[0]}.{row.kernel}[{config}]"[:140]


def read_csv(path: str) -> tuple[list[Row], tuple[str, ...]]:
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        pipelines = tuple(c[: -len("_verdict")] for c in reader.fieldnames or () if c.endswith("_verdict"))
        rows = []
        for d in reader:
            row = Row(f"{d['lib']}.{d['kernel']}[{d['config']}]", d["kernel"], d["config"], d["origin"])
            for side in (NATIVE, *pipelines):
                if d[f"{side}_error"] or d[f"{side}_shared_bytes"] == "":
                    row.results[side] = Result(error=d[f"{side}_error"] or "?")
                else:
                    figs = oracle.StaticFigures(**{n: int(d[f"{side}_{n}"]) for n in FIGURE_NAMES},
                                                warps=_warps(d["config"]))
                    figs.extra.update(_extra(d.get(f"{side}_isa") or ""))
                    row.results[side] = Result(figs, ms=[float(d[f"{side}_ms"])], **isa_result(figs.extra))
            rows.append(row)
    return rows, pipelines


def _warps(config: str) -> int:
    """The warps of a row's config (`.../w4-s3`; 0: not there)."""
    m = re.search(r"/w(\d+)-s\d+(?:-\w+)?$", config)
    return int(m[1]) if m else 0


def _extra(cell: str) -> dict[str, str]:
    """The `isa_*` figures of a CSV cell (`isa_instructions=1754 isa_spill_bytes=640 ...`; an
    `isa_error=...` runs to the cell's end)."""
    if cell.startswith("isa_error="):
        return {"isa_error": cell[len("isa_error="):]}
    return dict(kv.split("=", 1) for kv in cell.split() if "=" in kv)


def markdown(rows: list[Row], pipelines: tuple[str, ...]) -> str:
    """Per library: kernel/configs, excluded, worse and failing per pipeline, compile-time ratios;
    then every row that is worse or fails with one of our pipelines, figures native / ours."""
    out = ["| library | kernel/configs | excluded | " + " | ".join(
        f"`{p}` worse / trade / fail / strictly better / median x / worst x" for p in pipelines) + " |",
        "|---|---:|---:|" + "---|" * len(pipelines)]
    libs = sorted({r.launch_name.split(".", 1)[0] for r in rows}) + ["all"]
    for lib in libs:
        sel = [r for r in rows if lib == "all" or r.launch_name.split(".", 1)[0] == lib]
        cells = []
        for p in pipelines:
            c = Counter(r.verdict(p) for r in sel)
            ratios = sorted(r.ratio(p) for r in sel if r.verdict(p) in ("ok", "WORSE", "TRADE"))
            med = f"x{statistics.median(ratios):.2f}" if ratios else "-"
            won = sum(bool(r.better(p)) for r in sel)
            cells.append(f"{c['WORSE']} / {c['TRADE']} / {c['FAIL'] + c['TIMEOUT']} / {won} / {med} / "
                         f"{'x%.2f' % ratios[-1] if ratios else '-'}")
        excluded = sum(r.verdict(pipelines[0]) == "excluded" for r in sel) if pipelines else 0
        out.append(f"| {lib} | {len(sel)} | {excluded} | " + " | ".join(cells) + " |")
    out += ["", "| kernel/config | pipeline | verdict | native -> ours |", "|---|---|---|---|"]
    for r in rows:
        for p in pipelines:
            v = r.verdict(p)
            if v in ("WORSE", "TRADE"):
                out.append(f"| `{short_name(r)}` | {p} | {v.lower()} | {'; '.join(r.worse(p))} |")
            elif v in ("FAIL", "TIMEOUT"):
                out.append(f"| `{short_name(r)}` | {p} | {'fails' if v == 'FAIL' else 'timeout'} | {short_error(r.results[p].error)[:240]} |")
    return "\n".join(out) + "\n"
