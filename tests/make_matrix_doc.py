"""Regenerate docs/bad-input-matrix.md from the test cases: `python tests/make_matrix_doc.py`.

Runs every case of tests/bad_input/test_bad_input_matrix.py (with the rules-text, title, sheet and word-list cases
of tests/bad_input/test_input_nonsense.py) through the CLI (CliRunner), every hostile spec of
tests/bad_input/test_spec_limits.py through `python -m pnp validate` in a subprocess, and the kit-size and
SOURCE_DATE_EPOCH cases of tests/bad_input/test_kit_limits.py, and writes the table of what each prints.
Temporary paths are shown as the file's name (a folder as TMP). Not a test: pytest does not collect it.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), *(str(d) for d in sorted(HERE.iterdir()) if d.is_dir() and any(d.glob("test_*.py")))]

import test_bad_input_matrix as matrix  # noqa: E402
import test_kit_limits as kit_limits  # noqa: E402
import test_spec_limits as limits  # noqa: E402
from pnp.cli import app  # noqa: E402
from pnp.inputs.resources import builtin_spec

DOC = HERE.parent / "docs" / "bad-input-matrix.md"
OUT_SECTION = (
    "## What a build finds where it writes\n\n"
    "Generated from tests/bad_input/test_untrusted_out.py, run in a folder kits were written to (`--out`): a kit's link\n"
    "(`playing-cards -> .pnp/playing-cards.g1`) is never read as a game folder: a name builds the game of that name, a\n"
    "path naming a kit is refused with nothing written. The same file kills `pnp validate --preflight` with SIGKILL once\n"
    "its PDF is written, with TMPDIR a fresh folder: the next preflight removes what the kill left (pnp.preflight.scratch),\n"
    "and TMPDIR then holds nothing.\n\n")
runner = CliRunner()


def _flat(output: str, tmp: Path) -> str:
    if "Invalid value" in output and not output.lstrip().startswith("error:"):
        line = next(l for l in output.splitlines() if "Invalid value" in l)
        output = "(typer usage error) " + line.strip(" │|")
    text = " ".join(output.split())
    text = text.replace(f"{tmp}/", "").replace(str(tmp), "TMP").replace(f"{HERE.parent}/", "")
    return text.replace("|", "\\|")


def _row(name: str, code: int, message: str) -> str:
    return f"| {name} | {code} | {message} |"


def spec_rows(out: Path) -> list[str]:
    rows = []
    for name, text, _, _ in matrix.SPEC_CASES:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            (tmp / "netmatch-words.txt").write_bytes(builtin_spec("netmatch").with_name("netmatch-words.txt").read_bytes())
            spec = tmp / f"{name}.yaml"
            spec.write_text(text, encoding="utf-8")
            r = runner.invoke(app, ["build", str(spec), "--out", str(out)])
            rows.append(_row(name, r.exit_code, _flat(r.output, tmp)))
    return rows


def option_rows(out: Path) -> list[str]:
    rows = []
    for name, args, _ in matrix.OPTION_CASES:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            (tmp / "latin1.txt").write_bytes("TEST\nCAFÉ\n".encode("latin-1"))
            (tmp / "glyph.txt").write_text("TEST\n日本語字\n", encoding="utf-8")
            (tmp / "ligature.txt").write_text("TEST\n\ufb01led\n", encoding="utf-8")
            (tmp / "fullwidth.txt").write_text("TEST\n\uff21BCD\n", encoding="utf-8")
            (tmp / "afile").write_text("x")
            (tmp / "adir.yaml").mkdir()
            subs = {"{tmp}": str(tmp), "{latin1}": str(tmp / "latin1.txt"), "{glyph}": str(tmp / "glyph.txt"),
                    "{file}": str(tmp / "afile"), "{ligature}": str(tmp / "ligature.txt"),
                    "{fullwidth}": str(tmp / "fullwidth.txt")}
            argv = []
            for a in args:
                if a.startswith("{sheet:"):
                    a = matrix._sheet(tmp, a[len("{sheet:"):-1])
                for k, v in subs.items():
                    a = a.replace(k, v)
                argv.append(a)
            if "--out" not in argv and argv[0] != "validate":
                argv += ["--out", str(out)]
            r = runner.invoke(app, argv)
            rows.append(_row(f"option-{name}", r.exit_code, _flat(r.output, tmp)))
    return rows


def input_rows(out: Path) -> list[str]:
    rows = []
    for name, files, args, _, _ in matrix.INPUT_CASES:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            argv = matrix.write_case_files(tmp, files, args) + ["--out", str(out)]
            r = runner.invoke(app, argv)
            rows.append(_row(f"input-{name}", r.exit_code, _flat(r.output, tmp)))
    return rows


def kit_rows(out: Path) -> list[str]:
    rows = []
    old = os.environ.get("SOURCE_DATE_EPOCH")
    try:
        for value in kit_limits.BAD_EPOCHS[:-1] + ["9" * 30]:
            os.environ["SOURCE_DATE_EPOCH"] = value
            r = runner.invoke(app, ["build", "nonads", "--out", str(out)])
            shown = value if len(value) <= 24 else value[:20] + "..."
            rows.append(_row(f"env-SOURCE_DATE_EPOCH={shown}", r.exit_code, _flat(r.output, out)))
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None) if old is None else os.environ.__setitem__("SOURCE_DATE_EPOCH", old)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        spec = tmp / "wide-nooks.yaml"
        spec.write_text("game: nooks\ncell_size: 60mm\n", encoding="utf-8")
        r = runner.invoke(app, ["build", str(spec), "--paper", kit_limits._sheet(tmp, 62, 297), "--out", str(out)])
        rows.append(_row("kit-board-over-26-columns", r.exit_code, _flat(r.output, tmp)))
        words = ["".join(p) for p in __import__("itertools").islice(
            __import__("itertools").product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=4), 30_000)]
        (tmp / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        r = runner.invoke(app, ["build", "netmatch", "--words", str(tmp / "w.txt"), "--duplex", "long",
                                "--paper", kit_limits._sheet(tmp, 90, 120), "--out", str(out)])
        rows.append(_row("kit-over-20000-pages", r.exit_code, _flat(r.output, tmp)))
    return rows


def note_rows(out: Path) -> list[str]:
    rows = []
    for name, args, _ in matrix.NOTE_CASES:
        r = runner.invoke(app, args + ["--out", str(out)])
        notes = " ".join(line for line in r.output.splitlines() if line.startswith(("note:", "error:")))
        rows.append(_row(name, r.exit_code, _flat(notes, out)))
    return rows


def hostile_rows() -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for name, (text, _, _) in limits.HOSTILE.items():
            code, output = limits._run_cli(name, text, Path(d))
            rows.append(_row(name, code, " ".join(output.split()).replace("|", "\\|")))
    return rows


def folder_rows() -> list[str]:
    """The cases of tests/bad_input/test_game_folder_confinement.py: files named outside the game folder."""
    import test_game_folder_confinement as confine
    rows = []
    for name in confine.CASES:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            folder, _ = confine._case(name, tmp)
            confine._fix_data(folder, name, tmp / "outside")
            r = runner.invoke(app, ["build", str(folder), "--out", str(tmp / "out")])
            rows.append(_row(f"folder-{name}", r.exit_code, _flat(r.output, tmp)))
    return rows


def runaway_rows() -> list[str]:
    """Fonts with runaway composite glyphs (tests/bad_input/test_font_composites.py) and work bounded before it
    starts (tests/bad_input/test_bounded_work.py): template fan-out, workbook sheets and cells, preview pixels."""
    import test_bounded_work as bounded
    import test_font_composites as composites
    rows = []
    for name in sorted(composites.BAD):
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            spec = composites._game(tmp / "deck")
            composites._composites(tmp / "deck" / "fonts" / "title.ttf", composites.BAD[name][0])
            r = runner.invoke(app, ["build", str(spec), "--out", str(tmp / "out")])
            rows.append(_row(f"font-composite-{name.replace(' ', '-').replace(',', '')}", r.exit_code,
                             _flat(r.output, tmp)))
    cases = {
        "templates-20-to-the-6": ("    front: t1.yaml\n", {**{f"t{i}.yaml": "include: [" + ", ".join(
            [f"t{i + 1}.yaml"] * 20) + "]\n" for i in range(1, 6)}, "t6.yaml": "layers: []\n"}),
        "workbook-250-sheets": ("    data: book.xlsx\n    front: front.yaml\n", {"book.xlsx": bounded._book(
            {f"S{i}": [["other"], ["x"]] for i in range(250)}, far="H249999"), "front.yaml": bounded.FRONT}),
        "workbook-40-huge-sheets": ("    data: book.xlsx\n    front: front.yaml\n", {"book.xlsx": bounded._book(
            {f"S{i}": [["other"], ["x"]] for i in range(40)}, far="H249999"), "front.yaml": bounded.FRONT}),
    }
    for name, (spec_text, files) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            spec = bounded._game(tmp / "deck", spec_text, files)
            r = runner.invoke(app, ["build", str(spec), "-f", "pdf", "--out", str(tmp / "out")])
            rows.append(_row(f"bounded-{name}", r.exit_code, _flat(r.output, tmp)))
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "huge.yaml").write_text("name: huge\nwidth: 2000mm\nheight: 2000mm\n")
        r = runner.invoke(app, ["preview", "nonads", "--dpi", "150", "--paper", str(tmp / "huge.yaml"),
                                "--out", str(tmp / "out")])
        rows.append(_row("bounded-preview-2m-at-150dpi", r.exit_code, _flat(r.output, tmp)))
    return rows


def out_rows() -> list[str]:
    """The cases of tests/bad_input/test_untrusted_out.py: a kit's link (OUT/<game>) in the folder a build runs in."""
    import test_untrusted_out as untrusted
    rows = []
    for name in sorted(untrusted.KIT_CASES):
        argv, _ = untrusted.KIT_CASES[name]
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            kits = untrusted.kit_folder(tmp)
            here = os.getcwd()
            os.chdir(kits)
            try:
                r = runner.invoke(app, argv + ["-q"])
            finally:
                os.chdir(here)
            rows.append(_row(f"{name} (`pnp {' '.join(argv)}`)", r.exit_code, _flat(r.output, tmp) or "(no error: the game of that name)"))
    return rows


