"""Atomic output, containment, independent parsers (qpdf, PyMuPDF, cairosvg) and fuzzing."""
from __future__ import annotations


import cairosvg
import pikepdf
import pymupdf
import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.geometry.symmetry import burnside_count, canonical, enumerate_classes, group_permutations, orbit
from pnp.core.errors import PnpError
from pnp.engine import registry
from pnp.pipeline.execute import build_kit
from pnp.render.pdf import PdfWriter
from pnp.inputs.specfields import load_yaml, validate_model
from conftest import snapshot

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def test_failure_on_third_page_leaves_previous_kit_intact(tmp_path, monkeypatch):
    build_kit("netmatch", out=tmp_path)
    before = snapshot(tmp_path)
    calls = {"n": 0}
    original = PdfWriter.add

    def failing_add(self, page):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk on fire")
        return original(self, page)

    monkeypatch.setattr(PdfWriter, "add", failing_add)
    with pytest.raises(RuntimeError):
        build_kit("netmatch", out=tmp_path)
    assert calls["n"] == 3
    assert snapshot(tmp_path) == before
    assert not list(tmp_path.glob(".pnp-staging-*"))


def test_game_name_cannot_choose_a_path(tmp_path):
    spec = tmp_path / "evil.yaml"
    for game in ("../../x", "/etc/passwd", "nonads/../../x"):
        spec.write_text(f"game: {game!r}\n", encoding="utf-8")
        with pytest.raises(PnpError, match="must name one of"):
            build_kit(str(spec), out=tmp_path / "out")
    assert not (tmp_path / "x").exists() and not (tmp_path / "out").exists()


def test_yaml_is_loaded_safely(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text("game: !!python/object/apply:os.system ['echo pwned']\n", encoding="utf-8")
    with pytest.raises(PnpError, match="malformed YAML"):
        load_yaml(spec)


@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("default")
    return [build_kit(name, out=out) for name in registry()]


def test_every_default_pdf_passes_qpdf_and_pymupdf(default_build):
    for result in default_build:
        pdf = next(p for p in result.files if p.suffix == ".pdf")
        with pikepdf.open(pdf) as doc:
            problems = doc.check_pdf_syntax() if hasattr(doc, "check_pdf_syntax") else doc.check()
            assert not problems, problems
        pymupdf.TOOLS.mupdf_warnings()  # clear
        with pymupdf.open(pdf) as doc:
            assert doc.page_count == result.pages
            for page in doc:
                page.get_text()
                page.get_drawings()
        assert pymupdf.TOOLS.mupdf_warnings() == ""
        assert len(pypdf.PdfReader(pdf).pages) == result.pages


def test_every_default_svg_renders_in_cairosvg(default_build):
    count = 0
    for result in default_build:
        for svg in (p for p in result.files if p.suffix == ".svg"):
            png = cairosvg.svg2png(url=str(svg), output_width=200)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            count += 1
    assert count == sum(r.pages for r in default_build)


# ---- fuzzing ------------------------------------------------------------------------------------

yaml_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                                     st.floats(allow_nan=True), st.text(max_size=12)),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                           max_leaves=8)


@FUZZ
@given(text=st.text(max_size=200))
def test_spec_loader_raises_only_pnp_errors_on_any_text(tmp_path, text):
    p = tmp_path / "fuzz.yaml"
    p.write_text(text, encoding="utf-8")
    try:
        data, lines = load_yaml(p)
    except PnpError:
        return
    for game in registry().values():
        try:
            validate_model(game.spec_model, data, p, lines)
        except PnpError:
            pass


@FUZZ
@given(game=st.sampled_from(sorted(registry())), key=st.sampled_from(["title", "tile_size", "card", "grid",
                                                                       "black", "words", "bogus"]),
       value=yaml_values)
