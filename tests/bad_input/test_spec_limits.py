"""Hostile YAML and odd numbers: spec loading is bounded, YAML 1.2 core-schema, and refuses cleanly.

The hostile specs run through the real CLI in a subprocess (a segfault or a runaway parse would show
as a signal or a timeout, which CliRunner cannot catch): each must exit 2 with one plain message
naming the file, the line as an editor counts it and the limit hit, and print no traceback. The
timeout is a guard against hangs, not a speed test.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from pnp.inputs import yamllimits as yamlguard, yamlfile as yamlload
from pnp.core.errors import SpecError
from pnp.inputs.specfields import (
    MAX_ALIASES, MAX_DEPTH, MAX_NODES, MAX_SPEC_BYTES, BoundedFloat, Count, FiniteFloat, Flag, Length,
    OptionalLength, SpecBase, load_yaml, validate_model)
from pnp.core.units import parse_length

REPO = Path(__file__).resolve().parents[2]
HEAD = "game: nonads\ntitle: hostile\n"  # two lines; nonads has defaults for every other field


def _bomb(levels: int, width: int = 10) -> str:
    """The "billion laughs": each level is a list of ``width`` aliases of the level below (width**levels)."""
    rows = ['a0: &a0 ["lol"]']
    rows += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]" for i in range(1, levels + 1)]
    return HEAD + "\n".join(rows) + "\n"


# name -> (spec text, words the message must contain, line the message must name or None)
HOSTILE = {
    # Deep nesting: pnp's own event-stream limit or, first, the YAML library's (PyYAML >= 6.0.4 has one):
    # either way exit 2 naming the file and line, and "nested" in pnp's words, whichever library refused.
    "deep-block-nesting": (HEAD + "x:\n" + "".join("  " * i + "-\n" for i in range(1, 1001)),
                           ["nested", f"{MAX_DEPTH} levels", ".yaml, line "], None),
    "deep-block-dashes-60kb": (HEAD + "x:\n  " + "- " * 30_000 + "y\n", ["nested", f"{MAX_DEPTH} levels", ".yaml, line "], None),
    "deep-flow-nesting-100k": (HEAD + "x: " + "[" * 100_000 + "]" * 100_000 + "\n", ["nested", f"{MAX_DEPTH} levels"], 3),
    "deep-flow-unclosed-100k": (HEAD + "x: " + "{a: " * 100_000 + "\n", ["nested", f"{MAX_DEPTH} levels"], 3),
    "alias-bomb-9-levels": (_bomb(9), [f"more than {MAX_NODES} values once alias *a4 is expanded"], 8),
    "alias-bomb-deep-aliases": (HEAD + "a: &a " + "[" * 40 + "]" * 40 + "\nb: &b [" + "[" * 30 + "*a" + "]" * 30 + "]\n",
                                ["levels deep once alias *a is expanded"], 4),
    "many-aliases": (HEAD + "a: &a 1\nx:\n" + "".join("  - *a\n" for _ in range(MAX_ALIASES + 50)),
                     [f"more than {MAX_ALIASES} aliases (limit {MAX_ALIASES})"], 5 + MAX_ALIASES),
    "recursive-alias": (HEAD + "x: &r [1, *r]\n", ["alias *r refers to a list or mapping that contains it"], 3),
    "too-many-values": (HEAD + "x: [" + ",".join(["1"] * (MAX_NODES + 10)) + "]\n",
                        [f"more than {MAX_NODES} values (limit {MAX_NODES})"], 3),
    "file-too-large": (HEAD + "# " + "x" * MAX_SPEC_BYTES + "\n", ["too large", f"limit {MAX_SPEC_BYTES} bytes"], None),
    "duplicate-key": (HEAD + "tile_size: 30mm\ngrid: 3\ntile_size: 40mm\n",
                      ["duplicate key 'tile_size'; it is already on line 3"], 5),
    "duplicate-nested-key": (HEAD + "x:\n  a: 1\n  b: 2\n  a: 3\n", ["duplicate key 'a'; it is already on line 4"], 6),
    "sexagesimal-length": (HEAD + "tile_size: 1:30\n", ["expected a length", "'1:30'"], 3),
    "float-1e1000": (HEAD + "tile_size: 1e1000\n", ["tile_size is not a finite number (it reads as inf)"], 3),
    "length-1-and-1000-zeros": (HEAD + "tile_size: 1" + "0" * 1000 + "\n",
                                ["1001 characters long (limit 100 characters)"], 3),
    "integer-5000-digits": (HEAD + "grid: " + "7" * 5000 + "\n", ["5000 characters long (limit 100 characters)"], 3),
    "length-1e-300mm": (HEAD + "tile_size: 1e-300mm\n", ["1e-300 mm is too small to print (at least 0.01 mm)"], 3),
    "nan": (HEAD + "tile_size: .nan\n", ["tile_size is not a finite number (it reads as nan)"], 3),
    "inf": (HEAD + "tile_size: -.Inf\n", ["tile_size is not a finite number (it reads as -inf)"], 3),
    "nan-in-unknown-key": (HEAD + "extra:\n  - 1\n  - .NAN\n", ["extra.1 is not a finite number"], 5),
    "u2028-unknown-key-line": ('game: nonads\nrules: "a\u2028b\u2029c\u0085d"\nbogus: 1\n', ["unknown key 'bogus'"], 3),
    "u2028-field-line": ('game: nonads\nrules: "a\u2028b\u2028c"\ntile_size: -3mm\n', ["greater than zero"], 3),
    "u2028-malformed-line": ('game: nonads\ntitle: "a\u2028b\u2029c"\nx: ]\n',
                             ["malformed YAML: did not find expected node content"], 3),
    "form-feed-line-number": (HEAD + "\n\x0c\ntile_size: 30mm\n", ["control character U+000C"], 4),
}


def _run_cli(name: str, text: str, folder: Path) -> tuple[int | None, str]:
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    try:  # run from the spec's folder with a relative name, so messages read like the matrix's
        r = subprocess.run([sys.executable, "-m", "pnp", "validate", f"{name}.yaml"], cwd=folder,
                           env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "500", "NO_COLOR": "1"},
                           capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return None, "timed out after 30 s"
    return r.returncode, r.stdout + r.stderr


@pytest.fixture(scope="module")
def cli_results(tmp_path_factory):
    """Every hostile case through `python -m pnp validate`, four at a time."""
    folder = tmp_path_factory.mktemp("hostile")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(_run_cli, name, text, folder) for name, (text, _, _) in HOSTILE.items()}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_spec_through_the_cli(cli_results, name):
    _, needles, line = HOSTILE[name]
    code, output = cli_results[name]
    flat = " ".join(output.split())
    assert code == 2, f"exit {code} (a negative code is a signal, e.g. -11 a segfault): {flat[:500]}"
    assert "Traceback" not in output, output[-2000:]
    assert flat.startswith(f"error: {name}.yaml"), flat[:500]
    for needle in needles:
        assert needle in flat, flat[:500]
    if line is not None:
        assert f"{name}.yaml, line {line}" in flat, flat[:500]
    assert "Fix:" in flat or "(got" in flat, flat[:500]  # a hint, or the offending value
    assert len(flat) < 600, flat[:700]  # one message, never the text of the spec


def test_hostile_cases_are_in_the_matrix_doc():
    doc = (REPO / "docs" / "bad-input-matrix.md").read_text(encoding="utf-8")
    assert "## Hostile YAML" in doc
    section = doc.split("## Hostile YAML", 1)[1]
    for name in HOSTILE:
        assert f"| {name} | 2 |" in section, name


# ---- the loader, in process ---------------------------------------------------------------------

def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def _load(tmp_path: Path, text: str):
    return load_yaml(_write(tmp_path, text))


def _refused(tmp_path: Path, text: str) -> SpecError:
    with pytest.raises(SpecError) as e:
        _load(tmp_path, text)
    return e.value


@pytest.mark.parametrize("text,expected", [
    ("1:30", "1:30"), ("190:20:30", "190:20:30"), ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"),
    ("y", "y"), ("n", "n"), ("Yes", "Yes"), ("NO", "NO"), ("true", True), ("True", True), ("TRUE", True),
    ("false", False), ("False", False), ("0o17", 15), ("0x1f", 31), ("017", 17), ("+12", 12), ("-0", 0),
    ("1_000", "1_000"), ("0b101", "0b101"), ("2024-01-01", "2024-01-01"), ("~", None), ("null", None),
    ("NULL", None), ("", None), (".5", 0.5), ("1.", 1.0), ("1e3", 1000.0), ("-2.5E-1", -0.25), ("'1:30'", "1:30"),
    ("!!str 12", "12"), ("!!int 0o17", 15), ("!!float 3", 3.0), ("!!bool true", True),
])
def test_yaml_1_2_core_schema(tmp_path, text, expected):
    data, _ = _load(tmp_path, f"x: {text}\n")
    assert data["x"] == expected and type(data["x"]) is type(expected)


@pytest.mark.parametrize("text", ["!!bool yes", "!!int 1:30", "!!int 1_000", "!!float 1:30", "!!binary aGk=",
                                  "!!timestamp 2024-01-01", "!!set {a: null}", "!!python/name:os.system ''",
                                  "!!python/object/apply:os.system ['echo pwned']"])
def test_tags_outside_the_core_schema_are_refused(tmp_path, text):
    e = _refused(tmp_path, f"game: nonads\nx: {text}\n")
    assert e.line == 2


def test_merge_keys_are_ordinary_keys(tmp_path):
    data, _ = _load(tmp_path, "a: &a {k: 1}\nb:\n  <<: *a\n")
    assert data["b"] == {"<<": {"k": 1}}


def test_non_finite_floats_load_and_are_refused_by_validate_model(tmp_path):
    for text, field, line in (("tile_size: .inf", "tile_size", 2), ("x:\n  y: [1, .nan]", "x.y.1", 3),
                              ("x: {.nan: 1}", "x.nan", 2), ("w: 1e400", "w", 2)):
        p = _write(tmp_path, f"game: nonads\n{text}\n")
        data, lines = load_yaml(p)
        with pytest.raises(SpecError) as e:
            validate_model(SpecBase, data, p, lines)
        assert "is not a finite number" in e.value.message and e.value.line == line
        assert e.value.field == field


@pytest.mark.parametrize("ok,bad", [
    pytest.param("x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "x: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, id="depth"),
    pytest.param("a: &a 1\nx: [" + ", ".join(["*a"] * MAX_ALIASES) + "]",
     "a: &a 1\nx: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]", id="aliases"),
    # root mapping + game key and value + x key + the list = 5 nodes besides the items
    pytest.param("x: [" + ",".join(["1"] * (MAX_NODES - 5)) + "]", "x: [" + ",".join(["1"] * (MAX_NODES - 4)) + "]",
                 id="nodes"),
])
def test_limits_are_exact(tmp_path, ok, bad):
    _load(tmp_path, f"game: nonads\n{ok}\n")
    e = _refused(tmp_path, f"game: nonads\n{bad}\n")
    assert "limit" in e.message and e.line == 2 + bad.count("\n") and e.hint


def test_spec_of_exactly_the_size_limit_is_read(tmp_path):
    text = "game: nonads\n# "
    _load(tmp_path, text + "x" * (MAX_SPEC_BYTES - len(text) - 1) + "\n")
    assert "too large" in _refused(tmp_path, text + "x" * (MAX_SPEC_BYTES - len(text)) + "\n").message


def test_aliases_within_the_limits_are_not_expanded_by_the_line_map(tmp_path):
    items = ", ".join(str(i) for i in range(900))
    text = f"game: nonads\nbase: &b [{items}]\nuses:\n" + "".join("  - *b\n" for _ in range(MAX_ALIASES))
    data, lines = _load(tmp_path, text)
    assert data["uses"][7] is data["base"] and len(data["uses"]) == MAX_ALIASES
    assert len(lines) < 1100  # the 900 items once, not 101 times
    assert lines[("uses",)] == 3 and lines[("uses", 5)] == 2  # an alias maps to its anchor's line
    assert lines[("base", 899)] == 2


def test_line_map_is_iterative():
    """The line map walks 3,000 levels without recursing. Through the private yamlfile._line_map: the
    public load_yaml refuses a spec nested deeper than MAX_DEPTH (64) before it maps lines, so only a
    node tree made by hand can show that the map itself would not overflow Python's stack."""
    node = yaml.ScalarNode("tag:yaml.org,2002:str", "x", yaml.Mark("s", 0, 0, 0, None, None))
    for _ in range(3_000):
        node = yaml.SequenceNode("tag:yaml.org,2002:seq", [node], node.start_mark)
    lines = yamlload._line_map(node, yamlguard.Lines("x\n"))
    assert len(lines) == 3_000 and max(map(len, lines)) == 3_000