def untrusted_rows() -> list[str]:
    """The cases of tests/bad_input/test_untrusted_folder.py (issue 46): each command's exit code and message."""
    import test_untrusted_folder as untrusted
    rows = []
    for name in sorted(untrusted.CASES):
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            for i, r in enumerate(untrusted.run_case(name, tmp, tmp / "out")):
                label = name if i == 0 else f"{name} ({i + 1})"
                error = " ".join(l for l in r.output.splitlines() if l.startswith("error:"))
                rows.append(_row(label, r.exit_code, _flat(error or r.output, tmp)))
    return rows


UNTRUSTED_TESTS = """Beside these, measured by their own tests:

* **A manifest in --out** (tests/bad_input/test_manifest_untrusted.py): one nested 100,000 levels deep is one
  `error:` line for `pnp diff` and no reprint for `--reprint` (the kit is built whole); a forged manifest's
  component names, keys and titles holding a line break, U+202E, NUL, an escape sequence and U+2066 reach the
  terminal and the reprint cover escaped (`\\x0a`, `\\u202e`, read back from the cover's PDF text: no control or
  format character in it); a kit with a 12,000-character key is read back by `pnp diff` (no part changed), its
  manifest holding the key bounded to `MAX_RECORD_TEXT` (10,000) characters; a component, key or title one
  character past that bound is refused naming `parts[0].<field>`.
* **`pnp new` pictures** (test_untrusted_folder.py): a picture reached through a symlinked folder leading out of
  the data's folder, and one of 32 MiB + 1 byte, are not copied (no file of the new folder holds the outside
  picture's bytes, none reaches 32 MiB); the note names both; the picture inside is copied byte for byte.
* **`--serve`** (tests/pipeline/test_watch_serve.py): `OUT/<game>` re-pointed to a folder outside --out, or to a
  generation folder that is itself a link leading out, while the server runs: 404, the outside file's text never
  sent; pointed back, served again.
* **Library warnings** (test_untrusted_folder.py, in a process of its own): Pillow's DecompressionBombWarning
  and fontTools' log record for a malformed `hmtx` table are not printed; stderr holds the one `error:` line.
* **`pnp watch`** (tests/pipeline/test_watch_waits.py): a spec malformed from the start, watched by its game
  folder or by its file, is waited on and built once fixed; 200 saves 10 ms apart with `--debounce 300` give at
  most one rebuild per 300 ms of the burst plus one (counted from the kit's history), the last kit holding the
  last save.
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)
        runner.invoke(app, ["build", "nonads", "--out", str(out)])
        main_rows = spec_rows(out) + option_rows(out) + input_rows(out)
        kit = kit_rows(out)
        notes = note_rows(out)
    hostile = hostile_rows()
    folder = folder_rows()
    runaway = runaway_rows()
    kits = out_rows()
    untrusted = untrusted_rows()
    head = "| case | exit | message |\n|---|---|---|\n"
    doc = (f"# Bad-input matrix: {len(main_rows)} cases\n\n"
           "Generated by tests/make_matrix_doc.py from tests/bad_input/test_bad_input_matrix.py (spec cases are derived from "
           "every game's spec model:\nevery count, size and list one past its limit, every switch written `yes`). "
           "Every case exits 2, prints no\ntraceback and leaves an earlier kit byte-for-byte intact.\n\n"
           + head + "\n".join(main_rows) + "\n\n"
           "## Kit size and environment\n\n"
           "Generated from tests/bad_input/test_kit_limits.py. `pnp build` checks SOURCE_DATE_EPOCH (a whole number of seconds "
           "from 0 to\n2^32 - 1, in plain digits) before anything else, and estimates the kit's pages and size "
           "(pnp.layout.limits.check_budget)\nafter the game's parts are made and before the first page is imposed: "
           "at most 20,000 pages, 2 GiB of PDF and SVG, and a\nboard cut into at most 26 columns (pieces are named "
           "A1..Z26) and 676 pieces.\n\n"
           + head + "\n".join(kit) + "\n\n"
           "## Hostile YAML\n\n"
           "Generated from tests/bad_input/test_spec_limits.py: each spec is run through `python -m pnp validate FILE` in a "
           "subprocess.\nEvery case exits 2 with one message naming the file, the line as an editor counts it "
           "(U+2028, U+2029 and U+0085\nare not line breaks there) and the limit hit, and prints no traceback. "
           f"Limits: 1 MiB file, {limits.MAX_DEPTH} levels of nesting,\n{limits.MAX_ALIASES} aliases, "
           f"{limits.MAX_NODES} values with each alias counted as the value it repeats, 100 characters per number; "
           "they are\nchecked on the YAML event stream before any node tree or data is built. Specs load with YAML "
           "1.2 core-schema rules\n(`1:30` and `yes` are strings).\n\n"
           + head + "\n".join(hostile) + "\n\n"
           "## Destinations that take part of a kit\n\n"
           "Generated from NOTE_CASES in tests/bad_input/test_bad_input_matrix.py: a format that cannot take some of a kit's "
           "parts (a print\nservice and a board) writes the rest, names what it left out and why, and exits 0; one "
           "that can take none of them\nexits 2 having written nothing (the pod-kit-without-cards case above).\n\n"
           + head + "\n".join(notes) + "\n\n"
           "## Files outside the game folder\n\n"
           "Generated from tests/bad_input/test_game_folder_confinement.py: every file a game folder names stays inside it "
           "(pnp.inputs.gamefolder;\ndocs/templates.md, \"Files a game folder names\"). Each case has a sentinel "
           "file outside the folder, whose text\nand colour appear in no output and no message.\n\n"
           + head + "\n".join(folder) + "\n\n"
           "## Runaway fonts and unbounded work\n\n"
           "Generated from tests/bad_input/test_font_composites.py and tests/bad_input/test_bounded_work.py: a declared font whose composite "
           "glyphs\ncontain themselves, nest past 8 levels or expand past 1,024 outlines; templates that include each "
           "other past 1,000\nloads; a workbook with more sheets, or more cells in the sheets searched, than the header "
           "search reads; a preview page\nover 40 megapixels. Each is refused before the work starts.\n\n"
           + head + "\n".join(runaway) + "\n\n" + OUT_SECTION + head + "\n".join(kits) + "\n\n"
           "## An untrusted folder, an untrusted --out\n\n"
           "Generated from CASES in tests/bad_input/test_untrusted_folder.py (issue 46): kit names made from language "
           "codes and\ntwo kits writing one folder, checked in the plan before anything is written; errors naming a "
           "translated cell's\ncolumn; FIFOs named as a spec or a data file; libraries' warnings, line breaks in names "
           "and option values their\ntype refuses, each one `error:` line; `proof:` boxes without area or past the part. "
           "Each command exits 2, prints\nonly that line and leaves the kits in --out as they were; (2) and (3) are "
           "the same case's further commands\n(`pnp validate`, `--set`).\n\n"
           + head + "\n".join(untrusted) + "\n\n" + UNTRUSTED_TESTS)
    DOC.write_text(doc, encoding="utf-8")
    print(f"wrote {DOC} ({len(main_rows)} + {len(kit)} + {len(hostile)} rows)")


if __name__ == "__main__":
    main()
