"""`pnp edit` in headless Chromium (Debian's /usr/bin/chromium through Playwright), two things a
designer laying out a real deck leans on, each read back from the template file:

* the selection stays on the layer it was on when the list's up/down buttons (or delete, duplicate)
  move it, so the next typed field goes to that layer, not to whichever now has its old place;
* Shift on a corner handle keeps the box's proportions (w/h to 0.5 mm);
* the layer list shows each layer's text whole (wrapped, not clipped), so {Cout} reads apart from {Voix};
* a card answered late (rows stepped through quickly) is not drawn over the newer one.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import yaml

from conftest import sigint_default
from test_editor_browser import CHROMIUM, FLAGS, TOL, Page, _close
from test_watch import WAIT, _stop, _until


def _layers(folder: Path) -> list[dict]:
    return yaml.safe_load((folder / "front.yaml").read_text(encoding="utf-8"))["layers"]


@contextmanager
def _editor(tmp_path: Path, init_script: str | None = None):
    """A `pnp new` deck open in the editor: (folder, Page); ``init_script`` runs in the page first."""
    from browser import require_chromium
    require_chromium("drives the card editor in a browser")
    from playwright.sync_api import sync_playwright

    folder = tmp_path / "deck"
    subprocess.run([sys.executable, "-m", "pnp", "new", str(folder), "-q"], check=True)
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "edit", str(folder), "--port", "0", "-o",
                             str(tmp_path / "out"), "-f", "pdf"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, preexec_fn=sigint_default)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    try:
        _until(lambda: lines, "the editor's address", lines)
        url = re.match(r"editor: (http://127\.0\.0\.1:\d+/)", lines[0])
        assert url, lines[0]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            if init_script:
                page.add_init_script(init_script)
            page.goto(url.group(1))
            page.wait_for_selector('[data-layer="front.yaml:2"]', timeout=WAIT * 1000)
            ed = Page(page, tmp_path)
            ed.redrawn(0)
            yield folder, ed
            assert not errors, errors
            browser.close()
    finally:
        _stop(proc)


def _selected(ed: Page, n: int) -> bool:
    """Whether the list shows front.yaml's layer ``n`` (1-based) as the selected one, and only it."""
    return ed.page.eval_on_selector_all("#layer-list li.selected", "els => els.map(e => e.dataset.layer)") == \
        [f"front.yaml:{n}"]


def _holds(folder: Path, pred, what: str) -> list[dict]:
    """The template's layers once ``pred`` holds of them (a redraw the file watch started may land
    before the edit's own)."""
    _until(lambda: pred(_layers(folder)), what, [])
    return _layers(folder)


def _act(ed: Page, fn) -> None:
    before = ed.version()
    fn()
    ed.redrawn(before)


def _type(ed: Page, field: str, value: str) -> None:
    box = ed.page.locator(f'[data-field="{field}"] input').first
    _act(ed, lambda: (box.fill(value), box.press("Enter")))


def test_the_selection_follows_a_layer_the_list_moves(tmp_path):
    with _editor(tmp_path) as (folder, ed):
        page = ed.page
        names = [ly.get("text") for ly in _layers(folder)]
        n = len(names)
        top = n  # the last layer of front.yaml (the frame), 1-based as the page names it
        page.click(f'#layer-list [data-layer="front.yaml:{top}"] .what')
        # move it down twice with the list's button: it is now third from the top, and still selected
        for k in (1, 2):
            _act(ed, lambda: page.click(f'#layer-list [data-layer="front.yaml:{top - k + 1}"] button[data-op="down"]'))
            _until(lambda: _selected(ed, top - k), "the selection on the moved layer", [])
        assert f"front.yaml layer {top - 2} (rect)" in page.inner_text("#props")
        # a typed field goes to the moved layer (the frame), not to the text that took its place
        _type(ed, "stroke_width", "0.75")
        layers = _holds(folder, lambda ls: any(ly.get("stroke_width") == 0.75 for ly in ls), "the new stroke width")
        frame = layers[top - 3]
        assert frame["type"] == "rect" and frame["stroke_width"] == 0.75, layers
        assert [ly.get("text") for ly in layers if ly["type"] == "text"] == [t for t in names if t], layers
        # moving another layer past it: the selection stays on the frame
        _act(ed, lambda: page.click(f'#layer-list [data-layer="front.yaml:{top - 1}"] button[data-op="down"]'))
        _until(lambda: _selected(ed, top - 1), "the selection on the moved layer", [])
        # duplicating a layer under it pushes it up one place; the selection goes with it
        _act(ed, lambda: page.click('#layer-list [data-layer="front.yaml:1"] button[data-op="duplicate"]'))
        _until(lambda: _selected(ed, top), "the selection on the moved layer", [])
        _type(ed, "radius", "1.5")
        layers = _holds(folder, lambda ls: any(ly.get("radius") == 1.5 for ly in ls), "the new radius")
        assert layers[top - 1]["stroke_width"] == 0.75 and layers[top - 1]["radius"] == 1.5, layers


