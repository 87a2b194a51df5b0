"""`pnp diff` and `--reprint` on decks without a declared `key:`: cards paired across builds by the
content of their rows (pnp.pipeline.pairing). Each test builds a real deck, edits its CSV as a
designer would, and reads what `pnp diff` prints, the manifest the build wrote and the cards the
reprint PDF holds (pdfplumber), never a value pnp computed for the test."""
from __future__ import annotations

import json
import re

import pytest

from test_diff import diff_json, page_texts, run, write_deck
import pnp.pipeline.pairing as pairing

FRONT = """layers:
  - {type: rect, fill: "#ffffff"}
  - {type: text, text: "CARD-{name}", x: 4mm, y: 6mm, w: 55mm, h: 8mm, size: 12}
  - {type: text, text: "power {power}", x: 4mm, y: 40mm, w: 55mm, h: 10mm, size: 10, colour: "{colour}"}
"""
SPEC = """title: Pairing deck
components:
  - name: card
    size: [63mm, 88mm]
    data: cards.csv
    front: front.yaml
    back: back.yaml
"""
BLACK = "#000000"
# no key: column; "name" is the first column whose cells all differ, so it keys the cards
NAMED = [("Archer", "3", BLACK), ("Baker", "1", BLACK), ("Cook", "2", BLACK), ("Diver", "5", BLACK),
         ("Enginer", "4", BLACK), ("Farmer", "2", BLACK)]
# no column whose cells all differ (two Archers, two Bakers; powers repeat): keyed by row number
NUMBERED = [("Archer", "3", BLACK), ("Baker", "1", BLACK), ("Archer", "2", BLACK), ("Diver", "3", BLACK),
            ("Cook", "2", BLACK), ("Baker", "4", BLACK)]


def write(folder, rows, spec=SPEC):
    return write_deck(folder, rows, FRONT, spec, header="name,power,colour")


def built(tmp_path, rows, spec=SPEC):
    path = write(tmp_path / "deck", rows, spec)
    out = tmp_path / "out"
    r = run("build", path, "--out", out, "--format", "pdf")
    assert r.exit_code == 0, r.output
    return path, out


def manifest_parts(out):
    return json.loads((out / "deck" / "manifest-a4.json").read_text(encoding="utf-8"))["parts"]


def report(spec, out):
    """`pnp diff`'s text: its first line, and the change lines (stripped)."""
    r = run("diff", spec, "--out", out)
    assert r.exit_code in (0, 1), r.output
    head, *lines = r.stdout.splitlines()
    return head, [line.strip() for line in lines]


def printed(pdf_path, first_page):
    """The card names printed on the PDF's pages from ``first_page`` (0-based)."""
    return [m for text in page_texts(pdf_path)[first_page:] for m in re.findall(r"CARD-(\w+)", text)]


def reprinted(spec, out):
    """Build with --reprint: the cards the reprint prints, and its cover's take-out and put-in lines."""
    r = run("build", spec, "--out", out, "--format", "pdf", "--reprint")
    assert r.exit_code == 0, r.output
    pdf = out / "deck" / "deck-reprint-a4.pdf"
    cover = page_texts(pdf)[0]
    take_out, put_in = cover.split("Take out")[1].split("Put in")
    return printed(pdf, 1), re.findall(r"card: (\w+) \((\w+)", take_out), re.findall(r"card: (\w+) \((\w+)", put_in)


def test_a_typo_fixed_in_the_key_column_is_one_changed_card(tmp_path):
    spec, out = built(tmp_path, NAMED)
    assert [p["key"] for p in manifest_parts(out)] == [r[0] for r in NAMED]  # the names key the cards
    write(spec.parent, [("Engineer", *r[1:]) if r[0] == "Enginer" else r for r in NAMED])
    code, changes = diff_json(spec, out)
    assert code == 1
    assert [(c["change"], c["key"], c["row"], c["fields"], c["was"]) for c in changes] == \
        [("changed", "Engineer", 6, ["name"], {"key": "Enginer", "row": 6})]
    assert report(spec, out) == ("deck on a4, against generation 1: 0 added, 0 removed, 1 changed",
                                 ["changed  card: Engineer (row 6, was Enginer): fields name"])
    cards, take_out, put_in = reprinted(spec, out)
    assert cards == ["Engineer"]
    assert take_out == [("Enginer", "replaced")] and put_in == [("Engineer", "replacement")]
    assert "Engineer" in [p["key"] for p in manifest_parts(out)]


def test_with_a_declared_key_the_keys_alone_decide(tmp_path):
    spec, out = built(tmp_path, NAMED, SPEC.replace("    data: cards.csv\n", "    data: cards.csv\n    key: name\n"))
    write(spec.parent, [("Engineer", *r[1:]) if r[0] == "Enginer" else r for r in NAMED],
          SPEC.replace("    data: cards.csv\n", "    data: cards.csv\n    key: name\n"))
    code, changes = diff_json(spec, out)
    assert code == 1
    assert [(c["change"], c["key"]) for c in changes] == [("added", "Engineer"), ("removed", "Enginer")]


def test_a_rewritten_row_is_a_removed_and_an_added_card(tmp_path):
    spec, out = built(tmp_path, NAMED)
    write(spec.parent, [("Zed", "9", BLACK) if r[0] == "Cook" else r for r in NAMED])  # one cell of 3 alike: 33 %
    code, changes = diff_json(spec, out)
    assert [(c["change"], c["key"]) for c in changes] == [("added", "Zed"), ("removed", "Cook")]


