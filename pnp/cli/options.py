"""The options the commands share, turned into typed values once, here at the edge: a loaded paper,
lengths in mm, ImposeOptions, checked format names and WriterSettings. Each parser raises a PnpError
naming the option (field) and how to fix it."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.errors import PnpError
from ..core.units import parse_length
from ..inputs.resources import shipped_specs
from ..layout.options import DUPLEX_MODES, ImposeOptions
from ..layout.paper import available_papers
from ..pipeline.plan import Paper, Request, load_paper
from ..render.formats import BUILTIN, WriterSettings, formats
from ..render.formats.base import MAX_WORKERS, SVG_TEXT_MODES
from ..render.showcase_rows import check_requested, parse_showcase

PAPERS = ", ".join(available_papers())
PAPER_HELP = f"Paper: {PAPERS}, or a sheet YAML file."
FORMAT_HELP = (f"Output formats: {', '.join(BUILTIN)}, or an installed plug-in's (entry points pnp.formats); "
               "repeat or comma-separate.")
DUPLEX_HELP = f"Backs for duplex printing: {', '.join(DUPLEX_MODES)} (the flip edge)."
SET_HELP = ("Replace an input file: NAME=FILE (every game: rules=FILE; NetMatch: words=FILE; a data-driven game: "
            "data=FILE). Repeatable.")
OUT_HELP = "Output folder (created if missing); kits go to OUT/<game>/."
COLOUR_HELP = ("PDF colour: rgb (sRGB as designed) or cmyk (every colour and picture converted with a press "
               "profile; black K only).")
PDFX_HELP = "PDF/X-4 for a print shop (implies --colour cmyk; docs/print.md)."
ICC_HELP = "CMYK press profile (.icc) for --colour cmyk / --pdfx (default: pnp's SWOP, CGATS TR 003)."
QUIET_HELP = "Print nothing but errors (also accepted before the command: pnp -q build)."
SERVICE_NAMES = "tgc, mpc, drivethru, printerstudio, or custom:DPI,BLEED,SAFE (e.g. custom:300,3mm,3mm)"
WORDS_HELP = "Shorthand for --set words=FILE: a NetMatch word list (.txt, .csv, .tsv, .xlsx, .ods)."
WORKERS_HELP = ("Processes that draw per-card images (--format pod, tts, preview, --cutter cricut), 1-256 "
                "(default: every core this process may use).")
LANG_HELP = ("Only the kit in this language, one of the spec's languages: (default: one kit per language; "
             "the first keeps OUT/<game>/, the others go to OUT/<game>-<code>/).")
SHOWCASE_HELP = ("--format showcase: the fan's cards, by row number, range or key, e.g. 2-6,9 (default: the "
                 "first five faces of each part).")
SVG_TEXT_HELP = ("SVG pages: text as 'text' (the font embedded with @font-face, for browsers) or 'outlines' "
                 "(glyph paths, for programs that ignore @font-face, such as Inkscape).")


def overrides(sets: list[str], words: Path | None) -> dict[str, Path]:
    """``--set NAME=FILE`` pairs (and ``--words FILE``, shorthand for ``--set words=FILE``)."""
    out: dict[str, Path] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value:
            raise PnpError(f"--set {item!r} is not NAME=FILE.", field="--set",
                           hint="write e.g. --set words=my-words.txt")
        out[name.strip()] = Path(value)
    if words is not None:
        out["words"] = words
    return out


def out_folder(value: str) -> Path:
    """The --out folder; an empty value is refused (it would mean the current folder by accident)."""
    if not value.strip():
        raise PnpError("--out is empty.", field="--out", hint="name a folder, e.g. -o output (or -o . for this folder)")
    return Path(value)


def split_formats(values: list[str]) -> tuple[str, ...]:
    """``--format`` values (repeated or comma-separated) as names, lower-case, each once, in order."""
    result = []
    for v in values:
        result.extend(x.strip().lower() for x in v.split(",") if x.strip())
    return tuple(dict.fromkeys(result))


def targets(games: list[str] | None) -> list[str]:
    """The targets given, else every shipped spec folder (specs/<name>/: the five games and the examples)."""
    return list(games) if games else shipped_specs()


def parse_offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError("expected two values")
        return (parse_length(parts[0]), parse_length(parts[1]))
    except ValueError as exc:
        raise PnpError(f"--back-offset {text!r} is not DX,DY in mm ({exc}).", field="--back-offset",
                       hint="write e.g. --back-offset 1.5,-0.5 (read it off `pnp calibrate`)") from None


def impose_options(bleed: str, duplex: str, back_offset: str, mix_papers: bool = False, cut_lines: bool = False
             ) -> ImposeOptions:
    try:
        bleed_mm = parse_length(bleed)
    except ValueError as exc:
        raise PnpError(f"--bleed: {exc}.", field="--bleed", hint="write e.g. --bleed 3") from None
    opts = ImposeOptions(bleed=bleed_mm, duplex=duplex, back_offset=parse_offset(back_offset), mix_papers=mix_papers,
                         cut_lines=cut_lines)
    if opts.back_offset != (0.0, 0.0) and duplex not in ("long", "short"):
        raise PnpError(f"--back-offset {back_offset} moves the backs of a two-sided print, but --duplex is {duplex}.",
                       field="--back-offset", hint="add --duplex long or --duplex short, or drop --back-offset")
    return opts


def request_of(paper: str, fmt: list[str], sets: list[str], words: Path | None,
               opts: ImposeOptions = ImposeOptions(), settings: WriterSettings = WriterSettings(),
               full: bool = False) -> Request:
    """Every option of a command as typed values, parsed once."""
    return Request(load_paper(paper), split_formats(fmt), opts, overrides(sets, words), settings, full)


def workers_option(workers: int | None) -> int | None:
    """``--workers``, checked here (None: every core, pnp.render.imagepool).

    Raises:
        PnpError: a number outside 1..MAX_WORKERS (field --workers).
    """
    if workers is None:
        return None
    if not 1 <= workers <= MAX_WORKERS:
        raise PnpError(f"--workers {workers} is outside 1..{MAX_WORKERS}.", field="--workers",
                       hint="leave it out to use every core, or give 1 to draw in this process alone")
    return workers


def svg_text_option(svg_text: str) -> str:
    """``--svg-text``, checked here.

    Raises:
        PnpError: a value other than text or outlines (field --svg-text).
    """
    if svg_text not in SVG_TEXT_MODES:
        raise PnpError(f"--svg-text {svg_text!r} is not one of {', '.join(SVG_TEXT_MODES)}.", field="--svg-text",
                       hint="write --svg-text outlines for Inkscape, or leave it out")
    return svg_text


def colour_settings(colour: str | None, pdfx: bool, icc: Path | None) -> dict:
    """``--colour``, ``--pdfx`` and ``--icc`` as WriterSettings fields (``--pdfx`` and ``--icc`` imply
    cmyk); the profile is read and checked here, before anything is planned or written.

    Raises:
        PnpError: a colour other than rgb or cmyk, or --colour rgb with --pdfx or --icc (field named).
        SpecError: an --icc file that is not a usable CMYK output profile (pnp.colour.press.load_press).
    """
    if colour not in (None, "rgb", "cmyk"):
        raise PnpError(f"--colour {colour!r} is not rgb or cmyk.", field="--colour",
                       hint="write --colour cmyk for a print shop, or leave it out")
    if colour == "rgb" and (pdfx or icc is not None):
        raise PnpError(f"--colour rgb contradicts {'--pdfx' if pdfx else '--icc'}, which makes CMYK.",
                       field="--colour", hint="drop --colour rgb")
    if colour != "cmyk" and not pdfx and icc is None:
        return {}
    from ..colour.press import load_press, shipped_press  # the ICC machinery: only a CMYK build
    return {"press": shipped_press() if icc is None else load_press(icc), "pdfx": pdfx}


def destination_settings(tts_url: str | None, service: str | None) -> WriterSettings:
    """Writer settings of the destination options (checked here, at the edge)."""
    settings = WriterSettings()
    if tts_url is not None:
        from ..render.tts_save import check_base_url  # Pillow and the TTS writer: only with --tts-url
        settings = replace(settings, tts_url=check_base_url(tts_url))
    if service is not None:
        from ..render.pod import parse_service  # the print services' raster writer: only with --service
        settings = replace(settings, service=parse_service(service))
    return settings


def with_cutter(request: Request, cutter: str | None) -> Request:
    """``--cutter``: the request with the machine (a writer setting: the marks to print) and a paper
    whose margin keeps every part clear of them (named <paper>-<cutter>); cricut adds the cricut
    format (its Print Then Cut images). Refused with a format that makes no printed sheet."""
    if cutter is None:
        return request
    from ..layout.cutter_marks import check_cutter_formats, cutter_sheet, parse_cutter  # only with --cutter
    machine = parse_cutter(cutter)
    check_cutter_formats(machine, request.formats, lambda f: formats().get(f).takes_cutter)
    if request.opts.duplex == "fold":
        raise PnpError(f"--cutter {machine.name} cuts the sheet as printed, but --duplex fold sheets are folded and "
                       "glued before cutting, which hides or moves the marks the machine reads.", field="--cutter",
                       hint="use --duplex long or short (or none) with --cutter, or cut fold-over sheets by hand")
    paper = Paper(cutter_sheet(request.paper.sheet, machine), request.paper.path)
    extra = machine.output_format  # Cricut's Print Then Cut images
    wanted = request.formats + ((extra,) if extra and extra not in request.formats else ())
    return replace(request, paper=paper, formats=wanted, settings=replace(request.settings, cutter=machine))


def with_showcase(request: Request, rows: str | None, width: int | None) -> Request:
    """``--showcase`` and ``--showcase-width``, checked here (pnp.render.showcase_rows.parse_showcase).

    Raises:
        SpecError: either option without --format showcase, or a value parse_showcase refuses.
    """
    check_requested(rows is not None or width is not None, request.formats)
    return replace(request, settings=replace(request.settings, showcase=parse_showcase(rows, width)))
