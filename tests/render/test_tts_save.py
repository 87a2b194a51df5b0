"""--format tts: a Tabletop Simulator saved object (docs/print.md, "Tabletop Simulator"), read back.

The JSON is checked against the save-file format as written down in docs/print.md (SaveState with
ObjectStates; DeckCustom with CustomDeck, DeckIDs and ContainedObjects of Cards; Custom_Tile boards
and tiles, in a Bag), every image URL is opened, and every deck sheet's pixel grid is checked
against its NumWidth x NumHeight and the component's trim size from the kit's manifest. Each card's
Nickname is its title (the words of the word list the test gives, a data-driven deck's name column),
and every object's size in TTS, its Transform scale times the size TTS gives its kind at scale 1,
is in proportion to its trim size from the manifest.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from pnp.render.tts_save import check_base_url, sheet_grid
from pnp.core.errors import SpecError

from conftest import blue_kit

SAVE_KEYS = {"SaveName": str, "GameMode": str, "Date": str, "Table": str, "Sky": str, "Note": str, "Rules": str,
             "LuaScript": str, "LuaScriptState": str, "XmlUI": str, "TabStates": dict, "ObjectStates": list}
OBJECT_KEYS = {"GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str,
               "ColorDiffuse": dict, "Locked": bool, "Grid": bool}
TRANSFORM_KEYS = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
DECK_KEYS = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
             "UniqueBack": bool, "Type": int}
NAMES = {"DeckCustom", "Card", "Custom_Board", "Custom_Tile", "Custom_Token", "Bag"}


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    r = CliRunner().invoke(app, ["build", "nooks", "nonaga", "netmatch", "--format", "tts", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _typed(obj: dict, keys: dict, where: str) -> None:
    for key, kind in keys.items():
        assert key in obj, f"{where}: {key} missing"
        assert isinstance(obj[key], kind) and not (kind is int and isinstance(obj[key], bool)), \
            f"{where}: {key} is {obj[key]!r}, not {kind.__name__}"


def _check_object(o: dict, where: str) -> None:
    _typed(o, OBJECT_KEYS, where)
    assert o["Name"] in NAMES, f"{where}: unknown object name {o['Name']}"
    assert len(o["GUID"]) == 6 and int(o["GUID"], 16) >= 0
    for k in TRANSFORM_KEYS:
        assert isinstance(o["Transform"][k], float), f"{where}: Transform.{k}"
    for child in o.get("ContainedObjects", []):
        _check_object(child, f"{where} > {child.get('Nickname')}")


def _image(url: str) -> Image.Image:
    parsed = urlparse(url)
    assert parsed.scheme == "file" and parsed.netloc == "", url
    path = Path(unquote(parsed.path))
    assert path.is_absolute() and path.is_file(), url
    im = Image.open(path)
    assert im.mode == "RGB" and max(im.size) <= 4096, (url, im.mode, im.size)
    return im


def _load(out: Path, game: str):
    save = json.loads((out / game / "tts" / f"{game}-a4" / f"{game}-a4.json").read_text(encoding="utf-8"))
    manifest = json.loads((out / game / "manifest-a4.json").read_text(encoding="utf-8"))
    return save, {c["name"]: c for c in manifest["components"]}


@pytest.mark.parametrize("game", ["nooks", "nonaga", "netmatch"])
def test_save_file_format_and_every_component(kits, game):
    save, comps = _load(kits, game)
    _typed(save, SAVE_KEYS, "SaveState")
    seen = {}
    for o in save["ObjectStates"]:
        _check_object(o, o["Nickname"])
        name = o["Nickname"].split(" \u00d7")[0]
        seen[name] = o
    assert set(seen) == set(comps), "every component of the kit is on the table"
    for name, o in seen.items():
        comp = comps[name]
        w, h = comp["trim_mm"]
        if o["Name"] == "DeckCustom":
            assert comp["shape"] == "rect"
            _check_deck(o, comp)
        else:
            tiles = o["ContainedObjects"] if o["Name"] == "Bag" else [o]
            assert len(tiles) == comp["count"]
            for t in tiles:
                assert t["Name"] == "Custom_Tile"
                tile = t["CustomImage"]["CustomTile"]
                assert tile["Type"] == (2 if comp["shape"] == "circle" else 0)
                for key in ("ImageURL", "ImageSecondaryURL"):
                    im = _image(t["CustomImage"][key])
                    assert im.width / im.height == pytest.approx(w / h, rel=0.01)


def _check_deck(o: dict, comp: dict) -> None:
    w, h = comp["trim_mm"]
    ids = [c["CardID"] for c in o["ContainedObjects"]]
    assert o["DeckIDs"] == ids and len(ids) == comp["count"] and len(set(ids)) == len(ids)
    for key, deck in o["CustomDeck"].items():
        _typed(deck, DECK_KEYS, f"CustomDeck[{key}]")
        assert deck["BackIsHidden"] is True and deck["UniqueBack"] is False
        assert 1 <= deck["NumWidth"] <= 10 and 1 <= deck["NumHeight"] <= 7
        slots = deck["NumWidth"] * deck["NumHeight"]
        on_sheet = [i % 100 for i in ids if i // 100 == int(key)]
        # BackIsHidden: the back is the hidden face, so every one of the 70 slots may hold a card
        assert on_sheet == list(range(len(on_sheet))) and len(on_sheet) <= slots
        face = _image(deck["FaceURL"])
        assert face.width % deck["NumWidth"] == 0 and face.height % deck["NumHeight"] == 0
        cw, ch = face.width // deck["NumWidth"], face.height // deck["NumHeight"]
        assert cw / ch == pytest.approx(w / h, rel=0.01), "each grid cell is one card at its trim aspect"
        back = _image(deck["BackURL"])
        assert back.width / back.height == pytest.approx(w / h, rel=0.01)
        # each card's cell on the sheet is drawn (not the white of an empty cell)
        for slot in on_sheet:
            x, y = (slot % deck["NumWidth"]) * cw, (slot // deck["NumWidth"]) * ch
            lo, hi = face.crop((x, y, x + cw, y + ch)).convert("L").getextrema()
            assert lo < 128, f"sheet {key} slot {slot} is empty"
    for card in o["ContainedObjects"]:
        key = str(card["CardID"] // 100)
        assert card["Name"] == "Card" and card["CustomDeck"] == {key: o["CustomDeck"][key]}


def test_full_sheet_holds_seventy_cards(kits):
    save, comps = _load(kits, "netmatch")
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom" and o["Nickname"] == "word card")
    first = deck["CustomDeck"]["1"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert sum(1 for c in deck["DeckIDs"] if c // 100 == 1) == 70
    assert sheet_grid(70) == (10, 7) and sheet_grid(5) == (5, 2)


def test_hosted_images(tmp_path):
    r = CliRunner().invoke(app, ["build", "nonads", "--format", "tts", "--out", str(tmp_path),
                                 "--tts-url", "https://example.org/kits/nonads/"])
    assert r.exit_code == 0, r.output
    save = json.loads((tmp_path / "nonads" / "tts" / "nonads-a4" / "nonads-a4.json").read_text())
    deck = save["ObjectStates"][0]["CustomDeck"]["1"]
    for url in (deck["FaceURL"], deck["BackURL"]):
        assert url.startswith("https://example.org/kits/nonads/nonads-a4-")
        assert (tmp_path / "nonads" / "tts" / "nonads-a4" / url.rsplit("/", 1)[1]).is_file()


@pytest.mark.parametrize("bad", ["ftp://x/y", "https://exa mple.org/", "images/", "https://x/\x07"])
def test_bad_base_url_is_refused(tmp_path, bad):
    with pytest.raises(SpecError):
        check_base_url(bad)
    r = CliRunner().invoke(app, ["build", "nonads", "--format", "tts", "--out", str(tmp_path), "--tts-url", bad])
    assert r.exit_code == 2 and "--tts-url" in r.output and not (tmp_path / "nonads").exists()


# The height of an object at Transform scale 1 in TTS, as measured by F. Liu's tts-tools
# (github.com/frankieliu/tts-tools, docs/TTS_SCALING_SOLVED.md: cards "Physical Height = 3.500" x
# Transform.scaleZ", tiles/boards/tokens "Physical Height = 1.318" x Transform.scaleZ"). TTS's own
# knowledge base documents no size for custom objects. Written here from the source, not imported.
NATIVE_IN = {"Card": 3.5, "Custom_Tile": 1.318}


def _physical(save: dict) -> dict[str, list[float]]:
    """Component name -> the height in inches TTS gives each of its objects (scale x native size)."""
    out: dict[str, list[float]] = {}
    for o in save["ObjectStates"]:
        name = o["Nickname"].split(" \u00d7")[0]
        parts = o["ContainedObjects"] if o["Name"] in ("DeckCustom", "Bag") else [o]
        for p in parts:
            t = p["Transform"]
            assert t["scaleX"] == t["scaleZ"], f"{name}: scaled alike in x and z"
            out.setdefault(name, []).append(t["scaleZ"] * NATIVE_IN[p["Name"]])
        if o["Name"] == "DeckCustom":
            assert o["Transform"]["scaleZ"] == parts[0]["Transform"]["scaleZ"], f"{name}: the deck as its cards"
    return out


@pytest.mark.parametrize("game", ["nooks", "nonaga", "netmatch"])
def test_objects_keep_their_relative_size(kits, game):
    save, comps = _load(kits, game)
    sizes = _physical(save)
    assert set(sizes) == set(comps) and len(sizes) >= 2
    per_mm = {}
    for name, heights in sizes.items():
        assert max(heights) == min(heights), f"{name}: every part of one component at one scale"
        per_mm[name] = heights[0] / comps[name]["trim_mm"][1]
    ref = next(iter(per_mm.values()))
    for name, ratio in per_mm.items():
        # the ratio of two objects' sizes in TTS is the ratio of their trim sizes in mm, within 2 %
        assert ratio == pytest.approx(ref, rel=0.02), (name, per_mm)


def test_netmatch_card_nicknames_are_the_words(tmp_path):
    words = ["LAMP", "DUCK", "FERN", "HAZE", "JOLT", "KNOT", "MILK", "PLUM"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["build", "netmatch", "--words", str(tmp_path / "w.txt"), "--format", "tts",
                                 "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    save, _ = _load(tmp_path / "out", "netmatch")
    deck = next(o for o in save["ObjectStates"] if o["Nickname"] == "word card")
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == words
    tokens = next(o for o in save["ObjectStates"] if o["Nickname"] == "letter token")
    names = [c["Nickname"] for c in tokens["ContainedObjects"]]
    assert names == [f"letter token {n}" for n in range(1, len(names) + 1)], "untitled parts are numbered"


RULES = "# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n" \
        "## End and winner\nNobody.\n\n## Fine points\n- None.\n"


@pytest.mark.parametrize("header, column", [("id,Name,text", 1), ("id,TITLE,text", 1), ("id,word,text", 0)])
def test_data_driven_nicknames_are_the_name_column(tmp_path, header, column):
    rows = [["7", "Fire Drake", "burns"], ["8", "Ice Wyrm", "freezes"], ["9", "Stone Golem", "stands"]]
    (tmp_path / "cards.csv").write_text(header + "\n" + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    (tmp_path / "front.yaml").write_text('layers:\n  - {type: rect, fill: "#ffffff"}\n'
                                         '  - {type: text, text: "{text}", x: 4, y: 10, w: 36, h: 10, size: 10}\n',
                                         encoding="utf-8")
    (tmp_path / "deck.yaml").write_text("title: Deck\ndesigner: A. Tester\ncomponents:\n"
                                        "  - {name: creature, size: mini-euro, copies: 2, data: cards.csv, "
                                        "front: front.yaml}\n", encoding="utf-8")
    (tmp_path / "rules.md").write_text(RULES, encoding="utf-8")
    r = CliRunner().invoke(app, ["build", str(tmp_path / "deck.yaml"), "--format", "tts", "--out",
                                 str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    save, _ = _load(tmp_path / "out", "deck")
    deck = save["ObjectStates"][0]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == [r[column] for r in rows for _ in range(2)]


SHAPES = Path(__file__).resolve().parents[2] / "specs" / "shapes"


def _cut_outlines(kit: Path) -> list[list[tuple[float, float]]]:
    """Every polygon of the cutter SVG pages (layer "cut"), in mm on the page."""
    import xml.etree.ElementTree as ET
    svg = "{http://www.w3.org/2000/svg}"
    return [[tuple(map(float, p.split(","))) for p in el.get("points").split()]
            for f in sorted((kit / "cut").glob("*-cut.svg")) for g in ET.parse(f).getroot().iter(svg + "g")
            if g.get("id") == "layer-cut" for el in g if el.tag == svg + "polygon"]


def _alpha(url: str) -> Image.Image:
    path = Path(unquote(urlparse(url).path))
    im = Image.open(path)
    assert im.mode == "RGBA" and max(im.size) <= 4096, (url, im.mode, im.size)
    return im.getchannel("A")


def _inside(outline, x: float, y: float) -> bool:
    """(x, y) mm lies inside the closed ``outline`` (even-odd ray casting)."""
    inside = False
    for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _check_cut_out(alpha: Image.Image, outline, w: float, h: float, where: str) -> None:
    """Opaque 0.7 mm inside every edge of ``outline`` (mm in the part), transparent 0.7 mm outside it
    (where that point is outside the outline, not across a narrow notch),
    and as many opaque pixels as the outline's area says."""
    px = alpha.width / w
    area = abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(outline, outline[1:] + outline[:1]))) / 2
    opaque = sum(alpha.histogram()[128:]) / (alpha.width * alpha.height)
    assert opaque == pytest.approx(area / (w * h), abs=0.015), where
    sign = 1 if sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(outline, outline[1:] + outline[:1])) > 0 else -1
    checked = 0
    for a, b in zip(outline, outline[1:] + outline[:1]):
        length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
        if length < 4:
            continue
        nx, ny = sign * (b[1] - a[1]) / length, -sign * (b[0] - a[0]) / length  # outward
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        for d, want in ((-0.7, 255), (0.7, 0)):
            x, y = (mx + d * nx) * px, (my + d * ny) * px
            if _inside(outline, mx + d * nx, my + d * ny) != (want == 255):
                continue  # across a notch narrower than 0.7 mm (a standee's slot): the other side's card
            if 0 <= x < alpha.width and 0 <= y < alpha.height:
                assert abs(alpha.getpixel((int(x), int(y))) - want) <= 5, (where, a, b, d)
                checked += 1
    assert checked >= 3, where


