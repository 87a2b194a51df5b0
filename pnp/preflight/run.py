"""One kit's preflight: its PDF written into a scratch folder by the PDF writer (pnp.render), every
page rendered at 300 dpi and measured against the IR it was drawn from (pnp.preflight.scene), and
the findings of every check in a fixed order."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..core.findings import FAIL, PASS, WARN, Finding
from ..core.ir import Component
from ..core.safearea import SAFE_MM
from ..layout.cover import Cover
from ..layout.impose import impose
from ..layout.kitpacking import Packing
from ..layout.limits import PREFLIGHT_DPI, check_preflight
from ..layout.options import ImposeOptions
from ..layout.paper import Sheet
from ..render.formats import WriteJob, WriterSettings
from ..render.formats.pdf import PdfKitWriter
from . import areas, contrast, cuts, cvd, ink, sizes
from .pdffacts import PdfFacts, read_facts
from .pixels import rendered
from .report import listed
from .scratch import scratch_folder
from .scene import PageScene, Where

Progress = Callable[[int, int], None]
COLOUR_RULE = "a CMYK kit holds no RGB colour or picture: a press converts it unpredictably (ISO 15930; docs/print.md)"
FONT_RULE = "every font embedded (ISO 15930, PDF/X; a base-14 font is the printer's own: docs/print.md, Preflight)"


def preflight(title: str, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions, cover: Cover,
              packing: Packing, settings: WriterSettings = WriterSettings(), spec: Path | None = None,
              progress: Progress | None = None) -> list[Finding]:
    """Draw the kit as `pnp build` would (its PDF, in a scratch folder in TMPDIR that a killed run
    leaves for the next to remove: pnp.preflight.scratch), then check every page.
    ``settings.service`` (a pnp.render.pod.Service, or None) sets the safe area and ink limit.

    Raises:
        LayoutError: more pages than pnp.layout.limits.MAX_PREFLIGHT_PAGES, or pages too large to
            render at 300 dpi (checked before anything is drawn).
    """
    imposed = impose(title, components, sheet, opts, cover, packing)
    check_preflight(imposed.total, sheet, spec)
    with scratch_folder() as tmp:  # in TMPDIR; what a killed run left there is removed first
        job = WriteJob(Path(tmp), "preflight", imposed.total, opts, components, {}, settings)
        writer = PdfKitWriter(job)
        scenes = []
        for number, page in enumerate(imposed.pages, 1):
            writer.page(number, page)
            scenes.append(PageScene(page, number, components))
        pdf = Path(tmp) / writer.finish()[0]
        return check(pdf, scenes, opts.bleed, settings.service, progress)


def check(pdf: Path, scenes: list[PageScene], bleed: float, service=None,
          progress: Progress | None = None) -> list[Finding]:
    """Every check on ``pdf`` and the ``scenes`` it was drawn from (one per page, in order): coverage,
    sizes, colour spaces, fonts, safe area, bleed (art short of the bleed line; with bleed, strokes on a
    cut and bleed unlike the art inside the cut: pnp.preflight.cuts), contrast, colour-vision deficiency."""
    facts = read_facts(pdf)
    coverage = ink.Coverage(facts.cmyk_colours if facts.cmyk else None)
    limit, source = ink.limit_for(service)
    faces = cvd.Faces()
    over, gaps, low, unlike = [], [], [], []
    for sc, raster in zip(scenes, rendered(pdf, PREFLIGHT_DPI)):
        over += ink.over_limit(sc, raster, coverage, limit)
        gaps += areas.bleed_gaps(sc, raster, bleed)
        unlike += cuts.bleed_colour(sc, raster, bleed)
        low += contrast.text_contrast(sc, raster)
        faces.add(sc, raster)
        if progress is not None:
            progress(sc.number, len(scenes))
    safe = service.safe if service is not None else SAFE_MM
    safe_rule = (f"{service.title} card template: safe area {safe:.2f} mm inside the trim (docs/print.md)" if service
                 else f"text keeps {SAFE_MM:g} mm inside the trim (docs/print.md, Preflight)")
    over += ink.pictures_over_limit(facts.pictures, limit, lambda use: _where(use, scenes))
    out = ink.findings(over, limit, source, coverage)
    out += sizes.text_sizes(scenes) + sizes.line_widths(scenes) + sizes.picture_dpi(scenes)
    out += colour_spaces(facts, scenes) + fonts(facts, scenes)
    out += areas.safe_area(scenes, safe, safe_rule)
    out += listed(gaps, "art that reaches the trim runs on to the bleed line, so an off cut shows no white edge "
                        "(docs/print.md, Preflight)",
                  f"art that reaches the trim runs {bleed:g} mm past it" if bleed > 0 else
                  "no bleed asked (--bleed 0): art reaching the trim is not checked against a bleed line")
    if bleed > 0:
        out += listed(cuts.strokes_on_cut(scenes, bleed), cuts.RULE_STROKE, "nothing is drawn on a cut line")
        out += listed(unlike, cuts.RULE_COLOUR, "the bleed past every cut edge is the colour of the art inside it")
    out += listed(low, contrast.RULE, "every text has WCAG contrast 4.5:1 with what is drawn behind it (3:1 large)")
    out += cvd.collapsed(faces)
    return out


def colour_spaces(facts: PdfFacts, scenes: list[PageScene]) -> list[Finding]:
    """RGB colours or pictures in a CMYK kit: a FAIL each; one PASS for an RGB kit (nothing to check)."""
    if not facts.cmyk:
        return [Finding(PASS, "an RGB kit (no CMYK colour or OutputIntent): no RGB-in-CMYK check", COLOUR_RULE)]
    found = [(FAIL, _where(u, scenes), f"{u.what} in a CMYK kit ({facts.why})") for u in facts.rgb]
    return listed(found, COLOUR_RULE, f"every colour and picture is CMYK or grey ({facts.why})")


def fonts(facts: PdfFacts, scenes: list[PageScene]) -> list[Finding]:
    """A FAIL for each font not embedded that sets text; a WARN for one only selected (it prints
    nothing, but a strict preflight still asks for it)."""
    pages: dict[tuple[str, bool], list] = {}
    for u in facts.fonts:  # one finding per font (and whether it sets text): its first use, and its pages
        pages.setdefault((u.what, u.shown), []).append(u)
    found = []
    for (what, shown), uses in pages.items():
        more = f", on {len(uses)} pages" if len(uses) > 1 else ""
        found.append((FAIL if shown else WARN, _where(uses[0], scenes),
                      f"{what}{'' if shown else ': selected but sets no text'}{more}"))
    return listed(found, FONT_RULE, "every font that sets text is embedded")


def _where(use, scenes: list[PageScene]) -> Where:
    """Where a PDF fact was used, named by the part on that page whose trim holds it."""
    if 0 < use.page <= len(scenes):
        return scenes[use.page - 1].where(use.x, use.y)
    return Where(use.page, use.x, use.y)
