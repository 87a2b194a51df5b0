"""`pnp watch` on a bad spec waits for the fix whether the target is the game folder or the spec file, and saves
made during a build are rebuilt once they stop (debounced), not once per build. A real subprocess, real saves."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from test_watch import _stop, _until, _watch

RULES = ("# Deck\nA deck.\n\n" + "".join(f"## {h}\nWords.\n\n" for h in
                                         ("Components", "Setup", "A turn", "End and winner", "Fine points")))


def _deck(folder: Path, title: str = "Deck") -> Path:
    folder.mkdir()
    (folder / f"{folder.name}.yaml").write_text(f"title: {title}\ncomponents:\n"
                                                "  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n")
    (folder / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12}\n")
    (folder / "cards.csv").write_text("name\nHouse\n")
    (folder / "rules.md").write_text(RULES)
    return folder / f"{folder.name}.yaml"


@pytest.mark.parametrize("as_folder", [True, False], ids=["folder", "spec-file"])
def test_watch_of_a_bad_spec_waits_for_the_fix(tmp_path, as_folder):
    spec = _deck(tmp_path / "deck")
    good = spec.read_text()
    spec.write_text(good.replace("title: Deck", "title: [Deck"))  # malformed YAML from the start
    proc, lines = _watch(tmp_path, str(spec.parent if as_folder else spec))
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the watch to start on a bad spec", lines)
        assert proc.poll() is None, "".join(lines)  # still running
        assert any(ln.startswith("error:") and "deck.yaml, line 2" in ln for ln in lines), "".join(lines)
        spec.write_text(good)
        pdf = tmp_path / "out" / "deck" / "deck-a4.pdf"
        _until(pdf.is_file, "the kit built after the fix", lines)
    finally:
        _stop(proc)


def _generations(kit: Path) -> int:
    return len(list((kit / "history").glob("manifest-a4-g*.json"))) if (kit / "history").is_dir() else 0


def test_saves_during_builds_are_debounced(tmp_path):
    """200 saves 10 ms apart (2 s), with --debounce 300: the rebuilds are at most one per debounce interval of
    the burst and one after it (each build writes one history manifest: counted there), and the last kit
    holds the last save's card count."""
    spec = _deck(tmp_path / "deck")
    data = spec.parent / "cards.csv"
    debounce_ms = 300
    proc, lines = _watch(tmp_path, str(spec), debounce=str(debounce_ms))
    kit = tmp_path / "out" / "deck"
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        before = _generations(kit)
        saves, gap = 200, 0.010
        start = time.monotonic()
        for i in range(saves):
            tmp = data.with_suffix(".tmp")
            tmp.write_text("name\n" + "".join(f"Card {j}\n" for j in range(1 + i % 7 + (i == saves - 1) * 10)))
            os.replace(tmp, data)
            time.sleep(gap)
        burst = time.monotonic() - start
        last = 1 + (saves - 1) % 7 + 10

        def built_from_last() -> bool:
            try:
                doc = json.loads((kit / "manifest-a4.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return False
            return doc["components"][0]["count"] == last
        _until(built_from_last, f"the kit of the last save ({last} cards)", lines)
        time.sleep(3 * debounce_ms / 1000)  # nothing more is coming
        rebuilds = _generations(kit) - before
        bound = int(burst * 1000 / debounce_ms) + 2
        assert 1 <= rebuilds <= bound, (rebuilds, bound, "".join(lines))
    finally:
        _stop(proc)
