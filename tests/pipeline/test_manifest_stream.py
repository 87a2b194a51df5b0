"""The manifest written as a stream (pnp.pipeline.manifestfile): json.dumps's layout (indent 2) with
the parts one to a line, each as json.dumps writes it; json.loads gives back the same value, and
`pnp diff` and `--reprint` read it back. The reference is made with Python's json.dumps, never pnp's
own writer."""
from __future__ import annotations

import json

import pdfplumber
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import specs_dir
from pnp.pipeline import manifestfile
from pnp.pipeline.manifestfile import Records, SpooledRecords, chunks, write_json
from pnp.pipeline.parts import Part

runner = CliRunner()

FRONT = """layers:
  - {type: rect, fill: "#ffffff"}
  - {type: text, text: "CARD-{id}", x: 4mm, y: 6mm, w: 55mm, h: 8mm, size: 12}
  - {type: text, text: "{name}", x: 4mm, y: 20mm, w: 55mm, h: 10mm, size: 10}
"""
SPEC = """title: Stream deck
components:
  - name: card
    size: [63mm, 88mm]
    data: cards.csv
    key: id
    front: front.yaml
"""


def laid_out(doc: dict, listed: tuple[str, ...]) -> bytes:
    """json.dumps(doc, indent=2) with each list under a key of ``listed`` written one item to a line,
    each item as json.dumps writes it with ", " and ": " between its members."""
    marks = {k: f"@@{k}@@" for k in listed}
    text = json.dumps({k: marks.get(k, v) for k, v in doc.items()}, indent=2, ensure_ascii=False)
    for k, mark in marks.items():
        items = [json.dumps(r, ensure_ascii=False, separators=(", ", ": ")) for r in doc[k]]
        text = text.replace(json.dumps(mark), "[\n" + ",\n".join("    " + r for r in items) + "\n  ]" if items else "[]")
    return (text + "\n").encode("utf-8")


def reference(doc: dict) -> bytes:
    """``doc`` laid out as the manifest is, with every Records made a plain list."""
    plain = {k: list(v) if isinstance(v, Records) else v for k, v in doc.items()}
    return laid_out(plain, tuple(k for k, v in doc.items() if isinstance(v, Records)))


def sample(parts: int) -> dict:
    rows = [{"component": "carte \u00e9t\u00e9", "key": f"k{i} \u2014 \"q\"\n\u00c4", "row": i if i % 3 else None,
             "count": i % 4, "fingerprint": f"{i:064x}", "fields": {"name": f"{i:016x}"} if i % 2 else {},
             "pages": list(range(1, 1 + i % 3))} for i in range(parts)]
    return {"game": "g\u00fcme", "paper": "a4", "pages": 3, "bleed_mm": 0.0, "duplex": None, "ok": True,
            "components": [{"name": "x", "trim_mm": [63.5, 88.0], "inner_mm": [], "nested": {"a": [1, {}, []]}}],
            "files": [], "fingerprint": "ab" * 32, "parts": Records(rows, dict), "version": "v\u00b71"}


def test_streamed_text_is_json_dumps_of_the_same_value(tmp_path, monkeypatch):
    monkeypatch.setattr(manifestfile, "CHUNK", 97)  # many writes, split anywhere
    for n in (0, 1, 2, 250):
        doc = sample(n)
        write_json(tmp_path, ("m.json", "history/m-g1.json"), doc)
        want = reference(doc)
        assert (tmp_path / "m.json").read_bytes() == want
        assert (tmp_path / "history" / "m-g1.json").read_bytes() == want
        assert "".join(chunks(doc)).encode("utf-8") == want
        assert json.loads(want) == {k: list(v) if isinstance(v, Records) else v for k, v in doc.items()}
        lines = want.decode("utf-8").splitlines()
        first = lines.index('  "parts": [') if n else None
        if n:  # each part on a line of its own, between the list's brackets
            assert lines[first + 1 + n] == "  ],"
            assert [json.loads(line.strip().rstrip(",")) for line in lines[first + 1:first + 1 + n]] == list(doc["parts"])
    assert "".join(chunks({})) == json.dumps({}, indent=2) + "\n"


def test_records_are_a_sequence_made_on_demand():
    made = []
    rec = Records([3, 1, 2], lambda v: made.append(v) or {"v": v})
    assert len(rec) == 3 and not made
    assert rec[1] == {"v": 1} and made == [1]
    assert list(rec) == [{"v": 3}, {"v": 1}, {"v": 2}]
    assert rec[1:] == [{"v": 1}, {"v": 2}]


