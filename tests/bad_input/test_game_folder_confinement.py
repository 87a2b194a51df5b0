"""Every file a game folder names stays inside it (pnp.inputs.gamefolder).

Each case is a small data-driven deck whose spec, data, template, rules text, icons or SVG art names
a file outside its folder (absolute path, ``..``, a symlink out, a data cell choosing the template),
a FIFO, or SVG art of an absurd size. Beside the folder lies a sentinel: files holding a unique
string (SENT, also a file name) and a unique colour (COLOUR). The build must exit 2 with one line
naming the file and field, write nothing to --out (a kit already there is unchanged), and print
neither the sentinel string nor the colour. SVG art that references a FIFO runs in a subprocess
(before the rule it waited on the FIFO forever).
"""
from __future__ import annotations

import base64
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image as PILImage
from typer.testing import CliRunner

from conftest import snapshot
from pnp.cli import app
from test_custom_fonts import make_font

runner = CliRunner()
SENT = "ZQXSENTINEL4417"
COLOUR = (19, 87, 155)
HEX = "#13579b"
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
FRONT = "layers:\n  - {type: rect, fill: '#ffffff'}\n  - {type: text, text: '{name}', size: 12}\n"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
       'viewBox="0 0 20 20" width="{w}" height="{h}">{body}</svg>')


def _svg(body: str = '<rect width="20" height="20" fill="#00a0a0"/>', w: str = "20mm", h: str = "20mm") -> str:
    return SVG.replace("{w}", w).replace("{h}", h).replace("{body}", body)


def _outside(root: Path) -> Path:
    """The sentinel folder beside the game: a table, template, rules text, picture, SVG, font and an
    icons folder, each holding SENT or COLOUR."""
    out = root / "outside"
    (out / "icons").mkdir(parents=True)
    (out / "evil.csv").write_text(f"{SENT}\n{SENT}\n", encoding="utf-8")
    (out / "evil.yaml").write_text(f"layers:\n  - {{type: rect, fill: '{HEX}'}}\n  - {{type: text, text: {SENT}}}\n",
                                   encoding="utf-8")
    (out / "evil.md").write_text(RULES.replace("# Deck", f"# {SENT} " + "x" * 200), encoding="utf-8")
    PILImage.new("RGB", (200, 200), COLOUR).save(out / "evil.png")
    (out / "evil.svg").write_text(_svg(f'<g id="s"><rect width="20" height="20" fill="{HEX}"/>'
                                       f'<text x="1" y="10">{SENT}</text></g>'), encoding="utf-8")
    (out / "icons" / f"{SENT}.svg").write_text(_svg(), encoding="utf-8")
    make_font(out / "evil.ttf", family=SENT)
    return out