def test_spec_fields_with_any_value_raise_only_pnp_errors(tmp_path, game, key, value):
    import yaml
    p = tmp_path / "fuzz.yaml"
    p.write_text(yaml.safe_dump({"game": game, key: value}), encoding="utf-8")
    data, lines = load_yaml(p)
    try:
        validate_model(registry()[game].spec_model, data, p, lines)
    except PnpError:
        pass


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(size=st.floats(8, 60), black=st.integers(0, 9), group=st.sampled_from(["C4", "D4"]),
       paper=st.sampled_from(["a4", "letter", "a3", "tabloid"]))
def test_valid_generated_nonads_specs_build_clean_kits(tmp_path_factory, size, black, group, paper):
    tmp = tmp_path_factory.mktemp("fuzzkit")
    spec = tmp / "s.yaml"
    spec.write_text(f"game: nonads\ntile_size: {size:.2f}mm\nblack: {black}\ngroup: {group}\n", encoding="utf-8")
    result = build_kit(str(spec), paper=paper, out=tmp / "out")
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    with pikepdf.open(pdf) as doc:
        assert not doc.check_pdf_syntax() if hasattr(doc, "check_pdf_syntax") else not doc.check()
    with pymupdf.open(pdf) as doc:
        assert doc.page_count == result.pages
    assert len(pypdf.PdfReader(pdf).pages) == result.pages
    import xml.etree.ElementTree as ET
    for svg in (p for p in result.files if p.suffix == ".svg"):
        ET.parse(svg)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(n=st.integers(1, 5), data=st.data(), group=st.sampled_from(["C4", "D4"]))
def test_orbit_sizes_divide_the_group_order(n, data, group):
    mask = data.draw(st.integers(0, (1 << (n * n)) - 1))
    orb = orbit(mask, n, group)
    assert len(group_permutations(n, group)) % len(orb) == 0
    assert canonical(mask, n, group) == min(orb)
    assert all(bin(m).count("1") == bin(mask).count("1") for m in orb)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(n=st.integers(1, 4), k=st.integers(0, 16), group=st.sampled_from(["C4", "D4"]))
def test_enumeration_matches_burnside_property(n, k, group):
    k = min(k, n * n)
    assert len(enumerate_classes(n, k, group)) == burnside_count(n, k, group)


def test_long_documents_stream_to_one_file(tmp_path):
    """Pages are written to the PDF as they are drawn (no chunks, no join): the result has every page
    and word, the viewer preferences, passes qpdf, leaves no stray file behind, and is
    byte-identical when built again."""
    from pnp.layout.impose import ImposeOptions
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["TEST", "WITH", "HILL", "BIRD", "CORN", "BEAR", "SURE", "MOST", "GRAY", "FINE",
                                "FIND", "KILL", "HOLE", "FORM", "ABLE", "PART", "LAND", "ROSE", "TONE", "FIRE"]),
                     encoding="utf-8")
    results = [build_kit("netmatch", out=tmp_path / name, overrides={"words": words}, formats=("pdf",),
                         opts=ImposeOptions(duplex="long")) for name in ("a", "b")]
    pdf = next(p for p in results[0].files if p.suffix == ".pdf")
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == results[0].pages > 3 * 3
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    text = "".join(p.extract_text() for p in reader.pages)
    for w in ("TEST", "FIRE", "ROSE"):
        assert w in text
    for i, page in enumerate(reader.pages, start=1):
        assert f"page {i} of {len(reader.pages)}" in page.extract_text()
        assert "/TrimBox" in page
    with pikepdf.open(pdf) as doc:
        assert not (doc.check_pdf_syntax() if hasattr(doc, "check_pdf_syntax") else doc.check())
    assert not list(pdf.parent.glob(".*"))
    other = next(p for p in results[1].files if p.suffix == ".pdf")
    assert pdf.read_bytes() == other.read_bytes()


def test_text_with_a_glyph_the_font_lacks_is_an_error(tmp_path):
    from pnp.core.errors import LayoutError
    from pnp.core.ir import Page, Text
    writer = PdfWriter(tmp_path / "x.pdf")
    with pytest.raises(LayoutError, match="U\\+2300"):
        writer.add(Page(100, 100, (Text(10, 10, "\u2300 14 mm"),), "test"))
