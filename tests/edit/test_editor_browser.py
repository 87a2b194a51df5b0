"""`pnp edit`, driven as a designer uses it, in headless Chromium (Playwright driving Debian's
/usr/bin/chromium): open a `pnp new` deck, resize a box, drag a text layer 10 mm right, type a new
size, add a rectangle, undo twice, move through the rows, make a text fail to fit. After each step
the template file holds the expected values (to 0.5 mm) with its comments, and a `pnp build` read back
from its PDF (pdfplumber) shows the change in mm.

Screenshots go to tmp_path, or to the folder PNP_EDITOR_SCREENSHOTS names (docs/editor/ is made so).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import yaml

from conftest import sigint_default
from test_watch import WAIT, _stop, _until

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
MM_PER_PT = 25.4 / 72
CARD = (63.5, 88.9)
TOL = 0.5  # mm
COMMENTS = ("# The card front", "# the title, big", "# designer's note: keep the frame")
BLUE = (0x90 / 255, 0xCA / 255, 0xF9 / 255)   # the fill the editor gives a new rectangle
GREY = (0xBB / 255,) * 3                      # the frame's stroke in `pnp new`'s front.yaml


def _deck(tmp_path: Path) -> Path:
    folder = tmp_path / "deck"
    subprocess.run([sys.executable, "-m", "pnp", "new", str(folder), "-q"], check=True)
    front = folder / "front.yaml"
    lines = front.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, ln in enumerate(lines) if "'{name}'" in ln)
    lines.insert(at, "# the title, big\n")
    lines.append("# designer's note: keep the frame\n")
    front.write_text("".join(lines), encoding="utf-8")
    return folder


def _layers(folder: Path) -> list[dict]:
    text = (folder / "front.yaml").read_text(encoding="utf-8")
    for c in COMMENTS:
        assert c in text, f"the comment {c!r} is gone:\n{text}"
    return yaml.safe_load(text)["layers"]


def _close(a: float, b: float, tol: float = TOL) -> bool:
    return abs(a - b) <= tol


def _colour(c, want) -> bool:
    return isinstance(c, (tuple, list)) and len(c) == 3 and all(abs(x - y) < 0.01 for x, y in zip(c, want))


def _build(folder: Path, out: Path):
    """`pnp build` of the deck; the PDF's pages read back: [(page, [card boxes (x, top) mm])]."""
    import pdfplumber
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "pnp", "build", str(folder), "-o", str(out), "-f", "pdf", "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pdf = pdfplumber.open(next((out / "deck").glob("deck-*.pdf")))
    pages = []
    for page in pdf.pages:
        cards = [(o["x0"] * MM_PER_PT, o["top"] * MM_PER_PT) for o in page.rects
                 if _close((o["x1"] - o["x0"]) * MM_PER_PT, CARD[0], 0.05)
                 and _close((o["bottom"] - o["top"]) * MM_PER_PT, CARD[1], 0.05)]
        if cards:
            pages.append((page, cards))
    return pdf, pages


def _on(card, obj) -> bool:
    x, top = card
    return x - 0.01 <= obj["x0"] * MM_PER_PT <= x + CARD[0] and top - 0.01 <= obj["top"] * MM_PER_PT <= top + CARD[1]


def _first_card(pages, word: str):
    """(page, card, that card's words) of the first card printing ``word``."""
    for page, cards in pages:
        words = page.extract_words(extra_attrs=["size"])
        for card in cards:
            mine = [w for w in words if _on(card, w)]
            if any(w["text"] == word for w in mine):
                return page, card, mine
    raise AssertionError(f"no card prints {word!r}")


def _printed(folder: Path, out: Path) -> dict:
    """What the PDF shows of the card for the row "Scout", in mm from its trim's top-left corner."""
    pdf, pages = _build(folder, out)
    try:
        page, card, words = _first_card(pages, "Scout")
        title = next(w for w in words if w["text"] == "Scout")
        body = next(w for w in words if w["text"] == "Look")
        frames = [o for o in page.curves + page.rects if _on(card, o) and _colour(o.get("stroking_color"), GREY)]
        blues = [o for o in page.rects if _on(card, o) and _colour(o.get("non_stroking_color"), BLUE)]
        return {"title_x": title["x0"] * MM_PER_PT - card[0], "body_x": body["x0"] * MM_PER_PT - card[0],
                "body_pt": body["size"],
                "frame_w": [(o["x1"] - o["x0"]) * MM_PER_PT for o in frames],
                "blue": [((o["x0"]) * MM_PER_PT - card[0], o["top"] * MM_PER_PT - card[1],
                          (o["x1"] - o["x0"]) * MM_PER_PT, (o["bottom"] - o["top"]) * MM_PER_PT) for o in blues]}
    finally:
        pdf.close()