def test_lines_are_counted_as_an_editor_counts_them(tmp_path):
    text = "game: nonads\ntitle: \"a\u2028b\u2029c\u0085d\"\r\n# \u00e9\U0001F600\u2028\nlist:\n  - 1\n  - 2\n"
    data, lines = _load(tmp_path, text)
    assert lines[("list",)] == 4 and lines[("list", 1)] == 6


def test_duplicate_keys_that_are_equal_as_values(tmp_path):
    assert "duplicate key 1" in _refused(tmp_path, "x:\n  1: a\n  0o1: b\n").message
    e = _refused(tmp_path, "x: {a: 1, b: 2, a: 3}\n")
    assert e.line == 1 and "already on line 1" in e.message


def test_tab_hint_uses_the_editor_line(tmp_path):
    e = _refused(tmp_path, "game: nonads\ntitle: \"a\u2028b\"\nx:\n\tk: 1\n")
    assert e.line == 4 and "tabs" in e.hint


# ---- numbers and field types --------------------------------------------------------------------

ODD_LENGTHS = {"int-1e1000": 10 ** 1000, "int-minus-1e400": -(10 ** 400), "str-1-and-1000-zeros": "1" + "0" * 1000,
               "str-1-and-1000-zeros-mm": "1" + "0" * 1000 + "mm", "str-1e1000": "1e1000", "str-minus-1e400mm": "-1e400mm",
               "str-1e308km": "1e308km", "nan": float("nan"), "inf": float("inf"), "minus-inf": -math.inf,
               "int-5000-digits": 10 ** 5000, "str-5000-nines": "9" * 5000, "str-100k-x": "x" * 100_000,
               "list-of-huge-int": [10 ** 5000], "object": object()}


