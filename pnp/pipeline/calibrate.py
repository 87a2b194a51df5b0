"""`pnp calibrate`: the two-sided duplex test sheet, written to OUT/calibrate/ (one file, replaced
atomically through pnp.core.safepath: a symlink or special file at OUT/calibrate or on the way is
refused, never written through); and `pnp calibrate --measure`: the offset read off a photo or two
scans of it (pnp.calibration.measure), kept for a printer on request (pnp.calibration.printers)."""
from __future__ import annotations

from pathlib import Path

from ..calibration.measure import Measurer, report
from ..calibration.printers import PrinterStore, check_name
from ..core.errors import SpecError
from ..core.safepath import write_atomic
from ..store.fs import _ensure_out
from .plan import check_environment, load_paper


def build_calibration(paper: str, duplex: str, out: Path = Path("output"), step: float = 1.0) -> Path:
    """Write ``OUT/calibrate/calibrate-<paper>-<duplex>.pdf``: the two-sided duplex test sheet.

    Raises:
        SpecError: duplex is not long/short, step outside 0.1..2 mm, or unknown paper.
        SpecError: the sheet's name cannot be used in a file name (a path, NUL, ...).
        OutputError: the folder cannot be written, or OUT/calibrate (or the file) is a symlink,
            a file or a special file.
    """
    from ..layout.calibration_sheet import calibration_pages  # only pnp calibrate draws the sheet
    from ..render.pdf import PdfWriter  # reportlab: only when the sheet is drawn, never for --measure
    check_environment()
    if duplex not in ("long", "short"):
        raise SpecError(f"duplex {duplex!r} cannot be calibrated.", field="--duplex", hint="use long or short")
    if not 0.1 <= step <= 2.0:
        raise SpecError(f"step {step:g} mm is outside 0.1..2 mm.", field="--step")
    sheet = load_paper(paper).sheet  # loaded and its name checked once, as for a build
    out = Path(out)
    _ensure_out(out)
    rel = f"calibrate/calibrate-{sheet.name}-{duplex}.pdf"

    def fill(f) -> None:
        writer = PdfWriter(f, title="pnp duplex calibration", duplex=duplex)
        for page in calibration_pages(sheet, duplex, step):
            writer.add(page)
        writer.close()

    write_atomic(out, rel, fill)
    return out / rel


def measure_calibration(pictures: list[Path], paper: str | None = None, save_printer: str | None = None,
                        store: PrinterStore | None = None) -> list[str]:
    """The lines `pnp calibrate --measure` prints for ``pictures`` (one photo against a light, or two
    scans) of the sheet printed on ``paper`` (None: the built-in paper its front marks name); with
    ``save_printer``, the measured offset is kept under that name in ``store`` (default: the user's
    configuration folder).

    Raises:
        PnpError: as Measurer.measure; an unknown paper; a bad printer name or printers file.
    """
    if save_printer is not None:
        check_name(save_printer, "--save-printer")
    sheet = load_paper(paper).sheet if paper else None
    m = Measurer(sheet, lambda name: load_paper(name).sheet).measure(list(pictures))
    lines = report(m)
    if save_printer is not None:
        path = (store or PrinterStore()).save(save_printer, m.duplex, m.back_offset, m.paper)
        lines.append(f"saved printer {save_printer!r} ({m.duplex} edge) in {path}: pnp build --printer {save_printer} "
                     "applies it")
    return lines

