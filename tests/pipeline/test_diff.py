"""`pnp diff`, `pnp build --reprint` and `--proof`, end to end through the CLI, on a small data-driven
deck and on NetMatch's word cards. PDFs are read back with pdfplumber: what a reprint holds is
the cards' own printed text, not anything pnp reports."""
from __future__ import annotations

import json
import re

import pdfplumber
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import specs_dir

runner = CliRunner()

FRONT = """layers:
  - {type: rect, fill: "#ffffff"}
  - {type: text, text: "CARD-{id}", x: 4mm, y: 6mm, w: 55mm, h: 8mm, size: 12}
  - {type: text, text: "{name}", x: 4mm, y: 20mm, w: 55mm, h: 10mm, size: 10}
  - {type: text, text: "power {power}", x: 4mm, y: 40mm, w: 55mm, h: 10mm, size: 10, colour: "{colour}"}
"""
BACK = """layers:
  - {type: rect, fill: "#dddddd"}
  - {type: text, text: "BACKSIDE", x: 4mm, y: 40mm, w: 55mm, h: 10mm, size: 10}
"""
SPEC = """title: Diff deck
components:
  - name: card
    size: [63mm, 88mm]
    data: cards.csv
    key: id
    front: front.yaml
    back: back.yaml
"""
ROWS = [("a1", "Archer", "3", "#000000"), ("b2", "Baker", "1", "#000000"), ("c3", "Cook", "2", "#000000"),
        ("d4", "Diver", "5", "#000000"), ("e5", "Engineer", "4", "#000000"), ("f6", "Farmer", "2", "#000000")]


