"""--format pod --service NAME: per-card files for print-on-demand services, read back.

Expected sizes come from the services' published figures (docs/print.md): 300 dpi, TGC and
DriveThruCards 1/8 in bleed and safe margin (825 x 1125 px for a 2.5 x 3.5 in card), MPC and
PrinterStudio 36 px (0.12 in) bleed and safe margin at 300 dpi (822 x 1122 px).
"""
from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from pnp.render.pod import SERVICES, parse_service
from pnp.core.errors import SpecError

from conftest import blue_kit

MM_PER_PT = 25.4 / 72
PUBLISHED_BLEED_PX = {"tgc": 37.5, "drivethru": 37.5, "mpc": 36, "printerstudio": 36}  # each side at 300 dpi


@pytest.mark.parametrize("name,size", [("tgc", (825, 1125)), ("drivethru", (825, 1125)), ("mpc", (822, 1122)),
                                       ("printerstudio", (822, 1122))])
def test_poker_card_template_sizes(name, size):
    assert SERVICES[name].pixels(63.5, 88.9) == size


def _build(tmp_path: Path, game: str, service: str):
    r = CliRunner().invoke(app, ["build", game, "--format", "pod", "--service", service, "--out", str(tmp_path)])
    return r


@pytest.fixture(scope="module")
def netmatch_tgc(tmp_path_factory):
    out = tmp_path_factory.mktemp("pod")
    r = _build(out, "netmatch", "tgc")
    assert r.exit_code == 0, r.output
    return out, r.output


def _manifest(out: Path, game: str) -> dict:
    m = json.loads((out / game / "manifest-a4.json").read_text())
    return {c["name"]: c for c in m["components"]}


def test_skipped_components_are_named(netmatch_tgc):
    out, output = netmatch_tgc
    comps = _manifest(out, "netmatch")
    for name, c in comps.items():
        written = list((out / "netmatch" / "pod" / "netmatch-a4").glob(f"netmatch-a4-tgc-{name.replace(' ', '-')}*"))
        if c["shape"] == "circle" or name == "board":
            assert not written and name in output, f"{name} is skipped and said so"
        else:
            assert written, f"{name} written"


def test_images_at_service_size_with_bleed(netmatch_tgc):
    out, _ = netmatch_tgc
    comps = _manifest(out, "netmatch")
    folder = out / "netmatch" / "pod" / "netmatch-a4"
    w, h = comps["word card"]["trim_mm"]
    bleed = PUBLISHED_BLEED_PX["tgc"]
    want = (round(w / 25.4 * 300 + 2 * bleed), round(h / 25.4 * 300 + 2 * bleed))
    faces = sorted(folder.glob("netmatch-a4-tgc-word-card-[0-9]*.png"))
    assert 1 <= len(faces) <= comps["word card"]["count"]
    for p in faces + [folder / "netmatch-a4-tgc-word-card-back.png"]:
        with Image.open(p) as im:
            assert im.mode == "RGB" and im.size == want, (p.name, im.size, want)
            assert round(im.info["dpi"][0]) == 300
    # the back's background reaches into the bleed: its corner pixel (in the bleed) is not paper white
    with Image.open(folder / "netmatch-a4-tgc-word-card-back.png") as back:
        assert sum(back.getpixel((1, 1))) < 600 and sum(back.getpixel((back.width - 2, back.height - 2))) < 600


def _mm_box(box) -> tuple[float, ...]:
    return tuple(float(v) * MM_PER_PT for v in (box.left, box.bottom, box.right, box.top))


def test_per_card_pdf_boxes(netmatch_tgc):
    out, _ = netmatch_tgc
    comps = _manifest(out, "netmatch")
    w, h = comps["word card"]["trim_mm"]
    b = 25.4 / 8
    reader = pypdf.PdfReader(out / "netmatch" / "pod" / "netmatch-a4" / "netmatch-a4-tgc-word-card.pdf")
    assert len(reader.pages) == comps["word card"]["count"] + 1  # one page per card, then the back
    for page in reader.pages:
        media, trim, bleed = _mm_box(page.mediabox), _mm_box(page.trimbox), _mm_box(page.bleedbox)
        assert media[2] - media[0] == pytest.approx(w + 2 * b, abs=0.05)
        assert media[3] - media[1] == pytest.approx(h + 2 * b, abs=0.05)
        assert trim == pytest.approx((b, b, b + w, b + h), abs=0.05)
        assert bleed == pytest.approx(media, abs=0.05)
    words = {frozenset(reader.pages[i].extract_text().split()) for i in range(3)}
    assert len(words) == 3, "one card per page"  # each page's words differ (its word; the template repeats)