def test_spooled_records_write_the_same_text_and_read_back(tmp_path, monkeypatch):
    """A manifest whose parts are SpooledRecords (encoded as made into a temporary file, none held)
    is byte for byte the one written from the same records in memory; the spool reads back each
    record in order, by index (negative too) and by slice, the same values."""
    monkeypatch.setattr(manifestfile, "CHUNK", 97)
    for n in (0, 1, 2, 2500):  # 2500: past one batch of the spool's writes
        doc = sample(n)
        rows = list(doc["parts"])
        spooled = dict(doc, parts=SpooledRecords(iter(rows)))
        write_json(tmp_path, ("s.json",), spooled)
        assert (tmp_path / "s.json").read_bytes() == reference(doc)
        got = spooled["parts"]
        assert len(got) == n and list(got) == rows
        if n:
            assert got[n - 1] == rows[-1] and got[-1] == rows[-1] and got[0] == rows[0] and got[1:3] == rows[1:3]


def write_deck(folder, rows):
    folder.mkdir(exist_ok=True)
    (folder / "deck.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "rules.md").write_text((specs_dir() / "questions" / "rules.md").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (folder / "cards.csv").write_text("id,name\n" + "".join(f"{k},{v}\n" for k, v in rows), encoding="utf-8")
    return folder / "deck.yaml"


def run(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def test_a_built_manifest_is_json_dumps_and_diff_and_reprint_read_it(tmp_path):
    rows = [("\u00c41", "\u00c9mile"), ("b2", "Baker"), ("c3", "Cook")]
    spec = write_deck(tmp_path / "deck", rows)
    out = tmp_path / "out"
    assert run("build", spec, "--out", out, "--format", "pdf").exit_code == 0
    kit = out / "deck"
    data = (kit / "manifest-a4.json").read_bytes()
    value = json.loads(data)
    assert data == laid_out(value, ("parts",))
    assert (kit / "history" / "manifest-a4-g1.json").read_bytes() == data
    assert [p["key"] for p in value["parts"]] == [k for k, _ in rows]
    assert all(set(p["fields"]) == {"id", "name"} for p in value["parts"])

    write_deck(tmp_path / "deck", [rows[0], ("b2", "Brewer"), rows[2], ("d4", "Diver")])
    r = run("diff", spec, "--out", out, "--json")
    assert r.exit_code == 1, r.output
    changes = {(c["change"], c["key"]): c for c in json.loads(r.stdout)["kits"][0]["changes"]}
    assert set(changes) == {("changed", "b2"), ("added", "d4")}
    assert changes["changed", "b2"]["fields"] == ["name"]

    assert run("build", spec, "--out", out, "--format", "pdf", "--reprint").exit_code == 0
    with pdfplumber.open(kit / "deck-reprint-a4.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    assert "CARD-b2" in text and "CARD-d4" in text
    assert "CARD-c3" not in text and "CARD-\u00c41" not in text
    assert (kit / "history" / "manifest-a4-g2.json").read_bytes() == (kit / "manifest-a4.json").read_bytes()


@pytest.mark.parametrize("row, title, pages", [(7, "", (3,)), (None, "", ()), (12, "Zwölf \"Äpfel\"", (4, 5, 9)),
                                              (True, "", (1,)), (3, "", (2, False))])
def test_a_parts_record_text_is_what_json_writes_of_its_record(row, title, pages):
    """Part.record_text, the manifest line of a part, is json.dumps of Part.record, character for
    character: quotes, backslashes, control characters and letters beyond ASCII in the component, key,
    title and column names; no row; several pages; values of another type (a bool row or page), which
    json writes its own way."""
    part = Part('word "card"\\ \u00e9\u0416', "k\ty\u2028\u00fc", row, 2, "ab" * 32,
                (("wörd", "0123456789abcdef"), ("clue\n", "fedcba9876543210")), title, 0, (0,), pages, "column")
    expected = json.dumps(part.record(), ensure_ascii=False, separators=(", ", ": "))
    assert part.record_text() == expected
    assert part.record_text((8,)) == json.dumps(part.record((8,)), ensure_ascii=False, separators=(", ", ": "))
    assert json.loads(SpooledRecords(texts=[part.record_text()]).lines().__next__()) == part.record()
