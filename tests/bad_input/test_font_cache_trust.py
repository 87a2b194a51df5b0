"""The font cache holds only what pnp can check, and a killed build leaves no copy.

* A cache entry of the right shape and name carrying another font's subset is not embedded: each entry
  is keyed by the hash of what it was made from (the font's bytes, face, characters) and its payload is
  checked against the font it claims to be (pnp.render.svgfont.subset_matches) before use.
* A declared font is never copied to the system temp folder (the checked bytes are registered as they
  are): a build killed with SIGKILL leaves nothing there, and what it left in OUT/.pnp (its staging) is
  removed by the next build.
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import subprocess
import sys
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree

from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont

from test_custom_fonts import _game, make_font, runner
from pnp.cli import app
from pnp.render import fontcache

SVG = "{http://www.w3.org/2000/svg}"
RULE = re.compile(r"font-family: '(pnp Title-[0-9a-f]+)';.*?base64,([A-Za-z0-9+/=]+)\)")


def _small(path: Path) -> Path:
    """make_font's font with every outline halved: another font with the same characters."""
    make_font(path, family="Pnp Small")
    font = TTFont(str(path))
    glyf = font["glyf"]
    for name in font.getGlyphOrder():
        glyph = glyf[name]
        if glyph.numberOfContours > 0:
            glyph.coordinates.scale((0.5, 0.5))
    font.save(str(path))
    return path


def _title_fonts(kit: Path) -> list[TTFont]:
    """The declared font's subsets embedded in the kit's SVG pages."""
    found = []
    for page in sorted((kit / "svg").glob("*.svg")):
        for style in ElementTree.parse(page).getroot().iter(f"{SVG}style"):
            found += [TTFont(BytesIO(base64.b64decode(data))) for _, data in RULE.findall(style.text or "")]
    return found


def _bounds(font: TTFont, ch: str) -> tuple:
    glyphs = font.getGlyphSet()
    pen = BoundsPen(glyphs)
    glyphs[font.getBestCmap()[ord(ch)]].draw(pen)
    return pen.bounds


def _title_entries(out: Path) -> dict[Path, str]:
    """The cache entries of the declared font's face: path -> CSS."""
    found = {}
    for entry in sorted((out / ".pnp" / "cache").glob("font-*.css")):
        css = entry.read_text(encoding="ascii")
        if "'pnp Title-" in css:
            found[entry] = css
    return found


def test_a_cache_entry_carrying_another_fonts_subset_is_not_embedded(tmp_path, monkeypatch):
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    out, other_out = tmp_path / "out", tmp_path / "other"
    spec = _game(tmp_path / "deck")
    other = _game(tmp_path / "small")
    _small(tmp_path / "small" / "fonts" / "title.ttf")
    for s, o in ((spec, out), (other, other_out)):
        r = runner.invoke(app, ["build", str(s), "--out", str(o), "-f", "svg"])
        assert r.exit_code == 0, r.output
    right = _bounds(_title_fonts(out / "deck")[0], "T")
    wrong = _bounds(_title_fonts(other_out / "deck")[0], "T")
    assert right == (50, 0, 550, 700) and wrong != right

    # forge: each entry of the right font keeps its key, family and shape, and carries the other font's
    # subset of the same characters, under the true hash of its new content
    theirs = {frozenset(TTFont(BytesIO(base64.b64decode(RULE.search(css)[2]))).getBestCmap()): RULE.search(css)[2]
              for css in _title_entries(other_out).values()}
    entries = _title_entries(out)
    assert entries
    forged = []
    for entry, css in entries.items():
        payload = RULE.search(css)[2]
        swap = theirs[frozenset(TTFont(BytesIO(base64.b64decode(payload))).getBestCmap())]
        text = css.replace(payload, swap).encode("ascii")
        entry.unlink()
        key = entry.name.split("-")[1]
        forged.append(entry.with_name(f"font-{key}-{hashlib.sha256(text).hexdigest()}.css"))
        forged[-1].write_bytes(text)
        assert fontcache.valid_entry(forged[-1].name, text) is not None  # the shape and hash check pass

    r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "svg"])  # a new build's font book: only the disk cache
    assert r.exit_code == 0, r.output
    embedded = _title_fonts(out / "deck")
    assert embedded and all(_bounds(f, "T") == right for f in embedded)
    assert not any(p.exists() for p in forged)        # the forged entries were removed, and made anew
    remade = [TTFont(BytesIO(base64.b64decode(RULE.search(css)[2]))) for css in _title_entries(out).values()]
    assert remade and all(_bounds(f, "T") == right for f in remade)


KILL = """
import os, signal, sys
from pathlib import Path
from pnp.pipeline.execute import execute_target
from pnp.pipeline.plan import Request, load_paper, plan
request = Request(load_paper("a4"), formats=("pdf", "svg"))
bp = plan([sys.argv[1]], request)
def die(done, total):
    os.kill(os.getpid(), signal.SIGKILL)   # in the middle of writing the kit
execute_target(bp.targets[0], request, Path(sys.argv[2]), progress=die)
"""


def test_a_build_killed_with_sigkill_leaves_no_copy_in_the_temp_folder(tmp_path):
    """The build is killed after its first page (fonts read, checked and drawn with): the private
    TMPDIR holds nothing of pnp's, and the next build removes the staging the dead one left in OUT/.pnp."""
    spec = _game(tmp_path / "deck")
    _game(tmp_path / "cff", cff=True)
    temp, out = tmp_path / "tmp", tmp_path / "out"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "PNP_CACHE_DIR": ""}
    for s in (spec, tmp_path / "cff" / "deck.yaml"):
        proc = subprocess.run([sys.executable, "-c", KILL, str(s), str(out)], env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
        assert sorted(p.name for p in temp.iterdir()) == [], "a killed build left files in the temp folder"
    left = sorted(p.name for p in (out / ".pnp").iterdir())
    assert any(".stage." in n for n in left), left    # what the killed builds left in OUT/.pnp
    proc = subprocess.run([sys.executable, "-m", "pnp", "build", str(spec), "--out", str(out), "-f", "pdf"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    after = sorted(p.name for p in (out / ".pnp").iterdir())
    assert not any(".stage." in n or ".link." in n for n in after), after
    assert sorted(p.name for p in temp.iterdir()) == []