@pytest.mark.parametrize("name", list(ODD_LENGTHS))
def test_parse_length_raises_only_value_error(name):
    value = ODD_LENGTHS[name]
    with pytest.raises(ValueError) as e:
        parse_length(value)
    assert len(str(e.value)) < 200


def _model(annotation):
    class M(BaseModel):
        v: annotation
    return M


def _error(model, value) -> str:
    with pytest.raises(ValidationError) as e:
        model(v=value)
    return e.value.errors()[0]["msg"]


def test_length_bounds():
    m = _model(Length)
    assert m(v="0.01mm").v == pytest.approx(0.01) and m(v=2000).v == 2000
    assert "too small to print (at least 0.01 mm)" in _error(m, "1e-300mm")
    assert "too small" in _error(m, 0.005)
    assert "greater than zero" in _error(m, 0) and "greater than zero" in _error(m, "-1mm")
    assert "not finite" in _error(m, float("nan")) and "not finite" in _error(m, math.inf)
    assert "too large for a length" in _error(m, 10 ** 1000)
    o = _model(OptionalLength)
    assert o(v=0).v == 0 and "not finite" in _error(o, float("nan"))


def test_count():
    m = _model(Count(1, 26))
    assert m(v=1).v == 1 and m(v=26).v == 26 and m(v=4.0).v == 4
    assert _error(m, 27) == "Value error, must be between 1 and 26, got 27"
    assert "must be between 1 and 26" in _error(m, 0) and "must be between 1 and 26" in _error(m, -(10 ** 90))
    for bad in (True, "5", 4.5, math.nan, math.inf, None, [3]):
        assert "must be a whole number between 1 and 26" in _error(m, bad)
    assert "digits" in _error(m, 10 ** 5000)
    with pytest.raises(ValueError):
        Count(5, 1)


