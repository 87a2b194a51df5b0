"""`pnp new` on tables shaped like the sheets designers really have (issue: column roles from the
data, every column on the card, a folder that builds as it is, tables as they come, honest names).

Each test writes a table, runs `pnp new` and `pnp build` as a user would, and reads the kit back:
cards counted as drawn (the white front of the card's trim size), text extracted, font sizes of
every character, fills by colour, the PDF's metadata and the Tabletop Simulator save.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pypdf
import pytest
import yaml
from typer.testing import CliRunner

from conftest import filled_rects, open_pdf
from pnp.cli import app
from pnp.custom.header import first_row_is_data
from pnp.custom.roles import infer
from test_wordlist_formats import write_ods, write_xlsx

runner = CliRunner()
SCAFFOLD_PLACEHOLDER = "One line saying what the game is"  # the old scaffold's rules line, never again printed


def _csv(path: Path, rows: list[list], delimiter: str = ",") -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return path


def _make(tmp_path: Path, data: Path, *options: str, name: str = "deck", formats: str = "pdf"):
    """`pnp new` then `pnp build`: both results."""
    made = runner.invoke(app, ["new", str(tmp_path / name), "--data", str(data), *options])
    assert made.exit_code == 0, made.output
    built = runner.invoke(app, ["build", str(tmp_path / name), "--out", str(tmp_path / "out"), "--format", formats])
    assert built.exit_code == 0, built.output
    return made, built


def _spec(tmp_path: Path, name: str = "deck") -> dict:
    return yaml.safe_load((tmp_path / name / f"{name}.yaml").read_text(encoding="utf-8"))


def _pdf(tmp_path: Path, name: str = "deck") -> Path:
    return tmp_path / "out" / name / f"{name}-a4.pdf"


def _trim(tmp_path: Path, name: str = "deck") -> tuple[float, float]:
    """The cards' trim size in mm, from the manifest pnp wrote."""
    manifest = json.loads((tmp_path / "out" / name / "manifest-a4.json").read_text(encoding="utf-8"))
    return tuple(manifest["components"][0]["trim_mm"])


def _faces(tmp_path: Path, name: str = "deck") -> int:
    """Card fronts drawn: white rectangles of the cards' trim size, on every page but the cover."""
    w, h = _trim(tmp_path, name)
    with open_pdf(_pdf(tmp_path, name)) as doc:
        return sum(1 for p in doc.pages[1:] for r in filled_rects(p, (1.0, 1.0, 1.0))
                   if abs(r[2] - w) < 0.1 and abs(r[3] - h) < 0.1)


def _text(tmp_path: Path, name: str = "deck") -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(_pdf(tmp_path, name)).pages[1:])


def _smallest_pt(tmp_path: Path, name: str = "deck") -> float:
    """The smallest font size of any character on the card pages (the page furniture, the 50 mm scale's
    caption and the footer, excluded: they are pnp's, not the deck's)."""
    w, h = _trim(tmp_path, name)
    sizes = []
    with open_pdf(_pdf(tmp_path, name)) as doc:
        for page in doc.pages[1:]:
            bottom = page.height - 18 * 72 / 25.4  # the footer band
            sizes += [c["size"] for c in page.chars if c["top"] < bottom and c["text"].strip()]
    assert sizes
    return min(sizes)


# ---- copies, guessed right both ways ------------------------------------------------------------

def test_a_shuffled_number_column_is_a_card_number_not_copies(tmp_path):
    """A `number` column holding each card's number once, shuffled: 20 cards, not 210."""
    numbers = [17, 10, 19, 3, 1, 8, 14, 20, 5, 12, 2, 7, 16, 4, 11, 18, 6, 13, 9, 15]
    rows = [["number", "name"]] + [[n, f"Card {n}"] for n in numbers]
    made, _ = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert "copies" not in _spec(tmp_path)["components"][0]
    assert _faces(tmp_path) == len(numbers)
    assert "card number" in made.output or "each row's own" in made.output, made.output


def test_an_item_count_column_is_copies(tmp_path):
    """`item-count` (1, 4, 26) is a count: 31 cards from 3 rows, the counts not printed."""
    rows = [["name", "item-count"], ["Wood", 1], ["Stone", 4], ["Coin", 26]]
    made, _ = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert _spec(tmp_path)["components"][0]["copies"] == "{item-count}"
    assert _faces(tmp_path) == 1 + 4 + 26
    assert _text(tmp_path).count("Coin") == 26


