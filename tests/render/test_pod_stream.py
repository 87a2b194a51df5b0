"""Print-on-demand card images as a stream over a process pool (pnp.render.pod, pnp.render.imagepool):
the same files whatever the number of workers, each image on disk before the last card is drawn, and a
card that cannot be drawn reported cleanly with nothing written."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.errors import LayoutError, PnpError
from pnp.core.ir import Component, Rect, Text
from pnp.render import imagepool
from pnp.render.pod import BATCH, parse_service, write_component

SERVICE = parse_service("custom:72,3mm,3mm")  # small images: quick, the same code path as 300 dpi


def _face(i: int, text: str | None = None):
    """A face whose ink depends on ``i``: a bar of i mm and the card's number."""
    return (Rect(0, 0, 44, 68, fill="#ffffff", stroke=None), Rect(4, 4, 2 + i, 6, fill="#aa3300", stroke=None),
            Text(22, 40, text or f"N{i}", size_pt=14, anchor="middle"))


class Observed:
    """A sequence of fronts that records which ones were drawn (indexed), like pnp.core.ir.LazyFronts."""

    def __init__(self, n: int, bad: int | None = None) -> None:
        self.n, self.bad, self.drawn = n, bad, []

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        self.drawn.append(i)
        return _face(i, "\u4e00" if i == self.bad else None)  # a CJK letter NotoSans cannot draw


def _comp(fronts, back=True) -> Component:
    return Component("word card", 44, 68, fronts, back=_face(99) if back else None, titles=())


def _digest(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.png"))}


def test_same_files_with_one_and_two_workers(tmp_path):
    n = 3 * BATCH + 1  # several tasks, the last one short, plus the back
    one = write_component(_comp(Observed(n)), SERVICE, tmp_path / "one", "kit", workers=1)
    two = write_component(_comp(Observed(n)), SERVICE, tmp_path / "two", "kit", workers=2)
    assert [p.name for p in one] == [p.name for p in two]
    a, b = _digest(tmp_path / "one"), _digest(tmp_path / "two")
    assert len(a) == n + 2  # every face, the back and the contact sheet
    assert a == b
    faces = sorted((tmp_path / "two").glob("kit-custom-word-card-0*.png"))
    assert len(faces) == n
    pictures = {Image.open(p).tobytes() for p in faces}
    assert len(pictures) == n, "each face is its own picture (the test compares drawn cards, not blanks)"
    assert {Image.open(p).size for p in faces} == {SERVICE.pixels(44, 68)}


def test_images_written_before_the_last_card_is_drawn(tmp_path):
    fronts = Observed(12 * BATCH)
    seen = []

    def on_written(path: Path) -> None:
        if not seen:
            assert path.is_file() and Image.open(path).size == SERVICE.pixels(44, 68)
            seen.append(max(fronts.drawn))

    write_component(_comp(fronts, back=False), SERVICE, tmp_path, "kit", workers=2, on_written=on_written)
    assert seen and seen[0] < fronts.n - 1, "the first image was on disk while cards were still to be drawn"
    assert sorted(set(fronts.drawn)) == list(range(fronts.n))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_card_that_cannot_be_drawn_is_named(tmp_path, workers):
    bad = 2 * BATCH + 1  # in the third task: earlier ones may be running or done
    with pytest.raises(LayoutError) as got:
        write_component(_comp(Observed(6 * BATCH, bad)), SERVICE, tmp_path, "kit", workers=workers)
    message = str(got.value)
    assert message.startswith(f"field text: word card, card {bad + 1}: ") and "U+4E00" in message
    assert "Traceback" not in message
    assert not (tmp_path / "kit-custom-word-card-contact.png").exists()
    assert not list(tmp_path.glob("*.pdf"))


def _double(x: int) -> int:
    if x == 7:
        raise LayoutError(f"task {x} refused", field="x", hint="h")
    return 2 * x


def test_stream_keeps_order_and_reads_ahead_boundedly():
    taken = []

    def tasks():
        for i in range(7):
            taken.append(i)
            yield i

    got = []
    for r in imagepool.stream(tasks(), _double, workers=2):
        got.append((r, len(taken)))
    assert [r for r, _ in got] == [2 * i for i in range(7)]
    assert all(n <= r // 2 + 1 + 2 * imagepool.IN_FLIGHT for r, n in got)


def test_stream_raises_the_workers_error_unchanged():
    with pytest.raises(PnpError) as got:
        list(imagepool.stream(range(10), _double, workers=2))
    assert type(got.value) is LayoutError and str(got.value) == "field x: task 7 refused Fix: h"


def test_a_bad_row_in_a_pod_build_exits_2_and_writes_nothing(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text("title: Deck\ncomponents:\n  - name: card\n    size: poker\n    data: deck.csv\n"
                                    "    front: front.yaml\n", encoding="utf-8")
    (deck / "front.yaml").write_text('layers:\n  - {type: text, text: "{word}", x: 5mm, y: 5mm, w: 50mm, h: 10mm}\n',
                                     encoding="utf-8")
    (deck / "rules.md").write_text("# Deck\nA deck.\n\n## Components\n- Cards.\n\n## Setup\nNone.\n\n## A turn\nNone."
                                   "\n\n## End and winner\nNone.\n\n## Fine points\n- None.\n", encoding="utf-8")
    (deck / "deck.csv").write_text("word\n" + "".join(f"w{i}\n" for i in range(20)) + "\u4e00\n", encoding="utf-8")
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["build", str(deck), "--format", "pod", "--service", "tgc", "--out", str(out)])
    assert r.exit_code == 2, r.output
    line = 2 + 20  # the header, 20 good rows, then the bad one
    assert f"deck.csv, line {line}" in r.output and "(word)" in r.output and "Traceback" not in r.output
    assert not out.exists() or not list(out.rglob("*.png"))


def test_previews_the_same_with_one_and_two_workers(tmp_path):
    from pnp.core.ir import Page
    from pnp.render.pdf import PdfWriter
    from pnp.render.raster import PAGES_PER_TASK, render_previews
    pdf = tmp_path / "kit.pdf"
    writer = PdfWriter(pdf)
    pages = 2 * PAGES_PER_TASK + 1
    for i in range(pages):
        writer.add(Page(100, 140, _face(i), f"page {i}"))
    writer.close()
    done = []
    (tmp_path / "one" / "preview").mkdir(parents=True)
    (tmp_path / "two" / "preview").mkdir(parents=True)
    one = render_previews(pdf, tmp_path / "one", "preview", "kit", 30, workers=1)
    two = render_previews(pdf, tmp_path / "two", "preview", "kit", 30, progress=lambda n, t: done.append((n, t)),
                          workers=2)
    assert one == two and len(one) == pages + 1
    assert done == [(n, pages) for n in range(1, pages + 1)]
    a, b = _digest(tmp_path / "one" / "preview"), _digest(tmp_path / "two" / "preview")
    assert a == b and len(set(a.values())) == pages + 1


def test_a_long_deck_gets_several_bounded_contact_sheets(tmp_path):
    from pnp.render.pod import CONTACT_FACES
    n = CONTACT_FACES + 5
    written = write_component(_comp(Observed(n)), SERVICE, tmp_path, "kit", workers=2)
    sheets = sorted(tmp_path.glob("kit-custom-word-card-contact*.png"))
    assert [p.name for p in sheets] == ["kit-custom-word-card-contact-1.png", "kit-custom-word-card-contact-2.png"]
    assert [p.name for p in written[-2:]] == [p.name for p in sheets]
    first, last = (Image.open(p) for p in sheets)
    assert first.height > last.height and first.width * first.height <= 1_600 * 7_500
