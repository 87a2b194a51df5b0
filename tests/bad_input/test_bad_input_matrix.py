"""The bad-input matrix: every spec and every CLI option refused cleanly.

Each case must give exit code 2, one message naming the file / line / field concerned, no
traceback, and leave an earlier kit byte-for-byte intact. Spec cases are generated from every
registered game's built-in spec and model, so a new game is covered without editing this file.
"""
from __future__ import annotations

import os
import subprocess
import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.engine import registry
from pnp.inputs.resources import builtin_spec
from conftest import snapshot
from test_input_nonsense import INPUT_CASES

runner = CliRunner()


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    out = tmp_path_factory.mktemp("existing")
    r = runner.invoke(app, ["build", "nonads", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _top_level_fields(model, kind: str) -> list[str]:
    """Names of top-level fields annotated with pnp.inputs.specfields.Length (kind="Length") or Colour."""
    from pnp.inputs import specfields as specmod
    target = getattr(specmod, kind)
    return [name for name, info in model.model_fields.items()
            if info.metadata and tuple(info.metadata) == typing.get_args(target)[1:]]


def _replace_field(text: str, field: str, value: str) -> tuple[str, int]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{field}:"):
            lines[i] = f"{field}: {value}"
            return "\n".join(lines) + "\n", i + 1
    return text + f"{field}: {value}\n", len(lines) + 1


def spec_cases():
    cases = []
    for name, game in registry().items():
        text = builtin_spec(name).read_text(encoding="utf-8")
        n = len(text.splitlines())
        cases += [
            (f"{name}-malformed", text + "broken: [unclosed\n", "malformed YAML", n + 2),
            (f"{name}-tab-indent", text + "extra:\n\tkey: 1\n", "tabs", n + 2),
            (f"{name}-empty", "", "empty", None),
            (f"{name}-unknown-key", text + "colour_sceme: dark\n", "unknown key 'colour_sceme'", n + 1),
            (f"{name}-wrong-type", _replace_field(text, "title", "[1, 2]")[0], "valid string",
             _replace_field(text, "title", "[1, 2]")[1]),
            (f"{name}-missing-game", "\n".join(l for l in text.splitlines() if not l.startswith("game:")) + "\n",
             "game:", None),
            (f"{name}-not-a-mapping", "- just\n- a list\n", "mapping", 1),
        ]
        for field in _top_level_fields(game.spec_model, "Length"):
            for label, value, needle in (("negative", "-4mm", "greater than zero"), ("zero", "0", "greater than zero"),
                                         ("absurd", "1km", "absurdly large"), ("huge", "1000000mm", "absurdly large"),
                                         ("unit", "3 parsecs", "unknown unit")):
                new, line = _replace_field(text, field, value)
                cases.append((f"{name}-{field}-{label}", new, needle, line))
        for field in _top_level_fields(game.spec_model, "Colour"):
            new, line = _replace_field(text, field, '"blurple"')
            cases.append((f"{name}-{field}-not-a-colour", new, "is not a colour", line))
    return cases


def part_cases():
    """A pawn or stone larger than the disc, cell or node it stands on (sed-style edits of a spec)."""
    edits = [
        ("nooks", "  diameter: 14mm", "  diameter: 25mm", "larger than a cell"),
        ("nonaga", "pawn: 20mm", "pawn: 40mm", "not smaller than a disc"),
        ("netmatch", "  diameter: 12mm", "  diameter: 20mm", "wider than the"),
        ("numeria", "tile_margin: 2mm", "tile_margin: 9mm", "must sit inside its square"),
    ]
    out = []
    for game, old, new, needle in edits:
        if game not in registry():
            continue
        text = builtin_spec(game).read_text(encoding="utf-8")
        lines = text.splitlines()
        idx = next(i for i, l in enumerate(lines) if l.startswith(old))
        lines[idx] = new + lines[idx][len(old):]
        # the error is reported on the field that holds the part (its key line)
        key = new.strip().split(":")[0] if not new.startswith(" ") else None
        line = idx + 1 if key else max(i for i in range(idx) if not lines[i].startswith(" ")) + 1
        out.append((f"{game}-part-too-large", "\n".join(lines) + "\n", needle, line))
    return out


def _set_field(text: str, path: tuple[str, ...], value: str) -> tuple[str, int]:
    """Set a top-level field, or a field of a top-level mapping (two-space indent), in a spec's text;
    returns (text, line of the value). A missing field (or mapping) is added."""
    lines = text.splitlines()
    if len(path) == 1:
        i = next((i for i, l in enumerate(lines) if l.startswith(f"{path[0]}:")), None)
        if i is None:
            return _replace_field(text, path[0], value)
        end = i + 1
        while end < len(lines) and lines[end].startswith(" "):  # the old value's block
            end += 1
        lines[i:end] = [f"{path[0]}: {value}"]
        return "\n".join(lines) + "\n", i + 1
    parent, name = path
    start = next((i for i, l in enumerate(lines) if l.startswith(f"{parent}:")), None)
    if start is None:
        lines += [f"{parent}:", f"  {name}: {value}"]
        return "\n".join(lines) + "\n", len(lines)
    i = start + 1
    while i < len(lines) and (lines[i].startswith(" ") or not lines[i].strip()):
        if lines[i].startswith(f"  {name}:"):
            lines[i] = f"  {name}: {value}"
            return "\n".join(lines) + "\n", i + 1
        i += 1
    lines.insert(start + 1, f"  {name}: {value}")
    return "\n".join(lines) + "\n", start + 2


def _bounded_fields(model, prefix=()):
    """(path, Bounds, is a list) of every bounded field at the top level or one mapping down."""
    from pydantic import BaseModel
    from pnp.inputs.specfields import Bounds
    out = []
    for name, info in model.model_fields.items():
        ann, meta = info.annotation, list(info.metadata)
        args = [a for a in typing.get_args(ann) if a is not type(None)] if typing.get_origin(ann) in (
            typing.Union, __import__("types").UnionType) else [ann]
        if len(args) == 1 and typing.get_origin(args[0]) is typing.Annotated:
            ann, *extra = typing.get_args(args[0])
            meta += extra
        bounds = next((m for m in meta if isinstance(m, Bounds)), None)
        if bounds is not None:
            out.append((prefix + (name,), bounds, ann not in (int, float)))
        elif isinstance(ann, type) and issubclass(ann, BaseModel) and not prefix:
            out += _bounded_fields(ann, (name,))
    return out


def _flag_fields(model, prefix=()):
    from pydantic import BaseModel
    from pnp.inputs.specfields import Flag
    out = []
    for name, info in model.model_fields.items():
        if info.annotation is bool and tuple(info.metadata) == typing.get_args(Flag)[1:]:
            out.append(prefix + (name,))
        elif isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel) and not prefix:
            out += _flag_fields(info.annotation, (name,))
    return out


def bound_cases():
    """Every count, size and list of every game one past its limit, and every switch written `yes`."""
    cases = []
    for name, game in registry().items():
        text = builtin_spec(name).read_text(encoding="utf-8")
        for path, bounds, is_list in _bounded_fields(game.spec_model):
            dotted = ".".join(path)
            if is_list:
                items = int(bounds.hi) + 1
                value = "[" + ", ".join(["x"] * items) + "]"
                needle = f"holds {items:,} items; it must hold between"
            else:
                value = f"{bounds.hi + 1:g}" if isinstance(bounds.hi, float) else str(bounds.hi + 1)
                needle = "must be between"
            new, line = _set_field(text, path, value)
            cases.append((f"{name}-{dotted}-over-limit", new, needle, line))
        for path in _flag_fields(game.spec_model):
            new, line = _set_field(text, path, "yes")
            cases.append((f"{name}-{'.'.join(path)}-yes", new, "must be true or false", line))
    return cases


WORDS = "words: netmatch-words.txt\n"
RUNAWAY = [  # the reliability issue's examples, and their neighbours
    ("numeria-tiles-billion", "game: numeria\ntiles: 1000000000\n", "must be between 16 and 64", 2),
    ("nooks-neutral-100-million", "game: nooks\nstones:\n  neutral: 100000000\n", "must be between 0 and 2000", 3),
    ("nonads-grid-7-black-24", "game: nonads\ngrid: 7\nblack: 24\n", "must be between 2 and 6", 2),
    ("nonads-grid-6-black-5", "game: nonads\ngrid: 6\nblack: 5\n", "C(36, 5) = 376,992 patterns", 3),
    ("nonads-grid-100", "game: nonads\ngrid: 100\n", "must be between 2 and 6", 2),
    ("nonads-black-negative", "game: nonads\nblack: -1\n", "must be between 0 and 36", 2),
    ("nonads-black-10-on-3x3", "game: nonads\ngrid: 3\nblack: 10\n", "do not fit a 3x3 tile", 3),
    ("numeria-trope_length-0", "game: numeria\ntrope_length: 0\n", "must be 4", 2),
    ("netmatch-sides-100000", "game: netmatch\n" + WORDS + "network:\n  sides: 100000\n", "must be between 3 and 48", 4),
    ("netmatch-empty-network", "game: netmatch\n" + WORDS + "network:\n  generator: null\n  nodes: []\n  edges: []\n",
     "holds 0 items", 5),
    ("netmatch-nan-node", "game: netmatch\n" + WORDS + "network:\n  generator: null\n  nodes:\n"
     "    - {id: a, kind: hub, x: \"nan\", y: 0}\n  edges: []\n", "finite number", 6),
    ("netmatch-word_size_pt-quoted-inf", "game: netmatch\n" + WORDS + "word_size_pt: \"inf\"\n", "finite number", 3),
    ("nonads-backs-quoted-true", "game: nonads\nbacks: \"true\"\n", "must be true or false", 2),
    ("nonads-year-5-digits", "game: nonads\nyear: 20111\n", "must be between 1 and 9999", 2),
]


SPEC_CASES = spec_cases() + part_cases() + bound_cases() + RUNAWAY


def test_matrix_is_large_enough():
    assert len(SPEC_CASES) + len(OPTION_CASES) >= 60


@pytest.mark.parametrize("case", SPEC_CASES, ids=[c[0] for c in SPEC_CASES])
def test_bad_spec(existing, tmp_path, case):
    name, text, needle, line = case
    spec = tmp_path / f"{name}.yaml"
    spec.write_text(text, encoding="utf-8")
    (tmp_path / "netmatch-words.txt").write_bytes(builtin_spec("netmatch").with_name("netmatch-words.txt").read_bytes())
    before = snapshot(existing)
    r = runner.invoke(app, ["build", str(spec), "--out", str(existing)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert needle in flat, flat
    assert spec.name in flat and "Traceback" not in flat
    if line:
        assert f"line {line}" in flat, flat
    assert snapshot(existing) == before
    assert not list(existing.glob(".pnp-staging-*"))


def _sheet(tmp_path, text):
    p = tmp_path / "sheet.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


OPTION_CASES = [
    ("paper-unknown", ["build", "nonads", "--paper", "b5"], "unknown paper 'b5'"),
    ("paper-sheet-bad-width", ["build", "nonads", "--paper", "{sheet:name: x\nwidth: -210mm\nheight: 297mm\n}"],
     "greater than zero"),
    ("paper-sheet-path-name", ["build", "nonads", "--paper",
                               "{sheet:name: ../../evil\nwidth: 210mm\nheight: 297mm\n}"], "cannot be used in file names"),
    ("paper-too-small", ["build", "nonads", "--paper", "{sheet:name: tiny\nwidth: 50mm\nheight: 60mm\n}"],
     "the printable area must be at least 40 mm"),
    ("format-unknown", ["build", "nonads", "--format", "bmp"], "unknown format 'bmp'"),
    ("format-empty", ["build", "nonads", "--format", ","], "no output format"),
    ("bleed-negative", ["build", "nonads", "--bleed", "-1"], "outside 0..10 mm"),
    ("bleed-huge", ["build", "nonads", "--bleed", "50mm"], "outside 0..10 mm"),
    ("bleed-text", ["build", "nonads", "--bleed", "lots"], "--bleed"),
    ("duplex-unknown", ["build", "nonads", "--duplex", "diagonal"], "is not one of none, long, short, fold"),
    ("offset-one-value", ["build", "nonads", "--duplex", "long", "--back-offset", "1"], "not DX,DY"),
    ("offset-text", ["build", "nonads", "--back-offset", "a,b"], "not DX,DY"),
    ("offset-huge", ["build", "nonads", "--back-offset", "30,0"], "more than 20 mm"),
    ("words-missing", ["build", "netmatch", "--words", "{tmp}/nope.txt"], "does not exist"),
    ("words-directory", ["build", "netmatch", "--words", "{tmp}"], "not a file"),
    ("words-latin1", ["build", "netmatch", "--words", "{latin1}"], "not UTF-8"),
    ("words-glyph", ["build", "netmatch", "--words", "{glyph}"], "cannot draw"),
    ("words-ligature", ["build", "netmatch", "--words", "{ligature}"], "U+FB01 LATIN SMALL LIGATURE FI"),
    ("words-fullwidth", ["build", "netmatch", "--words", "{fullwidth}"], "a compatibility form of 'A'"),
    ("words-nul-path", ["build", "netmatch", "--words", "a\x00b.txt"], "--words"),
    ("spec-missing", ["build", "{tmp}/none.yaml"], "does not exist"),
    ("spec-directory", ["build", "{tmp}/adir.yaml"], "not a file"),
    ("game-unknown", ["build", "chess"], "unknown game 'chess'"),
    ("out-is-file", ["build", "nonads", "--out", "{file}"], "is a file"),
    ("out-nul", ["build", "nonads", "--out", "bad\x00dir"], "--out"),
    ("validate-unknown", ["validate", "chess"], "unknown game"),
    ("preview-dpi", ["preview", "nonads", "--dpi", "0"], "dpi 0"),
    ("workers-zero", ["build", "nonads", "--workers", "0"], "--workers 0 is outside"),
    ("calibrate-duplex", ["calibrate", "--duplex", "none"], "cannot be calibrated"),
    ("calibrate-step", ["calibrate", "--step", "5"], "outside 0.1..2 mm"),
    ("calibrate-paper", ["calibrate", "--paper", "b5"], "unknown paper"),
    # destinations that take part of a kit: print services, cutters, Tabletop Simulator
    ("pod-no-service", ["build", "nonads", "--format", "pod"], "--format pod needs --service"),
    *[(f"pod-{name}", ["build", "nonads", "--format", "pod", "--service", service], needle) for name, service, needle in (
        ("unknown-service", "kinkos", "unknown print service 'kinkos'"),
        ("custom-two-values", "custom:300,3mm", "is not custom:DPI,BLEED,SAFE"),
        ("custom-dpi-text", "custom:abc,3mm,3mm", "the dpi 'abc' is not a whole number"),
        ("custom-bleed-text", "custom:300,lots,3mm", "expected a length"),
        ("custom-dpi-range", "custom:9000,3mm,3mm", "dpi must be 72-1200"))],
    ("pod-kit-without-cards", ["build", "nooks", "--format", "pod", "--service", "tgc"],
     "--format pod can make nothing of Nooks: board (a board, not a card)"),
    ("validate-unknown-service", ["validate", "nonads", "--service", "kinkos"], "unknown print service"),
    ("cutter-unknown", ["build", "nonads", "--cutter", "brother"], "unknown cutter 'brother'"),
    ("cutter-with-tts", ["build", "nonads", "--cutter", "silhouette", "--format", "pdf,tts"],
     "--cutter silhouette cuts printed sheets (formats pdf, svg, cut-svg, preview), but --format tts makes none"),
    ("cutter-with-pod", ["build", "nonads", "--cutter", "cricut", "--format", "pod", "--service", "tgc"],
     "--format pod makes none"),
    ("cricut-format-alone", ["build", "nonads", "--format", "cricut"], "use --cutter cricut"),
    ("cutter-with-fold", ["build", "nonads", "--cutter", "cricut", "--duplex", "fold"],
     "--duplex fold sheets are folded and glued before cutting"),
    ("tts-url-malformed", ["build", "nonads", "--format", "tts", "--tts-url", "ht!tp://x"], "--tts-url 'ht!tp://x'"),
    ("tts-url-not-http", ["build", "nonads", "--format", "tts", "--tts-url", "ftp://example.org/kit"],
     "is not an http(s):// or file:// address"),
    ("tts-url-spaces", ["build", "nonads", "--format", "tts", "--tts-url", "https://example.org/my kit"],
     "without spaces"),
]


@pytest.mark.parametrize("case", OPTION_CASES, ids=[c[0] for c in OPTION_CASES])
def test_bad_option(existing, tmp_path, case):
    name, args, needle = case
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("TEST\nCAFÉ\n".encode("latin-1"))
    glyph = tmp_path / "glyph.txt"
    glyph.write_text("TEST\n日本語字\n", encoding="utf-8")
    ligature = tmp_path / "ligature.txt"
    ligature.write_text("TEST\n\ufb01led\n", encoding="utf-8")
    fullwidth = tmp_path / "fullwidth.txt"
    fullwidth.write_text("TEST\n\uff21BCD\n", encoding="utf-8")
    afile = tmp_path / "afile"
    afile.write_text("x")
    (tmp_path / "adir.yaml").mkdir()
    subs = {"{tmp}": str(tmp_path), "{latin1}": str(latin1), "{glyph}": str(glyph), "{file}": str(afile),
            "{ligature}": str(ligature), "{fullwidth}": str(fullwidth)}
    argv = []
    for a in args:
        if a.startswith("{sheet:"):
            a = _sheet(tmp_path, a[len("{sheet:"):-1])
        for k, v in subs.items():
            a = a.replace(k, v)
        argv.append(a)
    if "--out" not in argv and argv[0] != "validate":
        argv += ["--out", str(existing)]
    before = snapshot(existing)
    r = runner.invoke(app, argv)
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert needle in flat, flat
    assert "Traceback" not in flat
    assert snapshot(existing) == before


NOTE_CASES = [  # a destination that cannot take some parts: exit 0, the kit written, a note naming them and why
    ("pod-skips-boards-and-round-parts", ["build", "netmatch", "--format", "pod", "--service", "tgc"],
     "note: --format pod writes nothing for board (a board, not a card); pawn (round: card services print "
     "rectangular cards)."),
]


@pytest.mark.parametrize("case", NOTE_CASES, ids=[c[0] for c in NOTE_CASES])
def test_destination_note(tmp_path, case):
    """Exit 0 only because the kit was written for every component the note does not name."""
    _, args, needle = case
    r = runner.invoke(app, args + ["--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert needle in " ".join(r.output.split())
    assert any((tmp_path / args[1]).rglob("*.png"))


def write_case_files(folder: Path, files: dict[str, bytes], args: list[str]) -> list[str]:
    """Write an INPUT_CASES case's files into ``folder``; return its argv with {tmp} filled in."""
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return [a.replace("{tmp}", str(folder)) for a in args]


@pytest.mark.parametrize("case", INPUT_CASES, ids=[c[0] for c in INPUT_CASES])
def test_nonsense_input(existing, tmp_path, case):
    """Rules text, spec title and designer, sheet fields, word lists: exit 2, the file, the line as an
    editor counts it and the field named, no traceback, the earlier kit and the input files unchanged."""
    name, files, args, needle, (file, line, field) = case
    argv = write_case_files(tmp_path, files, args) + ["--out", str(existing)]
    before, inputs = snapshot(existing), snapshot(tmp_path)
    r = runner.invoke(app, argv)
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert needle in flat and "Traceback" not in flat, flat
    assert f"{file}, " in flat or f"{file}:" in flat, flat
    if line is not None:
        assert f"{file}, line {line}" in flat, flat
    if field is not None:
        assert f"field {field}:" in flat, flat
    assert snapshot(existing) == before and snapshot(tmp_path) == inputs
    assert not list(existing.glob(".pnp-staging-*"))


def _make_readonly(path: Path):
    if os.geteuid() == 0:  # root ignores permission bits; the immutable flag stops even root
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("this test runs as root, which ignores folder permissions, and this file system refuses "
                        "the immutable flag (chattr +i), so no read-only output folder can be made here; run "
                        "the tests as a normal user to check that a read-only --out is refused cleanly")
        return lambda: subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    path.chmod(0o555)
    return lambda: path.chmod(0o755)


def test_read_only_output_folder(tmp_path):
    out = tmp_path / "ro"
    out.mkdir()
    restore = _make_readonly(out)
    try:
        r = runner.invoke(app, ["build", "nonads", "--out", str(out)])
    finally:
        restore()
    flat = " ".join(r.output.split())
    assert r.exit_code == 2 and "cannot write to the output folder" in flat and "--out" in flat


@pytest.mark.parametrize("variant", ["bom", "crlf", "bom+crlf"])
def test_bom_and_crlf_word_lists_are_accepted(tmp_path, variant):
    words = ["TEST", "WITH", "ΛΟΓΟ"]
    text = ("\r\n" if "crlf" in variant else "\n").join(words) + "\r\n"
    data = (b"\xef\xbb\xbf" if "bom" in variant else b"") + text.encode("utf-8")
    p = tmp_path / "w.txt"
    p.write_bytes(data)
    from pnp.games.netmatch.wordlist import read_words
    assert read_words(p).words == tuple(words)


def test_100k_line_word_list_is_read(tmp_path):
    import itertools
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(p) for p in itertools.islice(itertools.product(letters, repeat=4), 100_000)]
    p = tmp_path / "big.txt"
    p.write_text("\n".join(words) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", "netmatch", "--words", str(p)])
    assert r.exit_code == 0 and "100000 word cards" in r.output


def test_every_case_is_in_the_matrix_doc():
    """docs/bad-input-matrix.md is regenerated by tests/make_matrix_doc.py; every case has its row."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bad-input-matrix.md").read_text(encoding="utf-8")
    table = doc.split("## Kit size and environment", 1)[0]
    names = ([c[0] for c in SPEC_CASES] + [f"option-{c[0]}" for c in OPTION_CASES]
             + [f"input-{c[0]}" for c in INPUT_CASES])
    assert [n for n in names if f"| {n} | 2 |" not in table] == []
    assert f"# Bad-input matrix: {len(names)} cases" in table