def _deck(root: Path, spec_extra: str = "", front: str = "front.yaml", back: str | None = None,
          csv: str = "name\nAlpha\n", template: str = FRONT) -> Path:
    folder = root / "deck"
    (folder / "icons").mkdir(parents=True)
    (folder / "art").mkdir()
    (folder / "icons" / "ok.svg").write_text(_svg(), encoding="utf-8")
    (folder / "front.yaml").write_text(template, encoding="utf-8")
    (folder / "deck.csv").write_text(csv, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    spec = (f"title: Deck\n{spec_extra}components:\n  - name: card\n    size: poker\n    data: deck.csv\n"
            f"    front: '{front}'\n" + (f"    back: '{back}'\n" if back else ""))
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    return folder


def _picture(src: str) -> str:
    return FRONT + f"  - {{type: image, src: '{src}', x: 4, y: 4, w: 40, h: 40}}\n"


def _big_png_url() -> str:
    buf = io.BytesIO()
    PILImage.new("L", (6500, 6500), 255).save(buf, "PNG")  # 42 MP, a few KB
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _case(name: str, root: Path) -> tuple[Path, str]:
    """Make case ``name`` under ``root``: (the game folder, what the message must name)."""
    out = _outside(root)
    if name == "data absolute":
        return _deck(root), "field components.0.data"
    if name == "data ..":
        return _deck(root), "field components.0.data"
    if name == "data symlink out":
        folder = _deck(root)
        (folder / "link.csv").symlink_to(out / "evil.csv")
        return folder, "field components.0.data"
    if name == "rules absolute":
        return _deck(root, f"rules: {out / 'evil.md'}\n"), "line 2, field rules"
    if name == "rules ..":
        return _deck(root, "rules: ../outside/evil.md\n"), "line 2, field rules"
    if name == "front absolute":
        return _deck(root, front=str(out / "evil.yaml")), "field components.0.front"
    if name == "front symlink out":
        folder = _deck(root, front="f2.yaml")
        (folder / "f2.yaml").symlink_to(out / "evil.yaml")
        return folder, "field components.0.front"
    if name == "back ..":
        return _deck(root, back="../outside/evil.yaml"), "field components.0.back"
    if name == "include ..":
        return _deck(root, template="include: [../outside/evil.yaml]\n" + FRONT), "front.yaml, line 1, field include"
    if name == "include absolute":
        return _deck(root, template=f"include: ['{out / 'evil.yaml'}']\n" + FRONT), "front.yaml, line 1, field include"
    if name == "template from a data cell":
        return _deck(root, front="{tpl}", csv="name,tpl\nAlpha,../outside/evil.yaml\n"), "deck.csv, line 2, field front"
    if name == "data cell naming a shared template":
        return _deck(root, front="{tpl}", csv="name,tpl\nAlpha,shared/card-back.yaml\n"), "deck.csv, line 2, field front"
    if name == "fonts absolute":
        return _deck(root, f"fonts: {{Body: '{out / 'evil.ttf'}'}}\n"), "line 2, field fonts.Body"
    if name == "fonts ..":
        return _deck(root, "fonts: {Body: ../outside/evil.ttf}\n"), "line 2, field fonts.Body"
    if name == "icons folder symlink out":
        folder = _deck(root, "icons: linked\n", template=FRONT.replace("'{name}'", "'{name} :nope:'"))
        (folder / "linked").symlink_to(out / "icons", target_is_directory=True)
        return folder, "field text"
    if name == "icon svg <use> outside":
        folder = _deck(root, template=FRONT.replace("'{name}'", "'{name} :star:'"))
        (folder / "icons" / "star.svg").write_text(_svg('<use xlink:href="../../outside/evil.svg#s"/>'))
        return folder, "star.svg"
    if name == "rules-text icon, folder symlink out":
        folder = _deck(root, "icons: linked\n")
        (folder / "linked").symlink_to(out / "icons", target_is_directory=True)
        (folder / "rules.md").write_text(RULES.replace("Read.", "Read :nope: aloud."), encoding="utf-8")
        return folder, "rules.md, line 11, field rules"
    if name == "rules-text icon svg <image> outside":
        folder = _deck(root)
        (folder / "icons" / "star.svg").write_text(_svg('<image xlink:href="../../outside/evil.png" width="20" '
                                                        'height="20"/>'))
        (folder / "rules.md").write_text(RULES.replace("Read.", "Read :star: aloud."), encoding="utf-8")
        return folder, "star.svg"
    if name == "picture svg <image> outside png":
        folder = _deck(root, template=_picture("art/a.svg"))
        (folder / "art" / "a.svg").write_text(_svg('<image href="../../outside/evil.png" width="20" height="20"/>'))
        return folder, "field src"
    if name == "picture svg <use> outside svg":
        folder = _deck(root, template=_picture("art/a.svg"))
        (folder / "art" / "a.svg").write_text(_svg('<use xlink:href="../../outside/evil.svg#s"/>'))
        return folder, "field src"
    if name == "picture svg <image> symlink out":
        folder = _deck(root, template=_picture("art/a.svg"))
        (folder / "art" / "pic.png").symlink_to(out / "evil.png")
        (folder / "art" / "a.svg").write_text(_svg('<image href="pic.png" width="20" height="20"/>'))
        return folder, "field src"
    if name == "picture svg data: png over 40 MP":
        folder = _deck(root, template=_picture("art/a.svg"))
        (folder / "art" / "a.svg").write_text(_svg(f'<image href="{_big_png_url()}" width="20" height="20"/>'))
        return folder, "field src"
    if name in ("picture svg width 1e308", "picture svg width 1e400"):
        folder = _deck(root, template=_picture("art/a.svg"))
        big = name.rsplit(" ", 1)[1]
        (folder / "art" / "a.svg").write_text(SVG.replace("{w}", big).replace("{h}", "20").replace(
            ' viewBox="0 0 20 20"', "").replace("{body}", '<rect width="20" height="20"/>'))
        return folder, "field src"
    raise AssertionError(name)


CASES = ["data absolute", "data ..", "data symlink out", "rules absolute", "rules ..", "front absolute",
         "front symlink out", "back ..", "include ..", "include absolute", "template from a data cell",
         "data cell naming a shared template", "fonts absolute", "fonts ..", "icons folder symlink out",
         "icon svg <use> outside", "rules-text icon, folder symlink out", "rules-text icon svg <image> outside",
         "picture svg <image> outside png", "picture svg <use> outside svg", "picture svg <image> symlink out",
         "picture svg data: png over 40 MP", "picture svg width 1e308", "picture svg width 1e400"]


def _fix_data(folder: Path, name: str, out: Path) -> None:
    """Point the spec's data: at the sentinel table for the data cases."""
    spec = folder / "deck.yaml"
    value = {"data absolute": str(out / "evil.csv"), "data ..": "../outside/evil.csv",
             "data symlink out": "link.csv"}.get(name)
    if value is not None:
        spec.write_text(spec.read_text(encoding="utf-8").replace("data: deck.csv", f"data: '{value}'"),
                        encoding="utf-8")


def _refused(output: str, out: Path, before: dict, needle: str) -> None:
    text = output.strip()
    assert "Traceback" not in text, text
    assert len(text.splitlines()) == 1, text
    assert needle in text, (needle, text)
    assert SENT not in text and HEX not in text.lower(), text
    assert snapshot(out) == before


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding a good kit named deck, to prove a refused build changes nothing."""
    root = tmp_path_factory.mktemp("good")
    folder = _deck(root)
    r = runner.invoke(app, ["build", str(folder), "--out", str(root / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return root / "out"


@pytest.mark.parametrize("name", CASES)
def test_a_file_outside_the_game_folder_is_refused(existing, tmp_path, name):
    folder, needle = _case(name, tmp_path)
    _fix_data(folder, name, tmp_path / "outside")
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, str(folder)] + (["--out", str(existing), "-f", "pdf"] if command == "build" else [])
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (name, command, r.output)
        _refused(r.output, existing, before, needle)


def test_the_refusal_says_the_rule_and_hides_where_a_link_leads(existing, tmp_path):
    folder, _ = _case("data symlink out", tmp_path)
    _fix_data(folder, "data symlink out", tmp_path / "outside")
    r = runner.invoke(app, ["build", str(folder), "--out", str(existing)])
    assert r.exit_code == 2
    assert f"must name a file inside the game folder {folder}" in " ".join(r.output.split())
    assert "outside" not in r.output.replace("outside the folder", "")  # the link's target is not shown


def test_svg_art_naming_a_fifo_is_refused_without_waiting(existing, tmp_path):
    """svglib opened a file an <image> names without asking what it is: a FIFO nobody writes to
    blocked the build for ever. The rule refuses it before svglib reads the SVG."""
    folder = _deck(tmp_path, template=_picture("art/a.svg"))
    os.mkfifo(folder / "art" / "pipe.png")
    (folder / "art" / "a.svg").write_text(_svg('<image href="pipe.png" width="20" height="20"/>'))
    before = snapshot(existing)
    r = subprocess.run([sys.executable, "-m", "pnp", "build", str(folder), "--out", str(existing), "-f", "pdf"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    _refused(r.stderr, existing, before, "field src")
    assert "not a regular file: it is a FIFO" in " ".join(r.stderr.split())


def test_svg_art_referencing_a_file_inside_the_folder_still_draws(tmp_path):
    """The rule confines references, it does not forbid them: an <image> naming a PNG beside the SVG
    draws, and its colour is in the PDF's pixels."""
    import pypdfium2
    folder = _deck(tmp_path, template=_picture("art/a.svg"))
    PILImage.new("RGB", (200, 200), (200, 30, 40)).save(folder / "art" / "pic.png")
    (folder / "art" / "a.svg").write_text(_svg('<image href="pic.png" width="20" height="20"/>'))
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(folder), "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    pdf = next((out / "deck").glob("*.pdf"))
    doc = pypdfium2.PdfDocument(str(pdf))
    colours = set()
    for i in range(len(doc)):
        im = doc[i].render(scale=0.5).to_pil().convert("RGB")
        colours |= {c for _, c in im.getcolors(im.width * im.height)}
    assert any(abs(r - 200) < 8 and abs(g - 30) < 8 and abs(b - 40) < 8 for r, g, b in colours)


def test_a_data_driven_game_without_rules_is_not_given_pnps_own(existing, tmp_path):
    """No `rules:` and no rules.md beside the spec: the default rules.md is looked for in the game
    folder only (never in pnp's own specs folder, where a file of that name would print), and the
    message says how to add one."""
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "deck.yaml").write_text("title: Deck\ncomponents:\n  - {name: card, size: poker, data: cards.csv, "
                                      "front: front.yaml}\n", encoding="utf-8")
    (folder / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 10, "
                                       "size: 10}\n", encoding="utf-8")
    (folder / "cards.csv").write_text("name\nA\n", encoding="utf-8")
    before = snapshot(existing)
    r = CliRunner().invoke(app, ["build", str(folder), "--out", str(existing)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2 and "rules.md" in flat and "rules file does not exist" in flat, flat
    assert str(folder / "rules.md") in flat and "/specs/" not in flat, flat
    assert "pnp new" in flat
    assert snapshot(existing) == before


# --- a file checked, then swapped for a link before it is read --------------------------------------

def test_a_checked_file_swapped_for_a_link_is_not_followed(tmp_path):
    """inside() returns the file's real path; the reader opens each part of it with O_NOFOLLOW, so a
    file (or a folder on its way) replaced by a link after the check is refused, never followed."""
    from pnp.inputs.gamefolder import inside
    from pnp.inputs.safefile import NotRegular, read_regular
    outside = _outside(tmp_path)
    game = tmp_path / "game"
    (game / "data").mkdir(parents=True)
    (game / "data" / "rows.csv").write_text("name\nA\n", encoding="utf-8")
    checked = inside("data/rows.csv", game)
    assert read_regular(checked, 1000) == b"name\nA\n"
    (game / "data" / "rows.csv").unlink()
    os.symlink(outside / "evil.csv", game / "data" / "rows.csv")      # the file itself
    with pytest.raises(NotRegular):
        read_regular(checked, 1000)
    (game / "data" / "rows.csv").unlink()
    (game / "data").rmdir()
    os.symlink(outside, game / "data")                               # a folder on its way
    (outside / "rows.csv").write_text(f"name\n{SENT}\n", encoding="utf-8")
    with pytest.raises(NotRegular):
        read_regular(checked, 1000)


def test_a_link_inside_the_folder_is_read_through_its_real_path(tmp_path):
    from pnp.inputs.gamefolder import inside
    from pnp.inputs.safefile import read_regular
    game = tmp_path / "game"
    (game / "art").mkdir(parents=True)
    (game / "art" / "real.csv").write_text("name\nB\n", encoding="utf-8")
    os.symlink("art/real.csv", game / "rows.csv")
    checked = inside("rows.csv", game)
    assert checked == (game / "art" / "real.csv").resolve()
    assert read_regular(checked, 1000) == b"name\nB\n"


def test_a_picture_changed_after_its_check_is_not_drawn(tmp_path):
    """What is drawn is what was checked: a picture replaced between the check and the drawing is
    refused by its sha256, so the outside colour never reaches the page."""
    from pnp.inputs.images import picture_bytes, read_image
    from pnp.inputs.gamefolder import inside
    from pnp.core.errors import SpecError
    outside = _outside(tmp_path)
    game = tmp_path / "game"
    game.mkdir()
    PILImage.new("RGB", (20, 20), (200, 10, 10)).save(game / "art.png")
    facts = read_image(inside("art.png", game), root=game)
    assert picture_bytes(facts) == (game / "art.png").read_bytes()
    (game / "art.png").write_bytes((outside / "evil.png").read_bytes())
    with pytest.raises(SpecError) as err:
        picture_bytes(facts)
    assert "changed" in str(err.value) and SENT not in str(err.value)


def test_a_checked_picture_swapped_for_a_link_is_not_followed(tmp_path):
    """The checked picture keeps its link-free path: read again for drawing, a link put in its place
    is refused even when it leads to the very same bytes (the sha256 alone would pass them)."""
    from pnp.inputs.images import picture_bytes, read_image
    from pnp.inputs.gamefolder import inside
    from pnp.core.errors import SpecError
    outside = _outside(tmp_path)
    game = tmp_path / "game"
    game.mkdir()
    PILImage.new("RGB", (20, 20), (10, 200, 10)).save(game / "art.png")
    facts = read_image(inside("art.png", game), root=game)
    (outside / "same.png").write_bytes((game / "art.png").read_bytes())
    (game / "art.png").unlink()
    os.symlink(outside / "same.png", game / "art.png")
    with pytest.raises(SpecError) as err:
        picture_bytes(facts)
    assert "cannot read the image" in str(err.value) and SENT not in str(err.value)