def test_contact_sheet_draws_the_safe_area(netmatch_tgc):
    """Measured on the sheet: the blue trim line and the green safe line of the first thumbnail are
    (published safe margin / trim width) apart, relative to the trim's width."""
    out, _ = netmatch_tgc
    comps = _manifest(out, "netmatch")
    w, _ = comps["word card"]["trim_mm"]
    with Image.open(out / "netmatch" / "pod" / "netmatch-a4" / "netmatch-a4-tgc-word-card-contact.png") as im:
        rgb = im.convert("RGB")
        y = rgb.height // 20  # a row through the first row of thumbnails, below the top edges
        row = [rgb.getpixel((x, y)) for x in range(rgb.width // 4)]
    blue = [x for x, p in enumerate(row) if p == (0, 90, 255)]
    green = [x for x, p in enumerate(row) if p == (0, 170, 0)]
    assert len(blue) >= 2 and len(green) >= 2
    trim_px = blue[1] - blue[0]
    inset_px = green[0] - blue[0]
    assert inset_px / trim_px == pytest.approx((25.4 / 8) / w, abs=0.01)


def test_drivethru_pdf_is_back_then_front(tmp_path):
    """DriveThruCards takes one PDF per deck: card 1's back, card 1's front, card 2's back, ...
    (Nonads tiles have a printed back)."""
    r = _build(tmp_path, "nonads", "drivethru")
    assert r.exit_code == 0, r.output
    (comp,) = _manifest(tmp_path, "nonads").values()
    reader = pypdf.PdfReader(next((tmp_path / "nonads" / "pod" / "nonads-a4").glob("*.pdf")))
    pages = [p.get_contents().get_data() for p in reader.pages]
    assert len(pages) == 2 * comp["count"]
    assert len(set(pages[0::2])) == 1, "every odd page is the back"
    assert len(set(pages[1::2])) > 1 and pages[0] not in pages[1::2], "every even page a front"


def test_custom_service(tmp_path):
    r = _build(tmp_path, "nonads", "custom:150,2mm,1mm")
    assert r.exit_code == 0, r.output
    comps = _manifest(tmp_path, "nonads")
    w, h = next(iter(comps.values()))["trim_mm"]
    png = next(p for p in (tmp_path / "nonads" / "pod" / "nonads-a4").glob("*.png") if "contact" not in p.name)
    with Image.open(png) as im:
        assert im.size == (round((w + 4) / 25.4 * 150), round((h + 4) / 25.4 * 150))


def test_kit_without_cards_is_refused_and_nothing_written(tmp_path):
    r = _build(tmp_path, "nooks", "mpc")
    assert r.exit_code == 2
    for part in ("board", "wall stone"):
        assert part in r.output
    assert not (tmp_path / "nooks").exists()


@pytest.mark.parametrize("args", [["--format", "pod"], ["--format", "pod", "--service", "kinkos"],
                                  ["--format", "pod", "--service", "custom:9000,3mm,3mm"]])
def test_bad_service_is_refused(tmp_path, args):
    r = CliRunner().invoke(app, ["build", "nonads", *args, "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--service" in r.output and not (tmp_path / "nonads").exists()
    with pytest.raises(SpecError):
        parse_service(args[-1] if len(args) > 2 else "")


def _validate(service: str | None) -> dict:
    args = ["validate", "netmatch", "--json"] + (["--service", service] if service else [])
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output  # warnings do not fail validate
    return json.loads(r.output)["games"][0]["findings"]


def test_validate_warns_of_text_past_the_safe_area():
    """NetMatch's letter token back says 'write a letter' near its bottom edge, past TGC's 1/8 in safe
    line; its word cards keep every word inside. validate --service tgc reports the first as a
    warning naming the component, the side, the distance and the edge, and the second as a pass."""
    findings = _validate("tgc")
    safe = [f for f in findings if "safe area 3.17 mm inside the trim" in f["rule"]]
    warned = [f for f in safe if f["status"] == "warning"]
    assert warned and all(f["check"].startswith("letter token, back: text 'write a letter' reaches ") for f in warned)
    mm = float(warned[0]["check"].split(" reaches ")[1].split(" mm")[0])
    assert 0 < mm < 3.175 and "bottom edge" in warned[0]["check"]
    assert [f["status"] for f in safe if f["check"].startswith("word card")] == ["pass"]
    assert not any("safe area 3.17" in f["rule"] for f in _validate(None)), "only with --service"


def test_a_wider_safe_margin_warns_by_as_much_more():
    """With a custom service whose safe margin is 1 mm wider, the same text crosses it by 1 mm more."""
    def reach(service):
        f = next(f for f in _validate(service) if f["status"] == "warning" and "letter token" in f["check"])
        return float(f["check"].split(" reaches ")[1].split(" mm")[0])
    assert abs(reach("custom:300,3.175mm,4.175mm") - reach("tgc") - 1.0) < 0.01


def test_build_still_notes_the_safe_area(netmatch_tgc):
    _, output = netmatch_tgc
    flat = " ".join(output.split())
    assert "letter token: text crosses The Game Crafter's safe area" in flat and "mm past the safe area" in flat


def test_rounded_cards_are_cards(tmp_path):
    """Rounded corners are cut by the service: the playing-cards example's 54 cards each get a page."""
    spec = Path(__file__).resolve().parents[2] / "specs" / "playing-cards" / "playing-cards.yaml"
    r = _build(tmp_path, str(spec), "tgc")
    assert r.exit_code == 0, r.output
    pdf = next((tmp_path / "playing-cards" / "pod").rglob("*-card.pdf"))
    assert len(pypdf.PdfReader(pdf).pages) == 54 + 1  # the faces, then the back once


ART_FRONT = """layers:
  - {type: image, src: art/back.png, x: 0, y: 0, w: 100%, h: 100%, fit: stretch}
  - {type: image, src: art/badge.png, x: 1.5mm, y: 20mm, w: 10mm, h: 10mm}
  - {type: text, text: "{word}", x: 10, y: 40, w: 40, h: 10, size: 12}
"""


def test_validate_warns_of_a_picture_past_the_safe_area(tmp_path):
    """A badge picture 1.5 mm from the left trim crosses TGC's 3.175 mm safe line by 1.675 mm; the
    full-card background reaches the trim (art meant to bleed) and is not reported."""
    from test_custom_templates import _kit
    folder = _kit(tmp_path / "art", "title: Art\ncomponents:\n  - name: card\n    size: poker\n    data: cards.csv\n"
                  "    front: front.yaml\n", {"front.yaml": ART_FRONT, "cards.csv": "word\nTREE\n"})
    (folder / "art").mkdir()
    Image.new("RGB", (800, 1100), (30, 60, 120)).save(folder / "art" / "back.png")
    Image.new("RGB", (150, 150), (200, 30, 30)).save(folder / "art" / "badge.png")
    r = CliRunner().invoke(app, ["validate", str(folder), "--service", "tgc", "--json"])
    assert r.exit_code == 0, r.output
    safe = [f for f in json.loads(r.output)["games"][0]["findings"] if "safe area 3.17 mm" in f["rule"]]
    assert [f["status"] for f in safe] == ["warning"], safe
    check = safe[0]["check"]
    assert check.startswith("card #1, front: picture 'badge.png' reaches 1.67 mm past the safe area at the left edge")
    assert "back.png" not in check


SHAPES = Path(__file__).resolve().parents[2] / "specs" / "shapes"


def test_a_kit_of_shaped_parts_is_refused_naming_each_part_and_the_service(tmp_path):
    """Hexes, a polygon, a die's net, a standee and its base: no card of The Game Crafter's is cut to
    their outline, so none is written as a rectangle; the error names every part and the service."""
    r = _build(tmp_path, str(SHAPES), "tgc")
    assert r.exit_code == 2, r.output
    flat = " ".join(r.output.split())
    assert "Traceback" not in flat and not (tmp_path / "shapes").exists()
    for part, why in (("sea tile", "cut along its outline of 6 sides"), ("buoy", "cut along its outline of 5 sides"),
                      ("die", "a folded net, cut and scored along its outline"),
                      ("sailor", "a folded net, cut and scored along its outline"),
                      ("sailor base", "cut along its outline of 8 sides")):
        assert f"{part} ({why}: pnp writes only The Game Crafter's card files, and a card is cut as a rectangle)" \
            in flat, part


def test_a_hex_beside_cards_is_left_out_with_a_note(tmp_path):
    folder = blue_kit(tmp_path / "mixed", "Mixed",
                      "  - name: card\n    size: [63.5mm, 88.9mm]\n    copies: 3\n    front: face.yaml\n"
                      "  - name: hex\n    size: [40mm, 46.19mm]\n    shape: hex\n    copies: 4\n    front: face.yaml\n")
    r = _build(tmp_path / "out", str(folder), "drivethru")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert ("--format pod writes nothing for hex (cut along its outline of 6 sides: pnp writes only "
            "DriveThruCards's card files, and a card is cut as a rectangle)") in flat
    written = [p.name for p in (tmp_path / "out" / "mixed" / "pod").rglob("*") if p.is_file()]
    assert any("-card" in n for n in written) and not any("-hex" in n for n in written), written