def test_a_german_count_header_is_copies(tmp_path):
    rows = [["Name", "Anzahl"], ["Bauer", 3], ["Ritter", 2], ["König", 1], ["Dame", 1]]
    _make(tmp_path, _csv(tmp_path / "karten.csv", rows, ";"))
    assert _faces(tmp_path) == 7


def test_a_statistics_table_has_no_copies(tmp_path):
    """RANK runs 1..n; Plays adds up to far more than a deck holds: neither is copies."""
    rows = [["RANK", "Card", "Plays", "Wins"]] + [[i, f"Card {i}", 5000 - 37 * i, 2400 - 11 * i]
                                                 for i in range(1, 13)]
    made, _ = _make(tmp_path, _csv(tmp_path / "stats.csv", rows))
    assert "copies" not in _spec(tmp_path)["components"][0]
    assert _faces(tmp_path) == 12
    assert "4963" in _text(tmp_path)  # Plays printed as a value


# ---- tables as they come ------------------------------------------------------------------------

def test_a_headerless_ragged_tsv_prints_every_row(tmp_path):
    """No header row, rows of 3 to 5 cells: every row is a card, padded; columns named by role."""
    rows = [["Archery", "1", "Draw a 1, then you may"], ["Oars", "1", "I demand you transfer", "crown"],
            ["Pottery", "1", "You may return", "leaf", "extra"], ["Clothing", "1", "Meld a card"],
            ["Sailing", "1", "Draw and meld a 1"], ["Writing", "2", "Draw a 2"]]
    data = tmp_path / "cards.tsv"
    data.write_text("\n".join("\t".join(r) for r in rows) + "\n", encoding="utf-8")
    assert first_row_is_data([list(r) for r in rows])
    made, _ = _make(tmp_path, data)
    comp = _spec(tmp_path)["components"][0]
    assert len(comp["columns"]) == 5 and "header_row" not in comp, comp
    assert _faces(tmp_path) == len(rows)
    text = _text(tmp_path)
    for r in rows:
        for cell in r:
            assert cell in text, cell


def test_a_header_of_names_is_not_taken_for_data():
    rows = [["name", "text", "cost"], ["Scout", "look", "1"], ["Sage", "draw two", "2"], ["Trader", "swap", "3"]]
    assert not first_row_is_data(rows)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_sheets_sharing_a_header_become_one_component_each(tmp_path, fmt):
    """A workbook of faction sheets with one header, and a notes sheet: a component per faction,
    every row printed, the notes sheet named as not used."""
    header = ["Név", "Erő", "Leírás"]
    sheets = {"Tűz": [header, ["Láng", 3, "Sebez egyet."], ["Parázs", 1, "Húz egy lapot."]],
              "Víz": [header, ["Hullám", 2, "Visszavesz egy lapot."]],
              "Jegyzet": [["Megjegyzés"], ["ez nem lap"], ["ez sem"]]}
    write = write_xlsx if fmt == "xlsx" else write_ods
    made, _ = _make(tmp_path, write(tmp_path / f"frakciok.{fmt}", sheets))
    comps = _spec(tmp_path)["components"]
    assert [c["sheet"] for c in comps] == ["Tűz", "Víz"]
    text = _text(tmp_path)
    assert all(w in text for w in ("Láng", "Parázs", "Hullám", "Visszavesz"))
    assert "ez nem lap" not in text and "Jegyzet" in made.output


def test_a_followed_hint_gives_a_folder_that_builds(tmp_path):
    """A two-cell title row above the header: pnp cannot tell, and its hint, followed, builds."""
    rows = [["Deck", "v2"], ["name", "text", "cost"], ["Scout", "look", "1"], ["Sage", "draw", "2"]]
    data = _csv(tmp_path / "cards.csv", rows)
    r = runner.invoke(app, ["new", str(tmp_path / "deck"), "--data", str(data)])
    assert r.exit_code == 2 and "--header-row 2" in r.output, r.output
    _make(tmp_path, data, "--header-row", "2")
    assert _faces(tmp_path) == 2


# ---- what the columns hold ----------------------------------------------------------------------