def test_shaped_parts_are_tiles_cut_out_to_their_outline(tmp_path):
    r = CliRunner().invoke(app, ["build", str(SHAPES), "--format", "tts,cut-svg", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    save, comps = _load(tmp_path, "shapes")
    outlines = {}  # trim size -> the outline of a part of that size, from the cutter SVG
    for pts in _cut_outlines(tmp_path / "shapes"):
        x0, y0 = min(x for x, _ in pts), min(y for _, y in pts)
        size = (round(max(x for x, _ in pts) - x0, 1), round(max(y for _, y in pts) - y0, 1))
        outlines.setdefault(size, [(x - x0, y - y0) for x, y in pts])
    shaped = [c for c in comps.values() if c["shape"] == "polygon"]
    assert len(shaped) >= 4
    for o in save["ObjectStates"]:
        _check_object(o, o["Nickname"])
        comp = comps[o["Nickname"].split(" \u00d7")[0]]
        tiles = o["ContainedObjects"] if o["Name"] == "Bag" else [o]
        assert o["Name"] != "DeckCustom" or comp["shape"] == "rect", f"{comp['name']}: a shaped part is no card"
        if comp["shape"] != "polygon":
            continue
        w, h = comp["trim_mm"]
        outline = outlines[(round(w, 1), round(h, 1))]
        assert len(tiles) == comp["count"]
        for t in tiles:
            tile = t["CustomImage"]["CustomTile"]
            assert t["Name"] == "Custom_Tile" and tile["Type"] == 0 and tile["Stretch"] is False
            alpha = _alpha(t["CustomImage"]["ImageURL"])
            assert alpha.width / alpha.height == pytest.approx(w / h, rel=0.01)
            _check_cut_out(alpha, outline, w, h, comp["name"])


def test_a_shaped_back_is_cut_out_to_its_outline_turned_over(tmp_path):
    folder = blue_kit(tmp_path / "wedge", "Wedge",
                      "  - name: wedge\n    size: [30mm, 20mm]\n    shape: polygon\n    points: [[0, 0], [30, 0], [8, 20]]\n"
                      "    copies: 2\n    front: face.yaml\n    back: face.yaml\n")
    r = CliRunner().invoke(app, ["build", str(folder), "--format", "tts", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    save, _ = _load(tmp_path / "out", "wedge")
    (bag,) = save["ObjectStates"]
    tile = bag["ContainedObjects"][0]["CustomImage"]
    _check_cut_out(_alpha(tile["ImageURL"]), [(0, 0), (30, 0), (8, 20)], 30, 20, "front")
    _check_cut_out(_alpha(tile["ImageSecondaryURL"]), [(30, 0), (0, 0), (22, 20)], 30, 20, "back")
