import pytest

from pnp.core.errors import SpecError
from pnp.inputs.specfields import load_yaml, validate_model
from pnp.games.nonads import NonadsSpec
from pnp.core.units import parse_length


@pytest.mark.parametrize("text,expected", [
    ("30mm", 30.0), ("30", 30.0), (30, 30.0), (12.5, 12.5), ("1.2in", 30.48), ("18pt", 6.35),
    ("3cm", 30.0), (" 44 mm ", 44.0), ("1e1mm", 10.0),
])
def test_parse_length(text, expected):
    assert parse_length(text) == pytest.approx(expected)


@pytest.mark.parametrize("bad", ["thirty", "30furlongs", "", None, True, [30], "mm"])
def test_parse_length_rejects(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


def _write(tmp_path, text):
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_spec_error_names_line_and_field(tmp_path):
    p = _write(tmp_path, "game: nonads\ntile_size: 30mm\n\nbogus: 3\n")
    data, lines = load_yaml(p)
    with pytest.raises(SpecError) as e:
        validate_model(NonadsSpec, data, p, lines)
    assert e.value.line == 4 and e.value.field == "bogus" and "unknown key" in e.value.message


def test_negative_size_names_line(tmp_path):
    p = _write(tmp_path, "game: nonads\n\ntile_size: -3mm\n")
    data, lines = load_yaml(p)
    with pytest.raises(SpecError) as e:
        validate_model(NonadsSpec, data, p, lines)
    assert e.value.line == 3 and e.value.field == "tile_size" and "greater than zero" in str(e.value)


def test_length_units_reach_the_model(tmp_path):
    p = _write(tmp_path, "game: nonads\ntile_size: 1.25in\n")
    data, lines = load_yaml(p)
    assert validate_model(NonadsSpec, data, p, lines).tile_size == pytest.approx(31.75)


def test_cap_height_constant_is_the_fonts_own():
    from pnp.core.fonts import CAP_HEIGHT, ttfont
    assert CAP_HEIGHT == ttfont().face.capHeight / 1000.0  # reportlab scales font units to 1000 per em