def test_answer_and_question_cards_get_a_band_per_kind(tmp_path):
    """A `;` CSV in German: W (answer) and S (question) cards; each kind its own band colour and label."""
    rows = [["Typ", "Text"]] + [["W", f"Antwort {i} mit Käse"] for i in range(6)] + \
           [["S", f"Frage {i}: Was ist ___?"] for i in range(4)]
    _make(tmp_path, _csv(tmp_path / "karten.csv", rows, ";"))
    front = yaml.safe_load((tmp_path / "deck" / "front.yaml").read_text(encoding="utf-8"))
    bands = {b["when"]["equals"]: b["fill"] for b in front["layers"] if b.get("when", {}) and
             isinstance(b["when"], dict) and b["type"] == "rect" and b["when"]["column"] == "Typ"}
    assert set(bands) == {"W", "S"} and len(set(bands.values())) == 2
    w, _ = _trim(tmp_path)
    with open_pdf(_pdf(tmp_path)) as doc:
        fills = {tuple(round(c, 3) for c in r["non_stroking_color"]) for p in doc.pages[1:] for r in p.rects
                 if r.get("fill") and abs((r["x1"] - r["x0"]) * 25.4 / 72 - w) < 0.1 and
                 (r["bottom"] - r["top"]) * 25.4 / 72 < 15}
    want = {tuple(round(int(c[i:i + 2], 16) / 255, 3) for i in (1, 3, 5)) for c in bands.values()}
    assert want <= fills, (want, fills)
    assert _faces(tmp_path) == 10