class Page:
    """The editor page in Chromium, with the card's scale read from the element spanning the trim."""

    def __init__(self, page, shots: Path):
        self.page, self.shots = page, shots

    def version(self) -> int:
        return int(self.page.get_attribute("#card", "data-version"))

    def redrawn(self, before: int) -> None:
        """Wait for the card drawn after ``before`` and its problems shown (the overlay then stays put)."""
        self.page.wait_for_function("() => { const c = document.getElementById('card'); "
                                    f"return Number(c.dataset.version) > {before} && "
                                    "c.dataset.checked === c.dataset.version; }", timeout=WAIT * 1000)

    def trim(self):
        box = self.page.locator("[data-trim-mm]").bounding_box()
        w, h = map(float, self.page.get_attribute("[data-trim-mm]", "data-trim-mm").split())
        return box, box["width"] / w, (w, h)

    def at(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        box, k, _ = self.trim()
        return box["x"] + x_mm * k, box["y"] + y_mm * k

    def drag(self, start: tuple[float, float], dx_mm: float, dy_mm: float, shot: str | None = None) -> None:
        _, k, _ = self.trim()
        before = self.version()
        m = self.page.mouse
        m.move(*start)
        m.down()
        m.move(start[0] + dx_mm * k, start[1] + dy_mm * k, steps=12)
        if shot:
            self.shot(shot)
        m.up()
        self.redrawn(before)

    def centre(self, selector: str) -> tuple[float, float]:
        b = self.page.locator(selector).bounding_box()
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / name))


