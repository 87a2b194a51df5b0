"""`pnp calibrate`: the two-sided duplex test sheet, written to OUT/calibrate/ (one file, replaced atomically)."""
from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import OutputError, SpecError
from .plan import check_environment
from ..layout.paper import load_sheet


def _prepare_out(out: Path, game: str) -> Path:
    if out.exists() and not out.is_dir():
        raise OutputError("output path is a file, not a folder.", file=out, field="--out",
                          hint="give a folder with --out")
    target = out / game
    if target.exists() and not target.is_dir():
        raise OutputError("output path is a file, not a folder.", file=target, field="--out")
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / f".pnp-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"cannot write to the output folder: {exc.strerror}.", file=target, field="--out",
                          hint="choose a writable folder with --out") from None
    return target


def build_calibration(paper: str, duplex: str, out: Path = Path("output"), step: float = 1.0) -> Path:
    """Write ``OUT/calibrate/calibrate-<paper>-<duplex>.pdf``: the two-sided duplex test sheet.

    Raises:
        SpecError: duplex is not long/short, step outside 0.1..2 mm, or unknown paper.
        OutputError: the folder cannot be written.
    """
    from ..layout.calibration_sheet import calibration_pages
    from ..render.pdf import PdfWriter
    check_environment()
    if duplex not in ("long", "short"):
        raise SpecError(f"duplex {duplex!r} cannot be calibrated.", field="--duplex", hint="use long or short")
    if not 0.1 <= step <= 2.0:
        raise SpecError(f"step {step:g} mm is outside 0.1..2 mm.", field="--step")
    sheet = load_sheet(paper)
    target = _prepare_out(Path(out), "calibrate")
    path = target / f"calibrate-{sheet.name}-{duplex}.pdf"
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        writer = PdfWriter(tmp, title="pnp duplex calibration", duplex=duplex)
        for page in calibration_pages(sheet, duplex, step):
            writer.add(page)
        writer.close()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
