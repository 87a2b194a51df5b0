"""The bill of materials' headings never run into each other, in any language pnp has words for."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.core.words import LOCALE, words
from pnp.pipeline.execute import build_kit

from conftest import PT, open_pdf

ROOT = Path(__file__).resolve().parents[2]
HEADS = ("component", "count", "trim size", "pages", "paper", "what it is")
LANGUAGES = sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / "pnp.po").is_file())


def _spans(page, text: str) -> list[tuple[float, float, float]]:
    """(x0, x1, top) in mm of every run of bold characters on ``page`` that spells ``text``."""
    chars = [c for c in page.chars if "Bold" in c["fontname"]]
    out = []
    for i in range(len(chars) - len(text) + 1):
        run = chars[i:i + len(text)]
        if "".join(c["text"] for c in run) == text and len({round(c["top"], 1) for c in run}) == 1:
            out.append((run[0]["x0"] * PT, run[-1]["x1"] * PT, run[0]["top"] * PT))
    return out


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_bill_of_materials_headings_keep_apart(tmp_path, language):
    folder = tmp_path / "questions"
    shutil.copytree(ROOT / "specs" / "questions", folder)
    spec = folder / "questions.yaml"
    text = spec.read_text()
    assert "languages: [en, ar, hi]" in text
    spec.write_text(text.replace("languages: [en, ar, hi]", f"languages: [{language}]"))
    result = build_kit(str(spec), out=tmp_path / "out", formats=("pdf",))
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    say = words(None if language == "en" else language)
    with open_pdf(pdf) as doc:
        page = doc.pages[0]
        found = [_spans(page, say(h)) for h in HEADS]
    assert all(len(f) >= 1 for f in found), (language, [say(h) for h in HEADS], found)
    rows = [t for _x0, _x1, t in found[0] if all(any(abs(s[2] - t) < 0.5 for s in f) for f in found[1:])]
    assert len(rows) == 1, (language, found)  # the one line that holds every heading: the table's
    row = rows[0]
    spans = [next(s for s in f if abs(s[2] - row) < 0.5) for f in found]
    for (_a0, a1, _at), (b0, _b1, _bt), head in zip(spans, spans[1:], HEADS):
        assert a1 + 1.5 <= b0, f"{language}: the heading {say(head)!r} ends at {a1:.1f} mm, the next starts at {b0:.1f} mm"
