"""Bounded work, counted before it starts: template loads per build, the sheets of a
workbook searched for the header, shrink-to-fit steps, pixels rendered per output (cricut, preview,
pod), and print-on-demand memory that does not grow with the deck.

Hostile cases run in a child process under RLIMIT_AS 1 GiB (preexec_fn) with a timeout, so a case
that hangs or balloons fails the test instead of the machine: bad input is exit 2, one line naming
the file, line and field and the limit, no traceback, and ``--out`` unchanged.
"""
from __future__ import annotations

import io
import json
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from conftest import snapshot
from pnp import text as richtext
from pnp.core.errors import PnpError
from pnp.core.fonts import face, text_width_mm
from pnp.render.formats import WriterSettings, formats

GIB = 1024 ** 3
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def _pnp(args: list[str], timeout: float = 30) -> subprocess.CompletedProcess:
    """``python -m pnp ARGS`` under 1 GiB of address space."""
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_limit)


def _game(folder: Path, spec: str, files: dict[str, str | bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    for name, content in files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    path = folder / "deck.yaml"
    path.write_text("rules: rules.md\ntitle: Deck\ncomponents:\n  - name: card\n    size: poker\n" + spec,
                    encoding="utf-8")
    return path


def _refused(tmp_path: Path, args: list[str]) -> str:
    """Run a build that must be refused; return its one error line (after checking the contract)."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "keep.txt").write_text("an earlier kit\n")
    before = snapshot(out)
    r = _pnp([*args, "--out", str(out)])
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("note:")]
    assert r.returncode == 2, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and "panic" not in r.stderr and len(lines) == 1, r.stderr[-2000:]
    assert snapshot(out) == before
    return lines[0]


# --- 1. template loads ------------------------------------------------------------------------------

def test_template_fan_out_is_refused_after_the_build_s_loads(tmp_path):
    """Six templates each including the next twenty times: 20^6 expansions on main (a hang)."""
    files = {f"t{i}.yaml": "include: [" + ", ".join([f"t{i + 1}.yaml"] * 20) + "]\n" for i in range(1, 6)}
    files["t6.yaml"] = "layers: []\n"
    spec = _game(tmp_path / "fan", "    front: t1.yaml\n", files)
    line = _refused(tmp_path, ["build", str(spec), "-f", "pdf"])
    from pnp.custom.template import MAX_LOADS
    assert "t5.yaml, line 1, field include" in line
    assert f"more than {MAX_LOADS:,} times" in line and "t6.yaml" in line


def test_a_template_included_many_times_is_read_once(tmp_path):
    (tmp_path / "leaf.yaml").write_text("layers:\n  - {type: rect, fill: '#ff0000'}\n")
    (tmp_path / "top.yaml").write_text("include: [" + ", ".join(["leaf.yaml"] * 20) + "]\n")
    from pnp.custom.template import Loads, load_template
    files: list[Path] = []
    loads = Loads()
    layers = load_template(tmp_path / "top.yaml", tmp_path, files, loads)
    assert len(layers) == 20 and {p.file.name for p in layers} == {"leaf.yaml"}
    assert loads.count == 21                      # every expansion counted
    assert len(loads.parsed) == 2 and sorted(p.name for p in files) == ["leaf.yaml", "top.yaml"]  # read once


def test_expanded_layers_are_bounded_as_includes_arrive(tmp_path):
    """Twenty includes of a 30-layer template: refused at the include that passes MAX_LAYERS."""
    (tmp_path / "leaf.yaml").write_text("layers:\n" + "  - {type: rect}\n" * 30)
    (tmp_path / "top.yaml").write_text("include: [" + ", ".join(["leaf.yaml"] * 20) + "]\n")
    from pnp.core.errors import SpecError
    from pnp.custom.template import MAX_LAYERS, Loads, load_template
    loads = Loads()
    with pytest.raises(SpecError) as err:
        load_template(tmp_path / "top.yaml", tmp_path, None, loads)
    assert f"(limit {MAX_LAYERS})" in err.value.message
    assert loads.count == MAX_LAYERS // 30 + 2  # stopped at the first include over the bound, not after all 20


# --- 2. workbooks -----------------------------------------------------------------------------------

def _book(sheets: dict[str, list[list]], far: str | None = None) -> bytes:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
        if far:
            ws[far] = "far"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


FRONT = "layers:\n  - {type: text, text: '{name}', size: 12}\n"


def test_a_workbook_of_250_sheets_is_refused_before_they_are_loaded(tmp_path):
    """82 KB, 250 sheets each spanning 2 million cells: 5.9 GB and a MemoryError on main."""
    book = _book({f"S{i}": [["other"], ["x"]] for i in range(250)}, far="H249999")
    spec = _game(tmp_path / "wb", "    data: book.xlsx\n    front: front.yaml\n", {"book.xlsx": book, "front.yaml": FRONT})
    line = _refused(tmp_path, ["build", str(spec), "-f", "pdf"])
    assert "book.xlsx, field components.0.data" in line and "250 sheets" in line and "at most 50" in line


def test_the_cells_of_the_sheets_searched_are_bounded(tmp_path):
    """Forty sheets (under the sheet bound), each spanning 2 million cells: refused at the third."""
    book = _book({f"S{i}": [["other"], ["x"]] for i in range(40)}, far="H249999")
    spec = _game(tmp_path / "wb", "    data: book.xlsx\n    front: front.yaml\n", {"book.xlsx": book, "front.yaml": FRONT})
    line = _refused(tmp_path, ["build", str(spec), "-f", "pdf"])
    assert "book.xlsx, field components.0.data" in line and "'S2'" in line and "at most 4,000,000 cells" in line


def test_the_chosen_sheet_is_read_whole_after_a_bounded_search(tmp_path):
    from pnp.custom.table import HEAD_ROWS, read_table
    n = HEAD_ROWS * 3
    book = _book({"notes": [["a note"]], "cards": [["name", "copies"]] + [[f"card {i}", 1] for i in range(n)],
                  "empty": []})
    (tmp_path / "book.xlsx").write_bytes(book)
    table = read_table(tmp_path / "book.xlsx", {"name"})
    assert table.sheet == "cards" and len(table.rows) == n
    assert table.rows[-1].values["name"] == f"card {n - 1}" and table.rows[-1].number == n + 1


# --- 3. shrink-to-fit -------------------------------------------------------------------------------

def _random_text(rnd: random.Random, chars: int) -> str:
    words = []
    while sum(len(w) + 1 for w in words) < chars:
        words.append("".join(rnd.choice("abcdefghijklmnopqrstuvwxyzMW") for _ in range(rnd.randint(1, 12))))
    return " ".join(words)[:chars]


def test_shrink_skips_only_sizes_that_cannot_fit():
    """The size chosen with the bound is the size the plain quarter-point scan chooses, and far fewer
    sizes are laid out."""
    rnd = random.Random(30)
    body = face()  # the face plain text is set in (Noto Sans): its ascent and descent (per pt)
    for case in range(40):
        text = _random_text(rnd, rnd.choice([20, 120, 300]) if case else 1500)
        if case % 3 == 0:
            text = text.replace(" ", "\n", 2)
        w, h = rnd.uniform(20, 70), rnd.uniform(10, 100)
        size, spacing = (rnd.choice([12.0, 30.0]) if case else 400.0), rnd.choice([1.0, 1.2, 2.0])
        tried: list[float] = []

        def lay(s):
            tried.append(s)
            return richtext.lay_out(paras, s, w, h, True, spacing)
        paras = richtext.plain(text)
        words = [[text_width_mm(x, 1.0) for x in para.split()] for para in text.split("\n")]
        possible = richtext.could_fit(words, body.ascent, body.descent, spacing, w, h)
        bounded = richtext.scan(lay, size, 2.0, possible)
        plain = richtext.scan(lambda s: richtext.lay_out(paras, s, w, h, True, spacing), size, 2.0)
        assert bounded == plain, (case, w, h, size)
        assert richtext.fit(paras, size, 2.0, w, h, True, spacing) in (plain, richtext.lay_out(paras, size, w, h, True,
                                                                                               spacing))
        if case == 0:  # 1,500 characters from 400 pt: a bisection and a few steps, not 1,592
            assert bounded is not None and len(tried) < 40, len(tried)


def test_rich_text_shrink_chooses_the_same_size_with_fewer_steps():
    rnd = random.Random(31)
    for case in range(12):
        text = _random_text(rnd, 200).replace(" ", " **", 1).replace(" ", "** ", 2)
        paras = richtext.parse(text)
        w, h = rnd.uniform(30, 70), rnd.uniform(20, 60)
        got = richtext.fit(paras, 24.0, 2.0, w, h, True, 1.2)
        plain = richtext.scan(lambda s: richtext.lay_out(paras, s, w, h, True, 1.2), 24.0, 2.0)
        assert got == plain, case


def test_long_cells_at_a_400_pt_start_build(tmp_path):
    """200 rows of 1,500 distinct characters shrinking from 400 pt: over 2 minutes on main."""
    rnd = random.Random(7)
    rows = "t\n" + "".join(_random_text(rnd, 1500) + "\n" for _ in range(200))
    front = "layers:\n  - {type: text, text: '{t}', size: 400, min_size: 2, fit: shrink, wrap: true}\n"
    spec = _game(tmp_path / "shrink", "    data: rows.csv\n    front: front.yaml\n", {"rows.csv": rows, "front.yaml": front})
    r = _pnp(["build", str(spec), "-f", "pdf", "--out", str(tmp_path / "out")], timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    import pypdf
    pdf = pypdf.PdfReader(next((tmp_path / "out" / "deck").glob("*.pdf")))
    assert len(pdf.pages) >= 200 // 9


def test_the_text_fitting_estimate_is_told_before_the_parts_are_drawn(tmp_path, monkeypatch):
    """plan() counts shrink-to-fit work from the tables and templates (Game.fit_work), tells it
    before components() draws a part, refuses it over the limit before drawing, and the budget the
    CLI prints includes it."""
    from pnp.pipeline import plan as planmod
    import pnp.custom as custom
    from pnp.layout import limits
    rnd = random.Random(8)
    rows = "t\n" + "".join(_random_text(rnd, 1500) + "\n" for _ in range(50))
    front = "layers:\n  - {type: text, text: '{t}', size: 400, min_size: 2, fit: shrink, wrap: true}\n"
    spec = _game(tmp_path / "fit", "    data: rows.csv\n    front: front.yaml\n", {"rows.csv": rows, "front.yaml": front})
    events: list[str] = []
    drawn = custom.build_components
    monkeypatch.setattr(custom, "build_components", lambda *a: (events.append("drawn"), drawn(*a))[1])
    monkeypatch.setattr(planmod, "LONG_FIT_SECONDS", 0.0)
    request = planmod.Request(planmod.load_paper("a4"), ("pdf",))
    got = planmod.plan([str(spec)], request, events.append)
    assert events[0].startswith("deck: fitting the text") and events[1] == "drawn", events
    texts = [line for line in rows.splitlines()[1:]]
    counted = sum(len(t) for t in texts) * (1 + richtext.TYPICAL_SCAN_LAYOUTS)
    budget = got.targets[0].budget
    plain = limits.estimate_seconds(budget.pages, got.targets[0].components, formats().writers(("pdf",)),
                                    request.settings)
    assert budget.seconds - plain == pytest.approx(counted * limits.SECONDS_PER_FIT_CHAR, rel=1e-6)
    events.clear()
    monkeypatch.setattr(limits, "SECONDS_PER_FIT_CHAR", limits.MAX_SECONDS / counted * 1.01)
    with pytest.raises(PnpError, match="fitting the kit's texts would lay out about"):
        planmod.plan([str(spec)], request, events.append)
    assert events == [], "refused before any part was drawn"


def test_shrink_to_fit_stops_after_a_bounded_number_of_sizes():
    tried: list[float] = []
    with pytest.raises(richtext.TooManySizes) as stop:
        richtext.scan(lambda s: tried.append(s), 400.0, 2.0, lambda s: True)
    assert len(tried) == richtext.MAX_SCAN_STEPS == 64
    assert tried[0] == 400.0 and tried[-1] == 400.0 - 63 * richtext.STEP_PT and stop.value.last_pt == tried[-1]


# --- 4. pixels per output ---------------------------------------------------------------------------

def test_cricut_on_a_two_metre_sheet_renders_only_the_image(tmp_path):
    """--cutter cricut on a 2 x 2 m sheet: 4.4 GB on main (the whole sheet rendered at 300 dpi)."""
    spec = _game(tmp_path / "big", "    copies: 4\n    front: front.yaml\n",
                 {"front.yaml": "layers:\n  - {type: rect, fill: '#ff0000'}\n"})
    paper = tmp_path / "huge.yaml"
    paper.write_text("name: huge\nwidth: 2000mm\nheight: 2000mm\n")
    out = tmp_path / "out"
    r = _pnp(["build", str(spec), "-f", "pdf", "--cutter", "cricut", "--paper", str(paper), "--out", str(out)])
    assert r.returncode == 0, r.stderr[-2000:]
    pngs = sorted((out / "deck").rglob("*.png"))
    assert pngs
    for png in pngs:
        with Image.open(png) as im:
            w, h = im.size
            assert w <= 6.75 * 300 + 1 and h <= 9.25 * 300 + 1  # the Print Then Cut area at 300 dpi
            alpha = im.getchannel("A")
            red = im.convert("RGB").getpixel((w // 4, h // 2))
            assert alpha.getextrema()[1] == 255 and red[0] > 200 and red[1] < 60  # the parts were drawn


def test_cricut_crop_render_equals_the_whole_page_cropped(tmp_path):
    """A Print Then Cut image (pnp.render.cricut.write_sheet renders only the parts' box, read back
    with Pillow) has the pixels of the whole page rendered by PDFium and cropped to that box."""
    from pnp.core.ir import Circle, Page, Placement, Rect, Text
    from pnp.layout.cutter_marks import CRICUT
    from pnp.render import cricut
    import pypdfium2 as pdfium
    from pnp.render.pdf import PdfWriter
    shapes = (Rect(10.3, 20.7, 63.5, 88.9, fill="#3366cc"), Circle(40, 60, 20, fill="#ffcc00"),
              Text(40, 60, "Ag", size_pt=30.0))
    page = Page(210.0, 297.0, shapes, "p", placements=(Placement("card", 10.3, 20.7, 63.5, 88.9),))
    box = cricut.image_box(page)
    sheet = cricut.write_sheet(page, CRICUT, tmp_path, "cricut", "p", dpi=300)
    with Image.open(tmp_path / sheet.png) as im:
        got = im.convert("RGB")
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    writer.add(page)
    writer.close()
    doc = pdfium.PdfDocument(buf.getvalue())
    whole = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    doc.close()
    left, top, w, h = box
    assert got.size == (w, h)
    diff = ImageChops.difference(got, whole.crop((left, top, left + w, top + h))).convert("L")
    assert diff.getextrema()[1] <= 1  # PDFium's anti-aliasing may round an edge pixel one level apart


def test_a_preview_over_the_pixel_bound_is_refused_by_the_plan(tmp_path):
    """A 2 x 2 m preview page at 150 dpi (138 megapixels) is refused by the plan, naming the option,
    the paper and its size (main refused it when the first page was imposed, naming neither)."""
    paper = tmp_path / "huge.yaml"
    paper.write_text("name: huge\nwidth: 2000mm\nheight: 2000mm\n")
    line = _refused(tmp_path, ["preview", "nonads", "--dpi", "150", "--paper", str(paper)])
    assert "nonads.yaml, field --dpi" in line and "--format preview on huge (2,000 x 2,000 mm)" in line
    assert "at 150 dpi" in line and "(limit 40)" in line
    assert "--dpi 80 " in line  # (2000 / 25.4 x 80)^2 = 39.7 MP; at 81 dpi 40.7 MP


def test_the_estimate_names_the_largest_image():
    from pnp.layout.limits import Budget, raster_pixels
    from pnp.layout.paper import load_sheet
    a4 = load_sheet("a4")
    at300 = WriterSettings(dpi=300)
    px, option, dpi = raster_pixels(formats().writers(("pdf", "preview")), a4, at300)
    assert option == "--format preview" and dpi == 300
    assert px == int((210 / 25.4 * 300) * (297 / 25.4 * 300))
    assert raster_pixels(formats().writers(("pdf",)), a4, at300)[0] == 0
    assert Budget(3, 0, (), 12.0, px).describe() == f"3 pages, about 12 s, images up to {px / 1e6:.0f} megapixels"


# --- 5. print-on-demand memory ----------------------------------------------------------------------

POD_CHILD = """
import json, resource, sys, tempfile
from pathlib import Path
from pnp.core.ir import Component, Rect, Text
from pnp.render.pod import SERVICES, write_component
n = int(sys.argv[1])
fronts = [(Rect(0, 0, 63.5, 88.9, fill="#%02x%02x%02x" % (i * 5 % 256, i * 7 % 256, i * 11 % 256)),
           Text(31, 44, str(i), size_pt=20.0)) for i in range(n)]
comp = Component("card", 63.5, 88.9, fronts, 1, None)
with tempfile.TemporaryDirectory() as d:
    paths = write_component(comp, SERVICES["tgc"], Path(d), "deck")
    pngs = len([p for p in paths if p.name[-7:-4].isdigit()])
print(json.dumps({"pngs": pngs, "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def _pod_peak(n: int) -> dict:
    r = subprocess.run([sys.executable, "-c", POD_CHILD, str(n)], capture_output=True, text=True, timeout=60,
                       preexec_fn=_limit)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_print_on_demand_memory_does_not_grow_with_the_deck():
    """30 cards more cost far less than 30 card images (825 x 1125 RGB, 2.7 MiB each); main held them all."""
    from pnp.render.pod import SERVICES
    w, h = SERVICES["tgc"].pixels(63.5, 88.9)
    image_kb = w * h * 3 / 1024
    small, big = _pod_peak(5), _pod_peak(35)
    assert small["pngs"] == 5 and big["pngs"] == 35
    assert big["peak_kb"] - small["peak_kb"] < 8 * image_kb, (small, big, image_kb)
