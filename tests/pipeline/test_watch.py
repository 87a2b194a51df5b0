"""`pnp watch` rebuilds after a real edit, keeps the last good kit after a bad edit, and stops cleanly
on Ctrl-C. A real subprocess, real file edits, bounded waits."""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir
from conftest import sigint_default

WAIT = 60.0  # s: generous bound for a slow CI machine; the test normally takes about 5 s


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _until(predicate, what: str, lines: list[str]) -> None:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; output so far:\n" + "".join(lines))


def test_watch_rebuilds_on_edit_keeps_last_good_kit_and_stops_on_ctrl_c(tmp_path):
    spec = tmp_path / "nonads.yaml"
    original = (builtin_spec("nonads")).read_text(encoding="utf-8")
    spec.write_text(original, encoding="utf-8")
    (tmp_path / "rules.md").write_text((builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    out = tmp_path / "out"
    pdf = out / "nonads" / "nonads-a4.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(spec), "-o", str(out), "-f", "pdf",
                             "--debounce", "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        assert pdf.is_file() and any("nonads: 2 pages" in ln and "checks: pass" in ln for ln in lines)
        first = _sha(pdf)

        spec.write_text(original.replace("tile_size: 30mm", "tile_size: 28mm"), encoding="utf-8")
        _until(lambda: pdf.is_file() and _sha(pdf) != first, "the rebuild after an edit", lines)
        _until(lambda: sum("nonads: 2 pages" in ln for ln in lines) >= 2, "the rebuild report", lines)
        assert any("changed: nonads.yaml" in ln for ln in lines)
        good = _sha(pdf)

        spec.write_text(original.replace("tile_size: 30mm", "tile_size: -5mm"), encoding="utf-8")
        _until(lambda: any(ln.startswith("error:") for ln in lines), "the error after a bad edit", lines)
        assert any("tile_size" in ln and "last good kit is kept" in ln for ln in lines)
        assert _sha(pdf) == good

        (tmp_path / "rules.md").write_text(
            (builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8") + "- One more house rule.\n",
            encoding="utf-8")
        spec.write_text(original, encoding="utf-8")
        _until(lambda: _sha(pdf) not in (good, first), "the rebuild after the fix", lines)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=WAIT)
        finally:
            proc.kill()
    err = proc.stderr.read()
    assert code == 0 and "Traceback" not in err, err


def _watch(tmp_path: Path, *targets: str, debounce: str = "50") -> tuple[subprocess.Popen, list[str]]:
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", *targets, "-o", str(tmp_path / "out"), "-f", "pdf",
                             "--debounce", debounce], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=sigint_default,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    return proc, lines


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_watch_converges_on_the_last_save_after_a_burst(tmp_path):
    """50 saves a second for 3 s, every third one broken YAML: the kit on disk ends up built from the
    last save (its tile size, read back from the manifest the build wrote), not from an earlier one."""
    spec = tmp_path / "nonads.yaml"
    original = (builtin_spec("nonads")).read_text(encoding="utf-8")
    spec.write_text(original, encoding="utf-8")
    manifest = tmp_path / "out" / "nonads" / "manifest-a4.json"
    proc, lines = _watch(tmp_path, str(spec))
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        sizes = [20 + (i % 15) for i in range(150)]
        for i, size in enumerate(sizes):
            text = original.replace("tile_size: 30mm", f"tile_size: {size}mm")
            if i % 3 == 1:
                text += "\nbroken: [\n"
            tmp = spec.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, spec)  # an editor's atomic save
            time.sleep(0.02)
        last = 34
        spec.write_text(original.replace("tile_size: 30mm", f"tile_size: {last}mm"), encoding="utf-8")

        def built_from_last() -> bool:
            try:
                data = __import__("json").loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return False
            return data["components"][0]["trim_mm"] == [float(last), float(last)]
        _until(built_from_last, f"the kit built from the last save ({last} mm tiles)", lines)
    finally:
        _stop(proc)


