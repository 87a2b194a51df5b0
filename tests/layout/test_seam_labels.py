"""Strip labels and join lines of tiled boards, read back from the PDF: no visible stroke of the
board (hex edge, network edge, card box) crosses a "cut on the dashed line" or "glue tab" label,
and no join line runs through a card box."""
import pymupdf
import pytest

from conftest import pdf_of
from pnp.core.units import MM_PER_PT
from pnp.layout import tiling

KITS = [(game, paper) for game in ("nooks", "netmatch") for paper in ("a4", "letter")]


def _bezier(p0, p1, p2, p3, n=12):
    def at(t):
        s = 1 - t
        return (s ** 3 * p0.x + 3 * s * s * t * p1.x + 3 * s * t * t * p2.x + t ** 3 * p3.x,
                s ** 3 * p0.y + 3 * s * s * t * p1.y + 3 * s * t * t * p2.y + t ** 3 * p3.y)
    pts = [at(i / n) for i in range(n + 1)]
    return list(zip(pts, pts[1:]))


def strokes(page):
    """Every solid stroked segment on ``page`` as (seqno, (x0, y0), (x1, y1)) pt, y down; curves as
    12 chords. Dashed lines (the join lines) are left out."""
    out = []
    for d in page.get_drawings():
        if d["type"] not in ("s", "fs") or (d.get("dashes") or "[] 0").strip() != "[] 0":
            continue
        for it in d["items"]:
            if it[0] == "l":
                segs = [((it[1].x, it[1].y), (it[2].x, it[2].y))]
            elif it[0] == "c":
                segs = _bezier(*it[1:5])
            elif it[0] == "re":
                r = it[1]
                c = [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]
                segs = list(zip(c, c[1:] + c[:1]))
            elif it[0] == "qu":
                q = it[1]
                c = [(q.ul.x, q.ul.y), (q.ur.x, q.ur.y), (q.lr.x, q.lr.y), (q.ll.x, q.ll.y)]
                segs = list(zip(c, c[1:] + c[:1]))
            else:
                continue
            out.extend((d["seqno"], a, b) for a, b in segs)
    return out


def crosses(seg, rect) -> bool:
    """True when the segment ((x0, y0), (x1, y1)) meets the rectangle (x0, y0, x1, y1) (Liang-Barsky)."""
    (ax, ay), (bx, by) = seg
    x0, y0, x1, y1 = rect
    t0, t1 = 0.0, 1.0
    for p, q in ((-(bx - ax), ax - x0), (bx - ax, x1 - ax), (-(by - ay), ay - y0), (by - ay, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def label_boxes(page):
    """The boxes (pymupdf Rect, pt) of the text spans that are a strip label, whole (not the words
    "glue tab" inside the joining sentence in the footer)."""
    labels = (tiling.CUT_LABEL, tiling.GLUE_LABEL)
    return [pymupdf.Rect(span["bbox"]) for block in page.get_text("dict")["blocks"] for line in block.get("lines", ())
            for span in line["spans"] if span["text"].strip() in labels]


def white_boxes(page):
    """(seqno, rect) of every white filled rectangle on ``page``: what is drawn before one under it is hidden."""
    out = []
    for d in page.get_drawings():
        if d["type"] == "f" and d.get("fill") and all(c > 0.99 for c in d["fill"]):
            out.extend((d["seqno"], it[1]) for it in d["items"] if it[0] == "re")
    return out


@pytest.mark.parametrize("game,paper", KITS)
def test_no_stroke_crosses_a_strip_label(built, game, paper):
    doc = pymupdf.open(pdf_of(built(game, paper)))
    found = 0
    for page in doc:
        labels = label_boxes(page)
        if not labels:
            continue
        segs, whites = strokes(page), white_boxes(page)
        for r in labels:
            found += 1
            box = (r.x0, r.y0, r.x1, r.y1)
            # a white box covering the label hides whatever was drawn before it
            under = max((n for n, w in whites if w.x0 <= r.x0 + 0.5 and w.y0 <= r.y0 + 0.5
                         and w.x1 >= r.x1 - 0.5 and w.y1 >= r.y1 - 0.5), default=-1)
            hit = [(a, b) for n, a, b in segs if n > under and crosses((a, b), box)]
            assert not hit, (f"page {page.number + 1}: label at ({r.x0 * MM_PER_PT:.1f}, {r.y0 * MM_PER_PT:.1f}) mm "
                             f"crossed by {len(hit)} strokes, first {hit[0]}")
    assert found >= 2  # every tiled board has a cut and a glue label


def visible_rects(page):
    """Every stroked rectangle on ``page`` cut to the clip it is drawn in (pymupdf Rect, pt); those
    clipped away entirely are left out."""
    clips: list = []  # (level, scissor) of the clips in force
    out = []
    for d in page.get_drawings(extended=True):
        while clips and clips[-1][0] >= d["level"]:
            clips.pop()
        if d["type"] == "clip":
            clips.append((d["level"], d["scissor"]))
            continue
        if d["type"] not in ("s", "fs"):
            continue
        for it in d["items"]:
            if it[0] == "re":
                r = pymupdf.Rect(it[1])
                for _, c in clips:
                    r = r & c
                if r.width > 1 and r.height > 1:
                    out.append(r)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_join_lines_keep_out_of_card_boxes(built, paper):
    """NetMatch's card boxes (stroked rectangles larger than 40 mm both ways) are never crossed by a
    dashed join line: the card is laid in one piece, not across a seam."""
    doc = pymupdf.open(pdf_of(built("netmatch", paper)))
    checked = 0
    for page in doc:
        drawings = page.get_drawings()
        joins = [it for d in drawings if d["type"] == "s" and (d.get("dashes") or "[] 0").strip() != "[] 0"
                 for it in d["items"] if it[0] == "l"]
        if not joins:
            continue
        boxes = [b for b in visible_rects(page)
                 if b.width * MM_PER_PT > 40 and b.height * MM_PER_PT > 40]
        for b in boxes:
            checked += 1
            for _, p, q in joins:
                assert not crosses(((p.x, p.y), (q.x, q.y)), (b.x0, b.y0, b.x1, b.y1)), (
                    f"page {page.number + 1}: join line x {p.x * MM_PER_PT:.1f}..{q.x * MM_PER_PT:.1f} mm, "
                    f"y {p.y * MM_PER_PT:.1f}..{q.y * MM_PER_PT:.1f} mm crosses the card box "
                    f"({b.x0 * MM_PER_PT:.1f}, {b.y0 * MM_PER_PT:.1f}) to ({b.x1 * MM_PER_PT:.1f}, {b.y1 * MM_PER_PT:.1f}) mm")
    assert checked >= 4  # the four card boxes are on the tiled pieces