def test_the_editor_edits_the_templates_in_place(tmp_path):
    from browser import require_chromium
    require_chromium("drives the card editor through edits in a browser")
    from playwright.sync_api import sync_playwright

    folder = _deck(tmp_path)
    shots = Path(os.environ.get("PNP_EDITOR_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    start = _printed(folder, tmp_path / "b0")
    assert _close(start["title_x"], start["body_x"]) and _close(start["body_pt"], 10, 0.01) and not start["blue"]
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "edit", str(folder), "--port", "0", "-o",
                             str(tmp_path / "out"), "-f", "pdf"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, preexec_fn=sigint_default, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    try:
        _until(lambda: lines, "the editor's address", lines)
        url = re.match(r"editor: (http://127\.0\.0\.1:\d+/)", lines[0])
        assert url, f"the first line is not the editor's address: {lines[0]!r}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url.group(1))
            ed = Page(page, shots)
            page.wait_for_selector('[data-layer="front.yaml:2"]', timeout=WAIT * 1000)
            ed.redrawn(0)
            _, k, size = ed.trim()
            assert size == CARD
            trim, _, _ = ed.trim()
            drawn = page.locator("#card svg").bounding_box()  # pnp's SVG: the trim and 3 mm of bleed each side
            assert _close(drawn["width"] / k, CARD[0] + 6, 0.05) and _close(drawn["height"] / k, CARD[1] + 6, 0.05)
            assert _close(trim["x"] - drawn["x"], 3 * k, 0.5) and _close(trim["height"] / k, CARD[1], 0.05)
            box = page.locator('#overlay [data-layer="front.yaml:2"]').bounding_box()  # its stroke counted
            assert _close(box["width"] / k, 55.5, 0.4) and _close(box["height"] / k, 7.03, 0.4)

            # 1. resize the frame: its right handle 5 mm left
            page.click('#layer-list [data-layer="front.yaml:4"]')
            ed.shot("editor.png")
            ed.drag(ed.centre('[data-handle="e"]'), -5, 0)
            frame = _layers(folder)[3]
            assert _close(frame["w"], 58.5 - 5) and frame["x"] == 2.5, frame
            got = _printed(folder, tmp_path / "b1")
            assert got["frame_w"] and all(_close(w, 58.5 - 5) for w in got["frame_w"]), got

            # 2. narrow the title's box, 3. drag the title 10 mm right
            page.click('#layer-list [data-layer="front.yaml:2"]')
            ed.drag(ed.centre('[data-handle="e"]'), -15.5, 0)
            assert _close(_layers(folder)[1]["w"], 40)
            ed.drag(ed.centre('#overlay [data-layer="front.yaml:2"]'), 10, 0, shot="editor-drag.png")
            title = _layers(folder)[1]
            assert _close(title["x"], 4 + 10) and _close(title["y"], 4) and _close(title["w"], 40), title
            got = _printed(folder, tmp_path / "b2")
            assert _close(got["title_x"] - got["body_x"], 10), got

            # arrow keys nudge the selected layer 0.5 mm, with Shift 5 mm
            for key, want in (("Shift+ArrowLeft", 9), ("ArrowRight", 9.5), ("Shift+ArrowRight", 14.5), ("ArrowLeft", 14)):
                before = ed.version()
                page.keyboard.press(key)
                ed.redrawn(before)
                assert abs(_layers(folder)[1]["x"] - want) < 1e-9, (key, _layers(folder)[1])
            # a layer hidden on the page is left out of pnp's drawing, and no file changes
            text = (folder / "front.yaml").read_bytes()
            for checked, drawn in ((False, False), (True, True)):
                before = ed.version()
                page.set_checked('#layer-list li[data-layer="front.yaml:3"] input.visible', checked)
                ed.redrawn(before)
                assert ("Look" in page.text_content("#card svg")) is drawn
            assert (folder / "front.yaml").read_bytes() == text

            # 4. type a new size for the body text
            page.click('#layer-list [data-layer="front.yaml:3"]')
            before = ed.version()
            page.fill('[data-field="size"] input', "12")
            page.press('[data-field="size"] input', "Enter")
            ed.redrawn(before)
            assert _layers(folder)[2]["size"] == 12
            ed.shot("editor-properties.png")
            got = _printed(folder, tmp_path / "b3")
            assert _close(got["body_pt"] * MM_PER_PT, 12 * MM_PER_PT, 0.05), got

            # 5. add a rectangle
            before = ed.version()
            page.click('[data-add="rect"]')
            ed.redrawn(before)
            layers = _layers(folder)
            assert len(layers) == 5 and layers[4]["type"] == "rect", layers
            rect = layers[4]
            got = _printed(folder, tmp_path / "b4")
            assert len(got["blue"]) == 1, got
            x, y, w, h = got["blue"][0]
            assert all(_close(a, b) for a, b in zip((x, y, w, h), (rect["x"], rect["y"], rect["w"], rect["h"]))), got
            assert 3 <= x and x + w <= CARD[0] - 3 and 3 <= y and y + h <= CARD[1] - 3  # inside the safe area

            # 6. undo twice (Ctrl+Z): the rectangle goes, the size is 10 again; the moves stay
            page.evaluate("document.activeElement.blur()")
            for _ in range(2):
                before = ed.version()
                page.keyboard.press("Control+z")
                ed.redrawn(before)
            layers = _layers(folder)
            assert len(layers) == 4 and layers[2]["size"] == 10.0 and _close(layers[1]["x"], 14), layers
            got = _printed(folder, tmp_path / "b5")
            assert not got["blue"] and _close(got["body_pt"], 10, 0.01) and _close(got["title_x"] - got["body_x"], 10), got

            # the text typed, then a {column} inserted from the data's columns; undone
            page.click('#layer-list [data-layer="front.yaml:2"]')
            for act, want in ((lambda: (page.fill('[data-field="text"] textarea', "{name} card"),
                                        page.locator('[data-field="text"] textarea').blur()),
                               "{name} card"),
                              (lambda: page.select_option('[data-field="text"] select.columns', "copies"),
                               "{name} card{copies}")):
                before = ed.version()
                act()
                ed.redrawn(before)
                # a redraw the file watch started may land before this edit's own: wait for the file
                _until(lambda: _layers(folder)[1]["text"] == want, f"the title's text to be {want!r}", lines)
            for _ in range(2):
                before = ed.version()
                page.click("#undo")
                ed.redrawn(before)
            assert _layers(folder)[1]["text"] == "{name}"

            # 7. move through the rows: next, previous, search
            text = (folder / "front.yaml").read_bytes()
            rows = [ln.split(",")[0] for ln in (folder / "cards.csv").read_text().splitlines()[1:]]
            for action, want in (("#next", rows[1]), ("#next", rows[2]), ("#prev", rows[1])):
                before = ed.version()
                page.click(action)
                ed.redrawn(before)
                assert want in page.inner_text("#row-label") and want in page.text_content("#card svg")
            before = ed.version()
            page.fill("#search", rows[3])
            page.press("#search", "Enter")
            ed.redrawn(before)
            assert f"row 4 of {len(rows)}" in page.inner_text("#row-label")
            assert (folder / "front.yaml").read_bytes() == text  # looking writes nothing

            # 8. a text that fails to fit on some rows: outlined in red, its rows listed and shown on a click
            page.click('#layer-list [data-layer="front.yaml:3"]')
            before = ed.version()
            page.fill('[data-field="h"] input', "3")
            page.press('[data-field="h"] input', "Enter")
            ed.redrawn(before)
            page.wait_for_selector('#problems li[data-problem="front.yaml:3"]', timeout=WAIT * 1000)
            assert "problem" in page.get_attribute('#overlay [data-layer="front.yaml:3"]', "class")
            listed = [int(a) for a in page.eval_on_selector_all('#problems li[data-problem="front.yaml:3"] a',
                                                                "els => els.map(e => e.dataset.row)")]
            build = subprocess.run([sys.executable, "-m", "pnp", "build", str(folder), "-o", str(tmp_path / "b6"),
                                    "-f", "pdf", "-q"], capture_output=True, text=True)
            assert build.returncode == 2
            named = int(re.search(r"row (\d+)", build.stderr).group(1)) - 2  # the data row: header is line 1
            assert named in listed, (build.stderr, listed)
            page.evaluate("document.activeElement.blur()")
            ed.shot("editor-problems.png")
            before = ed.version()
            page.click(f'#problems a[data-row="{listed[0]}"]')
            ed.redrawn(before)
            assert f"row {listed[0] + 1} of" in page.inner_text("#row-label")
            before = ed.version()
            page.keyboard.press("Control+z")
            ed.redrawn(before)
            assert _layers(folder)[2]["h"] == 71.67
            assert not errors, errors
            browser.close()
    finally:
        _stop(proc)