def test_a_save_during_a_build_starts_another_build(tmp_path):
    """A save made while a (slow) build runs is built when that build ends, without another save."""
    words = tmp_path / "words.txt"
    letters = "ABCDEFGHIJKLMNOP"
    deck = ["".join((letters[i % 16], letters[i // 16 % 16], letters[i // 256 % 16], "Z")) for i in range(3000)]
    words.write_text("\n".join(deck) + "\n", encoding="utf-8")
    spec = tmp_path / "netmatch.yaml"
    text = (builtin_spec("netmatch")).read_text(encoding="utf-8")
    text = text.replace("words: netmatch-words.txt", "words: words.txt").replace("expected_words: 75", "expected_words: null")
    spec.write_text(text, encoding="utf-8")
    manifest = tmp_path / "out" / "netmatch" / "manifest-a4.json"
    proc, lines = _watch(tmp_path, str(spec))
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        first = manifest.read_bytes()
        words.write_text("\n".join(deck[:-1]) + "\nQQQQ\nRRRR\n", encoding="utf-8")  # starts a rebuild
        _until(lambda: any("rebuilding" in ln for ln in lines), "the rebuild to start", lines)
        time.sleep(0.2)
        words.write_text("\n".join(deck[:10]) + "\n", encoding="utf-8")  # saved while that rebuild runs

        def ten_cards() -> bool:
            try:
                data = __import__("json").loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return False
            return next(c["count"] for c in data["components"] if c["name"] == "word card") == 10
        _until(ten_cards, "the kit built from the save made during the rebuild", lines)
        assert manifest.read_bytes() != first
    finally:
        _stop(proc)


def test_watch_of_an_unknown_game_or_missing_spec_exits_2_at_once(tmp_path):
    for target in ("chess", str(tmp_path / "nonexistent" / "x.yaml")):
        r = subprocess.run([sys.executable, "-m", "pnp", "watch", target, "-o", str(tmp_path / "out")],
                           capture_output=True, text=True, timeout=WAIT)
        assert r.returncode == 2, (target, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr and target.split("/")[-1] in r.stderr


def _language_deck(folder: Path) -> Path:
    """A deck built in English and German: one card whose German name is a cell of its own."""
    folder.mkdir()
    (folder / "deck.yaml").write_text("title: Deck\nlanguages: [en, de]\ncomponents:\n"
                                      "  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n")
    (folder / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12}\n")
    (folder / "cards.csv").write_text("name,name@de\nHouse,Haus\n")
    rules = ("# Deck\nA deck.\n\n" + "".join(f"## {h}\nWords.\n\n" for h in
                                             ("Components", "Setup", "A turn", "End and winner", "Fine points")))
    (folder / "rules.md").write_text(rules)
    return folder / "deck.yaml"


def _generations(kit: Path) -> int:
    """How many builds of a kit its history holds (each build writes the whole kit and one manifest)."""
    return len(list((kit / "history").glob("manifest-a4-g*.json"))) if (kit / "history").is_dir() else 0


def _pdf_words(pdf: Path) -> set[str]:
    from pypdf import PdfReader
    return {w for page in PdfReader(pdf).pages for w in page.extract_text().split()}


def test_watch_rebuilds_every_language_kit_or_only_the_one_of_lang(tmp_path):
    """A spec with languages: [en, de]: the first round builds both kits, an edit rebuilds both (each
    written whole, its history one generation longer, the German one with the new word), and each
    report line names its language; with --lang de only the German kit is built and rebuilt."""
    spec = _language_deck(tmp_path / "deck")
    out = tmp_path / "out"
    english, german = out / "deck", out / "deck-de"
    proc, lines = _watch(tmp_path, str(spec))
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        assert _generations(english) == _generations(german) == 1
        assert any(ln.startswith("deck (en): ") for ln in lines) and any(ln.startswith("deck-de (de): ") for ln in lines)
        (spec.parent / "cards.csv").write_text("name,name@de\nHouse,Hausboot\n")
        _until(lambda: _generations(english) == _generations(german) == 2, "both kits rebuilt", lines)
        _until(lambda: "Hausboot" in _pdf_words(german / "deck-de-a4.pdf"), "the German kit's new word", lines)
        assert "House" in _pdf_words(english / "deck-a4.pdf") and "Hausboot" not in _pdf_words(english / "deck-a4.pdf")
    finally:
        _stop(proc)
    proc, lines = _watch(tmp_path, str(spec), "--lang", "de")
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build with --lang de", lines)
        (spec.parent / "cards.csv").write_text("name,name@de\nHouse,Baumhaus\n")
        _until(lambda: "Baumhaus" in _pdf_words(german / "deck-de-a4.pdf"), "the German kit rebuilt", lines)
        assert _generations(german) == 4 and _generations(english) == 2  # the English kit left alone
        assert not any(ln.startswith("deck (en)") for ln in lines)
    finally:
        _stop(proc)


def test_the_preview_shows_each_language_kit_of_a_target():
    """The live preview (pnp.pipeline.serve) keeps one view per kit: a target's first kit in its
    place, its other language kits after the targets, each with its own folder."""
    from pnp.pipeline.serve import PreviewState
    state = PreviewState(["deck.yaml", "other.yaml"])
    for kit, folder in enumerate(("deck", "deck-de")):
        state.kit_ok(0, f"Deck {kit}", Path(folder), {"files": [{"path": f"{folder}-a4.pdf"}]}, "pass", kit=kit)
    state.kit_ok(0, "Deck again", Path("deck-de"), {"files": []}, "pass", kit=1)  # the next round: the same view
    _, views = state.snapshot()
    assert [(v.target, v.folder) for v in views] == [("deck.yaml", Path("deck")), ("other.yaml", None),
                                                     ("deck.yaml", Path("deck-de"))]
    assert views[2].title == "Deck again" and views[0].files == ("deck-a4.pdf",)