def test_finite_and_bounded_floats():
    f = _model(FiniteFloat)
    assert f(v=40).v == 40.0 and f(v="12.5").v == 12.5
    for bad in (math.nan, math.inf, "nan", "-inf", True):
        _error(f, bad)
    b = _model(BoundedFloat(4, 200))
    assert b(v=4).v == 4.0 and b(v=200.0).v == 200.0
    assert "must be between 4 and 200" in _error(b, 201) and "must be between 4 and 200" in _error(b, math.nan)
    _error(b, False)
    with pytest.raises(ValueError):
        BoundedFloat(1, math.inf)


def test_flag_takes_only_true_or_false():
    m = _model(Flag)
    assert m(v=True).v is True and m(v=False).v is False
    for bad in ("yes", "on", 1, "true", None):
        assert "must be true or false" in _error(m, bad)


def test_spec_base_float_fields_refuse_nan_and_inf_strings(tmp_path):
    class S(SpecBase):
        size_pt: float = 40.0
    for text in ('"nan"', '"inf"', '"-Infinity"'):
        p = _write(tmp_path, f"game: nonads\nsize_pt: {text}\n")
        data, lines = load_yaml(p)
        with pytest.raises(SpecError) as e:
            validate_model(S, data, p, lines)
        assert e.value.line == 2 and e.value.field == "size_pt"


def test_long_values_are_cut_in_messages(tmp_path):
    p = _write(tmp_path, "game: nonads\ntile_size: " + "x" * 100_000 + "\n")
    data, lines = load_yaml(p)
    from pnp.games.nonads import NonadsSpec
    with pytest.raises(SpecError) as e:
        validate_model(NonadsSpec, data, p, lines)
    assert e.value.line == 2 and len(str(e.value)) < 700