def test_shift_on_a_corner_keeps_the_proportions(tmp_path):
    with _editor(tmp_path) as (folder, ed):
        page = ed.page
        had = len(_layers(folder))
        _act(ed, lambda: page.click('[data-add="rect"]'))   # a new rectangle, no stroke: its box is its x, y, w, h
        added = had + 1
        start = _holds(folder, lambda ls: len(ls) == added, "the new rectangle")[-1]
        ratio = start["w"] / start["h"]
        assert not _close(ratio, 1, 0.05), start  # a square would keep its ratio by chance
        _, k, _ = ed.trim()
        m = page.mouse
        for handle, dx, dy in (("se", 8, -3), ("nw", -4, 9), ("ne", -6, -1)):
            before = ed.version()
            x, y = ed.centre(f'[data-handle="{handle}"]')
            m.move(x, y)
            page.keyboard.down("Shift")
            m.down()
            m.move(x + dx * k, y + dy * k, steps=10)
            m.up()
            page.keyboard.up("Shift")
            ed.redrawn(before)
            was = start
            got = _holds(folder, lambda ls: ls[added - 1] != was, f"the {handle} pull")[added - 1]
            assert _close(got["w"], got["h"] * ratio, TOL), (handle, got, ratio)
            start = got
        # without Shift the same pull changes the ratio
        before = ed.version()
        x, y = ed.centre('[data-handle="se"]')
        m.move(x, y)
        m.down()
        m.move(x + 8 * k, y - 3 * k, steps=10)
        m.up()
        ed.redrawn(before)
        was = start
        got = _holds(folder, lambda ls: ls[added - 1] != was, "the pull without Shift")[added - 1]
        assert not _close(got["w"], got["h"] * ratio, TOL), (got, ratio)


def test_the_list_shows_each_layers_text_whole(tmp_path):
    """Layers of a laid-out deck differ only in their {column}s ({Cout}, {Voix}, {Force}): the list's
    labels must show them, not clip them to a few letters."""
    with _editor(tmp_path) as (folder, ed):
        page = ed.page
        for n, text in ((2, "{name} ({copies})"), (3, "{text} {copies}")):
            page.click(f'#layer-list [data-layer="front.yaml:{n}"] .what')
            box = page.locator('[data-field="text"] textarea')
            _act(ed, lambda: (box.fill(text), box.blur()))
            _holds(folder, lambda ls: ls[n - 1]["text"] == text, f"layer {n}'s text {text!r}")
        for n, text in ((2, "{name} ({copies})"), (3, "{text} {copies}")):
            what = page.locator(f'#layer-list [data-layer="front.yaml:{n}"] .what')
            assert text in what.inner_text(), what.inner_text()
            clipped = what.evaluate("e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1")
            assert not clipped, (n, what.inner_text(), what.bounding_box())
            assert text in what.get_attribute("title")


# the page's fetch, its next ``window.slowCards`` answers from /api/card held back 1.5 s
SLOW_CARDS = """
window.slowCards = 0;
const pageFetch = window.fetch.bind(window);
window.fetch = async (...args) => {
  const answer = await pageFetch(...args);
  if (String(args[0]).includes("/api/card") && window.slowCards > 0) {
    window.slowCards -= 1;
    await new Promise((done) => setTimeout(done, 1500));
  }
  return answer;
};
"""


def test_a_late_answer_does_not_replace_a_newer_card(tmp_path):
    """Two rows stepped through quickly, the first row's card answered late: the page shows the row
    its label names (the late card is not drawn over the newer one)."""
    with _editor(tmp_path, init_script=SLOW_CARDS) as (folder, ed):
        page = ed.page
        rows = [ln.split(",")[0] for ln in (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[1:]]
        assert len(set(rows[:3])) == 3, rows
        page.evaluate("window.slowCards = 1")
        page.click("#next")        # row 2: its card held back
        page.wait_for_timeout(200)
        before = ed.version()
        page.click("#next")        # row 3: answered at once
        ed.redrawn(before)
        page.wait_for_timeout(2500)  # the held-back answer has arrived by now
        assert "row 3 of" in page.inner_text("#row-label")
        svg = page.text_content("#card svg")
        assert rows[2] in svg and rows[1] not in svg, (rows, svg[-160:])