def test_a_colour_column_is_a_fill_not_text(tmp_path):
    rows = [["name", "colour"], ["Ash", "#6f6d69"], ["Moss", "#2e6b1f"], ["Sky", "#1f4e79"]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert "#6f6d69" not in _text(tmp_path)
    with open_pdf(_pdf(tmp_path)) as doc:
        fills = {tuple(round(c, 3) for c in r["non_stroking_color"]) for p in doc.pages[1:] for r in p.rects
                 if r.get("fill")}
    assert (round(0x6f / 255, 3), round(0x6d / 255, 3), round(0x69 / 255, 3)) in fills


def test_flags_are_chips_on_the_cards_that_have_them(tmp_path):
    rows = [["name", "attack", "trasher"], ["Militia", 1, 0], ["Chapel", 0, 1], ["Village", 0, 0],
            ["Witch", 1, 0]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    pages = pypdf.PdfReader(_pdf(tmp_path)).pages
    fronts = pages[1].extract_text()
    assert fronts.count("attack") == 2 and fronts.count("trasher") == 1


def test_a_seventeen_column_list_prints_every_column_at_6_pt_or_more(tmp_path):
    """A deck-builder list with 17 columns, one of them long rules text: every cell on a card (nothing
    dropped after the 12th column), every character 6 pt or larger, exit 0."""
    header = ["id", "name", "set", "type", "cost", "power", "defense", "faction", "rarity", "artist", "flavor",
              "keywords", "speed", "range", "upkeep", "slot", "rules"]
    rows = [header]
    for i in range(8):
        rows.append([f"C{i:03d}", f"Card number {i}", "Core", ["Unit", "Spell"][i % 2], i, i + 1, 9 - i,
                     ["Red", "Blue"][i % 2], "common", f"Artist {i}", "A quiet line of flavour.", "Swift, Brave",
                     "fast", i % 3, 1, "hand",
                     "When this enters play, draw a card; then each opponent discards a card unless they pay two "
                     "coins. At the end of your turn, if you control another unit, gain one point." * (1 + i % 2)])
    made, _ = _make(tmp_path, _csv(tmp_path / "deck.csv", rows))
    text = _text(tmp_path)
    for row in rows[1:]:
        for cell in row:
            words = str(cell).split()
            assert all(w in text for w in words[:6]), cell
    assert _smallest_pt(tmp_path) >= 6.0 - 1e-6
    assert "Not printed" not in (tmp_path / "deck" / "front.yaml").read_text(encoding="utf-8")


def test_a_long_text_gets_a_larger_card_not_a_failure(tmp_path):
    """A rules text too long for a poker card at 6 pt: the folder builds on a larger card, and says so."""
    long = "Each player in turn order may move one piece up to three spaces, then " * 40
    rows = [["name", "rules"], ["Long", long], ["Short", "Draw a card."]]
    made, _ = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    w, h = _trim(tmp_path)
    assert (w, h) != (63.5, 88.9) and "size" in made.output
    assert _smallest_pt(tmp_path) >= 6.0 - 1e-6 and _faces(tmp_path) == 2


def test_a_long_slug_key_keeps_the_card_poker_sized(tmp_path):
    """A Hungarian card list (bangsalvoserver/bangweb's Cards.tsx, as a sheet) keys its cards by slugs
    of up to 24 characters under "Azonosító": the key takes more of the top line instead of the card
    growing (it grew to A6, one card a sheet, when the key's corner was 0.4 of the line); every slug
    is printed whole, at 6 pt or more."""
    slugs = ["FULL_STEAM_DOUBLE_EFFECT", "LEGEND_SLAB_THE_KILLER", "BARREL", "DYNAMITE", "SCOPE", "MUSTANG"]
    rows = [["Azonosító", "Név", "Leírás"]] + [[s, n, "Dobd el ezt a lapot, és folytasd a játékot!"] for s, n in
                                                zip(slugs, ["Teljes gőzzel", "Legenda", "Hordó", "Dinamit", "Távcső",
                                                            "Musztáng"])]
    made, _ = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert "key" in made.output and _spec(tmp_path)["components"][0]["key"] == "Azonosító"
    assert _trim(tmp_path) == (63.5, 88.9) and _faces(tmp_path) == len(slugs)
    text = _text(tmp_path)
    assert all(s in text for s in slugs) and _smallest_pt(tmp_path) >= 6.0 - 1e-6


def test_a_long_name_under_a_name_header_is_still_the_title(tmp_path):
    """The same Hungarian list names one card in 41 characters ("Teljes gőzzel: Mozdony hatás
    megduplázása") under "Név": the column is still the cards' title, printed bold at the top in
    two lines at most, every name whole; the same names under a header that names nothing are not
    taken for a title once one is over 40 characters."""
    names = ["Teljes gőzzel: Mozdony hatás megduplázása", "Hordó", "Dinamit", "Távcső", "Musztáng", "Börtön"]
    rows = [["Név", "Leírás"]] + [[n, "Dobd el ezt a lapot, és folytasd a játékot!"] for n in names]
    made, _ = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert "'Név': title" in made.output and _spec(tmp_path)["components"][0]["title"] == "Név"
    assert _trim(tmp_path) == (63.5, 88.9) and _faces(tmp_path) == len(names)
    text = _text(tmp_path)
    assert all(n in text or n.replace(" ", "") in text.replace(" ", "") for n in names)
    plain = {"Megjegyzés": names, "Leírás": ["x"] * len(names)}
    assert {c.header: c.role for c in infer(list(plain), plain).columns}["Megjegyzés"] != "title"


def test_a_long_field_label_keeps_its_gap_to_the_value(tmp_path):
    """An Italian card list (Ayrtonno/Holy-Wars-TCG-Prova's data/cards.csv: four of its cards, all 14
    columns) has field headers as long as "crossesKind" on tarot cards (its texts run to 505
    characters), two fields to a line: a label as wide as its column stopped where its value began
    ("crossesKind:numeric", read as one word); every label now ends at least 0.5 mm before its value
    on the printed card."""
    header = ["id", "name", "faction", "set", "type", "crosses", "crossesRaw", "crossesIsWhite", "crossesKind", "faith",
              "faithRaw", "faithKind", "strength", "effectText"]

    rows = [header,
            ["CRI_acqua", "Acqua", "Cristianesimo", "CRI-1", "Artefatto", "2", "2", "False", "numeric", "3", "3", "numeric",
             "", "I tuoi santi sono immuni alle maledizioni che causano la loro morte."],
            ["CRI_aria", "Aria", "Cristianesimo", "CRI-1", "Artefatto", "2", "2", "False", "numeric", "3", "3", "numeric", "",
             "Ottieni +1 ispirazione ogni turno finchè questa carta è sul terreno."],
            ["CRI_dio_il_creatore", "Dio, il Creatore", "Cristianesimo", "CRI-1", "Santo", "", "White", "True", "white",
             "25", "25", "numeric", "10",
             'Puoi evocare questa carta dal reliquiario o dalla mano solo se "Aria", "Fuoco", "Terra" e "Acqua" sono sul '
             "campo; distruggi queste quattro carte quando la evochi. Ogni santo avversario sconfitto ti fa rimuovere "
             "dal peccato un valore pari alla sua fede iniziale."],
            ["NOR_yggdrasil", "Yggdrasil", "Mitologia Norrena", "NOR-1", "Edificio", "9", "9", "False", "numeric", "10",
             "10", "numeric", "",
             "Quando questa carta entra sul terreno, puoi cercare nel reliquiario un santo con nome Thor, Odino oppure "
             "Loki, aggiungerlo alla tua mano e poi mischiare il reliquiario. Una volta per turno puoi scegliere uno dei "
             "seguenti effetti: \nConferisci +2 forza e +2 fede ad un santo sul tuo terreno.\nRiprendi dal tuo cimitero "
             "un artefatto e aggiungilo alla tua mano.\nSe controlli almeno 3 santi con nomi diversi, pesca una carta."
             "\nSe sul tuo terreno sono presenti Thor e Odino, tutti i tuoi santi ottengono +1 forza."]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    labels = {f"{h}:" for h in header}
    gaps, found = [], set()
    with open_pdf(_pdf(tmp_path)) as doc:
        for page in doc.pages[1:]:
            words = page.extract_words(keep_blank_chars=False, x_tolerance=0.5)
            for w in words:
                if w["text"].startswith("crossesKind") or w["text"].startswith("faithKind"):
                    found.add(w["text"])
                if w["text"] in labels:
                    after = [v for v in words if abs(v["top"] - w["top"]) < 3 and v["x0"] >= w["x1"] - 0.01]
                    if after:
                        gaps.append(min(v["x0"] for v in after) - w["x1"])
    assert found == {"crossesKind:", "faithKind:"}  # never run into their values
    assert gaps and min(gaps) * 25.4 / 72 >= 0.5


def test_the_symbols_of_real_card_lists_print_in_the_symbol_fonts(tmp_path):
    """Real card lists hold symbols Noto Sans lacks: "rarità ≤ 8" (Ayrtonno/Holy-Wars-TCG-Prova),
    Nidoran♀ and Nidoran♂ (ProdigySim/pokespan-cards), card suits in BANG! texts
    (bangsalvoserver/bangweb), a star: each is drawn in the PDF in the symbol font that has it
    (Noto Sans Math, Symbols, Symbols 2) and set in the SVG in that font, embedded on the page, with
    the emoji-presentation selector of the list's "♥️♦️" (U+FE0F) left out, and the PDF's text reads
    back as written, 📦 (beyond U+FFFF) too; an
    emoji no font of pnp draws (😀) is still refused by its row and column."""
    rows = [["name", "text"], ["Inverno", "Scegli 3 carte in campo con rarità ≤ 8. Scomunicale insieme a questa carta."],
            ["Nidoran♀", "Poison Point"], ["Nidoran♂", "Poison Point"],
            ["Barrel", "Húzz egy lapot: ha ♥, a lövés elkerül. ♠ 2-9: robban."], ["Sheriff", "★ 4 életpont"],
            ["Bomba", 'A köröd elején "húzz!":♥\ufe0f♦\ufe0f= tedd a Bomba lapot bármelyik másik játékos elé.'],
            ["Újratöltés", "Tegyél 3 📦 jelölőt a kártyáidra vagy a karakteredre!"]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows), formats="pdf,svg")
    want = {"≤": "NotoSansMath", "♀": "NotoSansSymbols", "♂": "NotoSansSymbols", "♥": "NotoSansSymbols2",
            "♠": "NotoSansSymbols2", "★": "NotoSansSymbols2", "♦": "NotoSansSymbols2", "📦": "NotoSansSymbols2"}
    chars = []
    drawn: dict[str, set] = {}
    with open_pdf(_pdf(tmp_path)) as doc:
        for page in doc.pages[1:]:
            chars += page.chars
            for c in page.chars:
                if c["text"] in want:
                    drawn.setdefault(c["text"], set()).add(c["fontname"].split("+")[-1])
    assert drawn == {ch: {f"{face}-Regular"} for ch, face in want.items()}
    # only the symbols: the digits, spaces and punctuation beside them ("♠ 2-9:", "≤ 8.") stay in Noto Sans
    others = {c["fontname"].split("+")[-1] for c in chars if c["text"].strip() and c["text"] not in want}
    assert others <= {"NotoSans-Regular", "NotoSans-Bold"}, others
    # the BANG! list's "♥️♦️" asks for emoji presentation (U+FE0F): paper has one, the selector is left out
    assert not any("\ufe0f" in c["text"] for c in chars)
    svgs = "".join(p.read_text(encoding="utf-8") for p in sorted((tmp_path / "out" / "deck" / "svg").glob("*.svg")))
    for ch, face in want.items():
        texts = re.findall(r"<text[^>]*font-family=\"([^\"]*)\"[^>]*>([^<]*)</text>", svgs)
        assert any(ch in t and f"'pnp {face}'" in family for family, t in texts), ch
        assert f"font-family: 'pnp {face}'" in svgs or f'font-family: "pnp {face}"' in svgs, face
    assert "\ufe0f" not in svgs
    refused = runner.invoke(app, ["new", str(tmp_path / "emoji"), "--data",
                                  str(_csv(tmp_path / "emoji.csv", [["name", "text"], ["Box", "😀 a crate"]]))])
    assert refused.exit_code == 2 and "U+1F600" in refused.output and "row 2, column 2" in refused.output, refused.output


def test_markup_like_headers_and_cells_are_printed_as_typed(tmp_path):
    rows = [["*open", "name", "note"], ["a *star", "Sun", "3 * 4"], ["b", "Moon", "**"], ["c", "Mars", "x"]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    text = _text(tmp_path)
    assert "*open" in text and "a *star" in text and "**" in text


# ---- honest names ---------------------------------------------------------------------------------

def test_the_pdf_is_named_from_the_file_and_no_placeholder_reaches_it(tmp_path):
    rows = [["name", "text"], ["Scout", "Look at the top two cards."], ["Sage", "Draw two cards."]]
    _make(tmp_path, _csv(tmp_path / "harbour_pilots.csv", rows))
    meta = pypdf.PdfReader(_pdf(tmp_path)).metadata
    assert meta["/Title"].startswith("Harbour pilots")
    assert meta.get("/Author", "") == "" and "anonymous" not in str(meta).lower()
    assert SCAFFOLD_PLACEHOLDER not in meta["/Subject"] and "2 cards" in meta["/Subject"]
    cover = pypdf.PdfReader(_pdf(tmp_path)).pages[0].extract_text()
    assert "Say how" not in cover and "Say what" not in cover and "summary in pnp" not in cover


def test_title_option_names_the_game(tmp_path):
    rows = [["name", "text"], ["Scout", "Look."], ["Sage", "Draw."]]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows), "--title", "Harbour Pilots")
    assert pypdf.PdfReader(_pdf(tmp_path)).metadata["/Title"].startswith("Harbour Pilots")


def test_tabletop_simulator_nicknames_come_from_the_title_column(tmp_path):
    """The first column holds the kind (W/S); the nickname is the card's name."""
    rows = [["kind", "name", "text"]] + [[k, f"{k}-{i} Nebel", f"text {i}"] for i, k in enumerate("WSWSWW")]
    _make(tmp_path, _csv(tmp_path / "cards.csv", rows), formats="tts")
    assert _spec(tmp_path)["components"][0]["title"] == "name"
    save = json.loads((tmp_path / "out" / "deck" / "tts" / "deck-a4" / "deck-a4.json").read_text(encoding="utf-8"))
    names = [c["Nickname"] for o in save["ObjectStates"] for c in o.get("ContainedObjects", [])]
    assert sorted(names) == sorted(r[1] for r in rows[1:])


# ---- the roles themselves ------------------------------------------------------------------------

def test_roles_of_a_mixed_sheet():
    headers = ["id", "Name", "Typ", "Anzahl", "Farbe", "Bild", "Web", "Regeltext", "fliegt", "Notiz"]
    n = 8
    cells = {"id": [f"K{i:02d}" for i in range(n)], "Name": [f"Karte {i}" for i in range(n)],
             "Typ": ["Held", "Monster"] * 4, "Anzahl": ["2", "1"] * 4, "Farbe": ["#aa0000", "#00aa00"] * 4,
             "Bild": [f"karte{i}.png" for i in range(n)], "Web": [f"https://example.org/{i}.png" for i in range(n)],
             "Regeltext": ["Ziehe zwei Karten und lege eine davon ab; dann darfst du eine Figur bewegen."] * n,
             "fliegt": ["1", "0"] * 4, "Notiz": ["kurz", ""] * 4}
    roles = {c.header: c.role for c in infer(headers, cells).columns}
    assert roles == {"id": "key", "Name": "title", "Typ": "category", "Anzahl": "copies", "Farbe": "colour",
                     "Bild": "picture", "Web": "url", "Regeltext": "body", "fliegt": "flag", "Notiz": "field"}


def test_slugs_under_an_id_header_key_the_cards():
    """A designer's card list (kewadesign/leximix's KARTENSCHMIEDE_CARDS.md, its first cards) names
    each card by a slug under "ID", some longer than a short code (17 characters): the column keys the
    cards; the same slugs under a header that names no id are not taken for a key, nor are codes with
    a space."""
    slugs = ["fire_strike", "continental_crush", "phoenix_rebirth", "ifrit_summon", "water_shield", "tsunami"]
    names = ["Fire Strike", "Continental Crush", "Phoenix Rebirth", "Summon Ifrit", "Water Shield", "Tsunami"]
    cells = {"ID": slugs, "Name (EN)": names, "Typ": ["Attack", "Power", "Power", "Power", "Skill", "Attack"]}
    roles = {c.header: c.role for c in infer(list(cells), cells).columns}
    assert roles["ID"] == "key" and roles["Name (EN)"] == "title"
    assert {c.header: c.role for c in infer(["Slug", "Name (EN)"], {"Slug": slugs, "Name (EN)": names}).columns
            }["Slug"] != "key"
    spaced = {"ID": [s.replace("_", " ") for s in slugs], "Name (EN)": names}
    assert {c.header: c.role for c in infer(list(spaced), spaced).columns}["ID"] != "key"


# ---- edits are changes ---------------------------------------------------------------------------

def _diff(tmp_path: Path) -> list[tuple[str, str]]:
    r = runner.invoke(app, ["diff", str(tmp_path / "deck"), "--out", str(tmp_path / "out"), "--json"])
    assert r.exit_code in (0, 1), r.output
    return sorted((c["change"], c.get("title") or c["key"]) for k in json.loads(r.stdout)["kits"] for c in k["changes"])


def test_edits_to_a_deck_without_an_id_column_are_changes(tmp_path):
    """No id column: a fixed typo is one changed card, an inserted row one added card, a deleted row one
    removed card (pnp diff, run as a user would after each edit and a build)."""
    rows = [["name", "text", "cost"], ["Scout", "Look at the top two cards.", "1"],
            ["Enginer", "Build a wall next to a wall.", "3"], ["Sage", "Draw two cards.", "2"],
            ["Trader", "Swap a card with a player.", "2"]]
    data = _csv(tmp_path / "cards.csv", rows)
    _make(tmp_path, data)
    copy = tmp_path / "deck" / "data.csv"

    def edit(new_rows):
        _csv(copy, new_rows)
        diff = _diff(tmp_path)
        assert runner.invoke(app, ["build", str(tmp_path / "deck"), "--out", str(tmp_path / "out"),
                                   "--format", "pdf"]).exit_code == 0
        return diff

    fixed = [r if r[0] != "Enginer" else ["Engineer", *r[1:]] for r in rows]
    assert edit(fixed) == [("changed", "Engineer")]
    inserted = fixed[:2] + [["Pilot", "Move a ship two spaces.", "1"]] + fixed[2:]
    assert edit(inserted) == [("added", "Pilot")]
    deleted = [r for r in inserted if r[0] != "Sage"]
    assert edit(deleted) == [("removed", "Sage")]


def test_a_column_of_web_addresses_is_drawn_as_placeholders_never_fetched(tmp_path):
    """Picture web addresses: the build touches no network (the addresses point at a closed port on
    the loopback address), draws each as a placeholder labelled with the file's name, exits 0 and
    warns; validate fails."""
    rows = [["name", "image_url", "count"], ["Owl", "http://127.0.0.1:9/art/owl-card.png", 2],
            ["Fox", "https://127.0.0.1:9/art/fox-card.png", 1]]
    made, built = _make(tmp_path, _csv(tmp_path / "cards.csv", rows))
    assert "web address" in made.output and "web address" in built.output
    text = _text(tmp_path)
    assert text.count("owl-card.png") == 2 and text.count("fox-card.png") == 1 and "127.0.0.1" not in text
    assert _faces(tmp_path) == 3
    r = runner.invoke(app, ["validate", str(tmp_path / "deck")])
    assert r.exit_code == 1 and "fox-card.png" in r.output, r.output