def test_a_row_inserted_in_a_deck_keyed_by_row_number_is_one_added_card(tmp_path):
    spec, out = built(tmp_path, NUMBERED)
    parts = manifest_parts(out)
    assert [p["key"] for p in parts] == ["2", "3", "4", "5", "6", "7"]  # keyed by row number (the header is row 1)
    assert [p["title"] for p in parts] == [r[0] for r in NUMBERED]  # and named by the name column
    rows = NUMBERED[:3] + [("Gardener", "6", BLACK)] + NUMBERED[3:]
    write(spec.parent, rows)
    code, changes = diff_json(spec, out)
    assert code == 1
    assert [(c["change"], c["key"], c["row"], c["title"]) for c in changes] == [("added", "5", 5, "Gardener")]
    assert report(spec, out)[1] == ["added    card: Gardener (row 5)"]
    cards, take_out, put_in = reprinted(spec, out)
    assert cards == ["Gardener"] and take_out == [] and put_in == [("Gardener", "new")]
    assert [p["title"] for p in manifest_parts(out)] == [r[0] for r in rows]
    assert run("diff", spec, "--out", out).exit_code == 0


def test_a_row_deleted_from_a_deck_keyed_by_row_number_is_one_removed_card(tmp_path):
    spec, out = built(tmp_path, NUMBERED)
    write(spec.parent, NUMBERED[:1] + NUMBERED[2:])
    code, changes = diff_json(spec, out)
    assert [(c["change"], c["key"], c["row"], c["title"]) for c in changes] == [("removed", "3", 3, "Baker")]
    assert report(spec, out)[1] == ["removed  card: Baker (row 3)"]
    cards, take_out, put_in = reprinted(spec, out)
    assert cards == [] and take_out == [("Baker", "removed")] and put_in == []


def test_a_row_edited_below_an_insertion_is_one_changed_card(tmp_path):
    spec, out = built(tmp_path, NUMBERED)
    rows = NUMBERED[:1] + [("Gardener", "6", BLACK)] + [("Diver", "7", BLACK) if r[0] == "Diver" else r
                                                        for r in NUMBERED[1:]]
    write(spec.parent, rows)
    code, changes = diff_json(spec, out)
    assert [(c["change"], c["key"], c["title"], c.get("fields"), c.get("was")) for c in changes] == [
        ("added", "3", "Gardener", None, None),
        ("changed", "6", "Diver", ["power"], {"key": "5", "row": 5, "title": "Diver"})]
    assert report(spec, out)[1] == ["added    card: Gardener (row 3)",
                                    "changed  card: Diver (row 6, was row 5): fields power"]
    cards, take_out, put_in = reprinted(spec, out)
    assert sorted(cards) == ["Diver", "Gardener"]
    assert take_out == [("Diver", "replaced")] and put_in == [("Gardener", "new"), ("Diver", "replacement")]


def test_past_the_limit_cards_are_not_paired_by_similarity_and_the_report_says_so(tmp_path, monkeypatch):
    spec, out = built(tmp_path, NUMBERED)
    monkeypatch.setattr(pairing, "MAX_PAIRING", 1)
    rows = NUMBERED[:1] + [("Gardener", "6", BLACK)] + [("Diver", "7", BLACK) if r[0] == "Diver" else r
                                                        for r in NUMBERED[1:]]
    write(spec.parent, rows)  # two new cards left once the unchanged rows are paired: more than 1
    code, changes = diff_json(spec, out)
    # the edited Diver (old row 5, new row 6) is no longer paired by its similar row; the rows 3 and
    # 6 it would fall back to by key are already paired with the unchanged cards moved there
    assert [(c["change"], c["key"]) for c in changes] == [("added", "3"), ("added", "6"), ("removed", "5")]
    head, lines = report(spec, out)
    assert lines[0] == ("note: card has more than 1 parts left without a counterpart on one side: they were "
                        "paired by key or identical rows only, not by how alike their rows are")
    r = run("diff", spec, "--out", out, "--json")
    assert json.loads(r.stdout)["kits"][0]["similarity_skipped"] == ["card"]


def test_a_forged_manifest_of_many_parts_is_not_paired_by_similarity(tmp_path):
    spec, out = built(tmp_path, NAMED)
    path = out / "deck" / "manifest-a4.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    forged = [{"component": "card", "key": f"forged {i}", "row": i, "count": 1, "fingerprint": "0" * 64,
               "fields": {"name": f"{i:016x}", "power": "0" * 16, "colour": "1" * 16}}
              for i in range(pairing.MAX_PAIRING + 1)]
    path.write_text(json.dumps(doc | {"parts": doc["parts"] + forged}), encoding="utf-8")
    write(spec.parent, [("Engineer", *r[1:]) if r[0] == "Enginer" else r for r in NAMED])
    code, changes = diff_json(spec, out)
    kinds = [(c["change"], c["key"]) for c in changes]
    assert kinds[:2] == [("added", "Engineer"), ("removed", "Enginer")]
    assert len(kinds) == 2 + pairing.MAX_PAIRING + 1
    assert report(spec, out)[1][0].startswith(f"note: card has more than {pairing.MAX_PAIRING:,} parts")


@pytest.mark.parametrize("title", [5, "x" * 10_001])
def test_a_manifest_title_of_the_wrong_kind_is_refused(tmp_path, title):
    spec, out = built(tmp_path, NUMBERED)
    path = out / "deck" / "manifest-a4.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["parts"][0]["title"] = title
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 2 and "parts[0].title" in r.output