def write_deck(folder, rows, front=FRONT, spec=SPEC, header="id,name,power,colour"):
    folder.mkdir(exist_ok=True)
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    (folder / "front.yaml").write_text(front, encoding="utf-8")
    (folder / "back.yaml").write_text(BACK, encoding="utf-8")
    (folder / "rules.md").write_text((specs_dir() / "questions" / "rules.md").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (folder / "cards.csv").write_text(header + "\n" + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    return folder / "deck.yaml"


def run(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def diff_json(spec, out, *more):
    r = run("diff", spec, "--out", out, "--json", *more)
    assert r.exit_code in (0, 1), r.output
    return r.exit_code, json.loads(r.stdout)["kits"][0]["changes"]


def cards_in(pdf_path, first_page=0):
    """The card ids printed on the PDF's pages from ``first_page`` (0-based), in page order."""
    with pdfplumber.open(pdf_path) as pdf:
        return [m for page in pdf.pages[first_page:] for m in re.findall(r"CARD-(\w+)", page.extract_text() or "")]


def page_texts(pdf_path):
    with pdfplumber.open(pdf_path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


@pytest.fixture()
def deck(tmp_path):
    spec = write_deck(tmp_path / "deck", ROWS)
    out = tmp_path / "out"
    r = run("build", spec, "--out", out, "--format", "pdf")
    assert r.exit_code == 0, r.output
    return spec, out


def edited_rows():
    """b2's power edited, d4 deleted, g7 added."""
    rows = [r if r[0] != "b2" else ("b2", "Baker", "9", "#000000") for r in ROWS if r[0] != "d4"]
    return rows + [("g7", "Gardener", "6", "#000000")]


def test_diff_names_exactly_the_edited_deleted_and_added_rows(deck):
    spec, out = deck
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 0 and "no part changed" in r.stdout
    write_deck(spec.parent, edited_rows())
    code, changes = diff_json(spec, out)
    assert code == 1
    got = {(c["change"], c["key"]) for c in changes}
    assert got == {("changed", "b2"), ("removed", "d4"), ("added", "g7")}
    [changed] = [c for c in changes if c["change"] == "changed"]
    assert changed["fields"] == ["power"] and changed["row"] == 3 and not changed["drawing_changed"]
    text = run("diff", spec, "--out", out).stdout
    lines = [line.strip() for line in text.splitlines()[1:]]
    assert sorted(lines) == sorted(["changed  card: b2 (row 3): fields power", "removed  card: d4 (row 5)",
                                    "added    card: g7 (row 7)"])


def test_rows_moved_keep_their_keys(deck):
    spec, out = deck
    write_deck(spec.parent, list(reversed(ROWS)))
    code, changes = diff_json(spec, out)
    assert code == 0 and changes == []


def test_a_template_change_marks_every_part_it_draws(deck):
    spec, out = deck
    write_deck(spec.parent, ROWS, front=FRONT.replace("size: 12}", "size: 11}"))
    code, changes = diff_json(spec, out)
    assert code == 1
    assert {c["key"] for c in changes} == {r[0] for r in ROWS}
    assert all(c["change"] == "changed" and c["fields"] == [] and c["drawing_changed"] for c in changes)
    assert "drawing changed" in run("diff", spec, "--out", out).stdout


def test_a_field_no_template_draws_changes_no_part(deck):
    spec, out = deck
    (spec.parent / "cards.csv").write_text("id,name,power,colour,comment\n" + "".join(",".join(r) + ",x\n" for r in ROWS))
    code, changes = diff_json(spec, out)
    assert code == 0 and changes == []


def test_reprint_holds_exactly_the_new_and_changed_parts(deck):
    spec, out = deck
    write_deck(spec.parent, edited_rows())
    r = run("build", spec, "--out", out, "--format", "pdf", "--reprint")
    assert r.exit_code == 0, r.output
    reprint = out / "deck" / "deck-reprint-a4.pdf"
    texts = page_texts(reprint)
    cover = texts[0]
    assert sorted(cards_in(reprint, 1)) == ["b2", "g7"]
    take_out = cover.split("Take out")[1].split("Put in")[0]
    put_in = cover.split("Put in")[1]
    assert re.findall(r"card: (\w+) \((\w+)", take_out) == [("b2", "replaced"), ("d4", "removed")]
    assert sorted(re.findall(r"card: (\w+) \((\w+)", put_in)) == [("b2", "replacement"), ("g7", "new")]
    # the whole kit still holds every card
    assert sorted(cards_in(out / "deck" / "deck-a4.pdf", 1)) == sorted(r[0] for r in edited_rows())
    # after the build nothing differs, and --from 1 still sees the change
    assert run("diff", spec, "--out", out).exit_code == 0
    code, changes = diff_json(spec, out, "--from", "1")
    assert code == 1 and {c["key"] for c in changes} == {"b2", "d4", "g7"}


def pages_of_cards(pdf_path):
    """card id -> the 1-based pages its CARD-id text is printed on."""
    out = {}
    for number, text in enumerate(page_texts(pdf_path), start=1):
        for card in re.findall(r"CARD-(\w+)", text):
            out.setdefault(card, []).append(number)
    return out


def test_each_part_is_listed_with_the_pages_it_is_printed_on(tmp_path):
    rows = [(f"k{i:02d}", f"Name {i}", str(i), "#000000") for i in range(20)]  # 9 to a sheet: 3 sheets
    spec = write_deck(tmp_path / "deck", rows)
    out = tmp_path / "out"
    assert run("build", spec, "--out", out, "--format", "pdf", "--duplex", "long").exit_code == 0
    manifest = json.loads((out / "deck" / "manifest-a4.json").read_text())
    printed = pages_of_cards(out / "deck" / "deck-a4.pdf")
    assert len(printed) == 20
    for part in manifest["parts"]:  # the front page, and its back (the next page)
        assert part["pages"] == [printed[part["key"]][0], printed[part["key"]][0] + 1], part["key"]
    # the reprint's cover names the page each part put in is printed on
    rows[4] = ("k04", "Renamed", "4", "#000000")
    rows[17] = ("k17", "Renamed too", "17", "#000000")
    write_deck(spec.parent, rows)
    assert run("build", spec, "--out", out, "--format", "pdf", "--reprint").exit_code == 0
    reprint = out / "deck" / "deck-reprint-a4.pdf"
    cover = page_texts(reprint)[0].split("Put in")[1]
    listed = dict(re.findall(r"card: (\w+) \(replacement, page (\d+)\)", cover))
    assert listed == {card: str(pages[0]) for card, pages in pages_of_cards(reprint).items()}
    assert sorted(listed) == ["k04", "k17"]


def test_no_reprint_when_nothing_changed(deck):
    spec, out = deck
    r = run("build", spec, "--out", out, "--format", "pdf", "--reprint")
    assert r.exit_code == 0 and "nothing changed" in r.output
    assert not (out / "deck" / "deck-reprint-a4.pdf").exists()


def test_a_later_build_removes_an_old_reprint(deck):
    spec, out = deck
    write_deck(spec.parent, edited_rows())
    assert run("build", spec, "--out", out, "--format", "pdf", "--reprint").exit_code == 0
    assert (out / "deck" / "deck-reprint-a4.pdf").exists()
    assert run("build", spec, "--out", out, "--format", "pdf").exit_code == 0
    assert not (out / "deck" / "deck-reprint-a4.pdf").exists()


def test_duplex_reprint_has_the_backs(deck):
    spec, out = deck
    write_deck(spec.parent, edited_rows())
    r = run("build", spec, "--out", out, "--format", "pdf", "--reprint", "--duplex", "long")
    assert r.exit_code == 0, r.output
    texts = page_texts(out / "deck" / "deck-reprint-a4.pdf")
    assert len(texts) % 2 == 0
    fronts = [t for t in texts if "CARD-" in t]
    backs = [t for t in texts if "BACKSIDE" in t]
    assert len(fronts) == 1 and len(backs) == 1 and backs[0].count("BACKSIDE") == 2


def test_paper_and_imposition_change_no_part(deck):
    spec, out = deck
    assert run("build", spec, "--out", out, "--format", "pdf", "--paper", "letter", "--duplex", "long").exit_code == 0
    r = run("diff", spec, "--out", out, "--paper", "letter")
    assert r.exit_code == 0, r.output


def test_proof_on_every_page_and_part_and_absent_without(deck):
    spec, out = deck
    assert not any("proof" in t for t in page_texts(out / "deck" / "deck-a4.pdf"))
    assert "version" not in json.loads((out / "deck" / "manifest-a4.json").read_text())
    r = run("build", spec, "--out", out, "--format", "pdf", "--proof")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "deck" / "manifest-a4.json").read_text())
    version = manifest["version"]
    assert re.fullmatch(r"proof [0-9a-f]{8} \d{4}-\d\d-\d\d", version)
    short = version.split()[1]
    assert short == manifest["fingerprint"][:8]
    card_w, card_h = 63 / 25.4 * 72, 88 / 25.4 * 72
    with pdfplumber.open(out / "deck" / "deck-a4.pdf") as pdf:
        for page in pdf.pages:
            words = page.extract_words(extra_attrs=["size"])
            stamps = [w for w in words if w["text"] == short]
            cards = [w for w in words if w["text"].startswith("CARD-")]
            assert len(stamps) == len(cards) + 1, page.page_number  # each card's, and the sheet's
            assert all(abs(w["size"] - 6.0) < 0.05 for w in stamps)
            for card in cards:  # its stamp: inside the card, at least 3 mm (8.5 pt) from its edges
                x0, top = card["x0"] - 4 / 25.4 * 72, card["top"] - 6 / 25.4 * 72  # the card's corner
                assert any(x0 + 8.4 <= s["x0"] and s["x1"] <= x0 + card_w - 8.4 and top < s["top"]
                           and s["bottom"] <= top + card_h - 8.4 for s in stamps), (page.page_number, card["text"])
    grey = {c["non_stroking_color"] for c in pdf_chars(out / "deck" / "deck-a4.pdf", short)}  # #808080
    assert grey and all(g is not None and len(set(g)) == 1 and 0.4 < g[0] < 0.6 for g in grey)


def pdf_chars(path, text):
    """The characters of every occurrence of the word ``text``."""
    out = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for w in page.extract_words():
                if w["text"] == text:
                    out += [tuple_colour(c) for c in page.chars if w["x0"] - 0.01 <= c["x0"] < w["x1"]
                            and abs(c["top"] - w["top"]) < 0.5]
    return out


def tuple_colour(c):
    colour = c["non_stroking_color"]
    return {"non_stroking_color": tuple(colour) if isinstance(colour, (list, tuple)) else (colour,)}


def test_netmatch_words_swapped(tmp_path):
    words = tmp_path / "words.txt"
    original = [w for w in (specs_dir() / "netmatch" / "netmatch-words.txt").read_text().split()
                if w.isalpha() and w.isupper() and len(w) == 4]
    words.write_text("\n".join(original) + "\n")
    out = tmp_path / "out"
    assert run("build", "netmatch", "--words", words, "--out", out, "--format", "pdf").exit_code == 0
    new = [w for w in ("QUIZ", "JAZZ") if w not in original]
    assert len(new) == 2
    swapped = [new[0] if w == original[3] else new[1] if w == original[10] else w for w in original]
    words.write_text("\n".join(swapped) + "\n")
    code, changes = diff_json("netmatch", out, "--words", words)
    assert code == 1
    assert sorted((c["change"], c["key"]) for c in changes) == sorted(
        [("removed", original[3]), ("removed", original[10]), ("added", new[0]), ("added", new[1])])
    assert all(c["component"] == "word card" for c in changes)
    # the same words in another order: nothing to reprint
    words.write_text("\n".join(reversed(original)) + "\n")
    assert diff_json("netmatch", out, "--words", words) == (0, [])


def test_history_keeps_the_last_manifests(deck, monkeypatch):
    import pnp.pipeline.execute as execute
    spec, out = deck
    monkeypatch.setattr(execute, "HISTORY", 2)
    for power in ("7", "8", "9"):
        write_deck(spec.parent, [("a1", "Archer", power, "#000000"), *ROWS[1:]])
        assert run("build", spec, "--out", out, "--format", "pdf").exit_code == 0
    held = sorted(p.name for p in (out / "deck" / "history").iterdir())
    assert held == ["manifest-a4-g3.json", "manifest-a4-g4.json"]
    assert (out / "deck" / "history" / "manifest-a4-g4.json").read_bytes() == \
        (out / "deck" / "manifest-a4.json").read_bytes()
    code, changes = diff_json(spec, out, "--from", "3")
    assert code == 1 and [(c["key"], c["fields"]) for c in changes] == [("a1", ["power"])]


def test_a_reprint_of_removals_only_is_its_cover(deck):
    spec, out = deck
    write_deck(spec.parent, [r for r in ROWS if r[0] != "c3"])
    assert run("build", spec, "--out", out, "--format", "pdf", "--reprint", "--proof").exit_code == 0
    texts = page_texts(out / "deck" / "deck-reprint-a4.pdf")
    version = json.loads((out / "deck" / "manifest-a4.json").read_text())["version"]
    assert len(texts) == 1 and "card: c3 (removed)" in texts[0] and "Put in (0)" in texts[0]
    assert version.split()[1] in texts[0]


def test_reprint_sheets_and_parts_carry_the_proof(deck):
    spec, out = deck
    write_deck(spec.parent, edited_rows())
    assert run("build", spec, "--out", out, "--format", "pdf", "--reprint", "--proof").exit_code == 0
    short = json.loads((out / "deck" / "manifest-a4.json").read_text())["version"].split()[1]
    texts = page_texts(out / "deck" / "deck-reprint-a4.pdf")
    assert [t.count(short) for t in texts] == [1, 1 + len(re.findall("CARD-", texts[1]))]


def test_nonads_tiles_are_keyed_by_their_pattern():
    from pnp.pipeline.parts import parts_of
    from pnp.pipeline.plan import Request, load_paper, plan
    [tp] = plan(["nonads"], Request(load_paper("a4"))).targets
    keys = [p.key for p in parts_of(tp.components) if p.group == "tile"]
    black = tp.loaded.spec.black
    assert len(keys) == len(set(keys)) == len(tp.components[0].fronts)
    assert all(re.fullmatch(r"[#.]{3}/[#.]{3}/[#.]{3}", k) and k.count("#") == black for k in keys)


def test_a_template_proof_box_places_the_stamp(deck):
    spec, out = deck
    write_deck(spec.parent, ROWS, front=FRONT + "proof: {x: 10mm, y: 60mm, w: 43mm, h: 6mm}\n")
    r = run("build", spec, "--out", out, "--format", "pdf", "--proof")
    assert r.exit_code == 0, r.output
    short = json.loads((out / "deck" / "manifest-a4.json").read_text())["version"].split()[1]
    mm = 72 / 25.4
    with pdfplumber.open(out / "deck" / "deck-a4.pdf") as pdf:
        page = pdf.pages[1]
        words = page.extract_words()
        cards = [w for w in words if w["text"].startswith("CARD-")]
        stamps = [w for w in words if w["text"] == short]
        assert cards and len(stamps) == len(cards) + 1
        for card in cards:  # the card's corner is 4 mm left of and 6 mm above its CARD- text box
            x0, top = card["x0"] - 4 * mm, card["top"] - 6 * mm
            box = (x0 + 10 * mm, top + 60 * mm, x0 + 53 * mm, top + 66 * mm)
            assert any(box[0] - 0.5 <= s["x0"] and s["x1"] <= box[2] + 0.5 and box[1] - 0.5 <= s["top"]
                       and s["bottom"] <= box[3] + 0.5 for s in stamps), card["text"]
    # the box draws nothing without --proof: against the build before it, no part changed
    assert run("diff", spec, "--out", out, "--from", "1").exit_code == 0


def test_a_key_the_font_cannot_draw_is_listed_by_code_point(deck):
    spec, out = deck
    write_deck(spec.parent, [("\u6f22", "Kanji", "7", "#000000"), *ROWS[1:]])  # the key is not drawn
    (spec.parent / "front.yaml").write_text(FRONT.replace("CARD-{id}", "CARD-{name}"))
    r = run("build", spec, "--out", out, "--format", "pdf", "--reprint")
    assert r.exit_code == 0, r.output
    cover = page_texts(out / "deck" / "deck-reprint-a4.pdf")[0]
    assert "card: U+6F22 (new" in cover and "card: a1 (removed)" in cover


def test_diff_reports_each_language_kit_and_names_its_language(tmp_path):
    """A spec with languages: [en, de]: a changed German cell is a change of the German kit
    (OUT/deck-de/) only; each report names its kit's language; --lang de compares only that kit."""
    spec = write_deck(tmp_path / "deck", ROWS, spec=SPEC.replace("title: Diff deck\n", "title: Diff deck\nlanguages: [en, de]\n"))
    csv = spec.parent / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("id,name,", "id,name,name@de,").replace(
        "a1,Archer,", "a1,Archer,Bogner,").replace("b2,Baker,", "b2,Baker,Baecker,"), encoding="utf-8")
    for row in ROWS[2:]:
        csv.write_text(csv.read_text(encoding="utf-8").replace(f"{row[0]},{row[1]},", f"{row[0]},{row[1]},,"),
                       encoding="utf-8")
    out = tmp_path / "out"
    assert run("build", spec, "--out", out, "--format", "pdf").exit_code == 0
    assert run("diff", spec, "--out", out).exit_code == 0
    csv.write_text(csv.read_text(encoding="utf-8").replace("Bogner", "Schuetze"), encoding="utf-8")
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    assert any(ln.startswith("deck (en) on a4") and "no part changed" in ln for ln in lines), r.output
    assert any(ln.startswith("deck-de (de) on a4") and "1 changed" in ln for ln in lines), r.output
    assert any("a1" in ln and "name@de" in ln for ln in lines), r.output
    kits = json.loads(run("diff", spec, "--out", out, "--json").stdout)["kits"]
    assert [(k["game"], k["language"], len(k["changes"])) for k in kits] == [("deck", "en", 0), ("deck-de", "de", 1)]
    only = json.loads(run("diff", spec, "--out", out, "--json", "--lang", "de").stdout)["kits"]
    assert [(k["game"], k["language"]) for k in only] == [("deck-de", "de")]
