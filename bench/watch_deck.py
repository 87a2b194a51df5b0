"""The watch harness's deck: 400 cards, each with its own picture (bench/watch_edit.py)."""
from __future__ import annotations

import csv
from pathlib import Path

CARDS = 400
SPEC = """title: Watch deck
designer: pnp bench
components:
  - name: picture card
    size: poker
    data: deck.csv
    front: front.yaml
    back: back.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: image, src: "art/{pic}", x: 4mm, y: 12mm, w: 55mm, h: 55mm, fit: cover, min_dpi: 100}
  - {type: text, text: "{name}", x: 4mm, y: 3mm, w: 55mm, h: 8mm, size: 16, min_size: 8, fit: shrink, bold: true,
     align: center, valign: middle}
  - {type: text, text: "{rule}", x: 4mm, y: 69mm, w: 55mm, h: 16mm, size: 9, min_size: 5, fit: shrink, wrap: true,
     align: center}
"""
BACK = """layers:
  - {type: rect, fill: "#224466", bleed: true}
  - {type: text, text: "Watch deck", x: 4mm, y: 40mm, w: 55mm, h: 10mm, size: 18, align: center, colour: "#ffffff"}
"""
RULES = ("# Watch deck\nA deck made to time pnp watch.\n\n## Components\n- 400 picture cards.\n\n## Setup\nNone.\n\n"
         "## A turn\nNone.\n\n## End and winner\nNone.\n\n## Fine points\n- None.\n")
SIDE = 660  # px: 300 dpi over 55 mm is 650


def picture(i: int):
    """Picture ``i``: a gradient with a band whose place depends on ``i`` (every one distinct)."""
    from PIL import Image, ImageDraw
    im = Image.linear_gradient("L").resize((SIDE, SIDE)).convert("RGB")
    draw = ImageDraw.Draw(im)
    draw.rectangle((0, (i * 7) % SIDE, SIDE, (i * 7) % SIDE + 40), fill=((i * 37) % 256, (i * 91) % 256, 120))
    draw.ellipse((i % 300, i % 200, i % 300 + 200, i % 200 + 200), fill=(200, (i * 13) % 256, (i * 5) % 256))
    return im


def make_deck(folder: Path, cards: int = CARDS) -> Path:
    """The deck folder (spec ``watch-deck.yaml``, templates, rules, ``deck.csv``, ``art/pNNN.jpg``); returns the spec."""
    (folder / "art").mkdir(parents=True, exist_ok=True)
    (folder / "watch-deck.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "back.yaml").write_text(BACK, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    with (folder / "deck.csv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "pic", "rule"])
        for i in range(cards):
            out.writerow([f"Card {i + 1}", f"p{i:03d}.jpg", f"Rule of card {i + 1}: draw two, then discard one."])
            path = folder / "art" / f"p{i:03d}.jpg"
            if not path.exists():
                picture(i).save(path, quality=85)
    return folder / "watch-deck.yaml"
