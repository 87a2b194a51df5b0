"""Reference renderings of the kits, and the fingerprints of the seed rule texts; regenerated on purpose.

    python3 -m tests.make_references                 # tests/reference/<game>-a4-p2.png from a fresh build
    python3 -m tests.make_references --seeds DIR     # tests/reference/seed-runs/<game>.txt from DIR/*.txt

Run from the repository's root, with pnp installed (the README's test command). The PNGs are what
tests/render/test_reference_pages.py compares each build with: page PAGE of each game's A4 kit, rendered
by pypdfium2 at DPI dots per inch in 8-bit grey. Look at every PNG before committing it.

The kits are built by the ``pnp`` command in a subprocess (``python -m pnp build``), as a user
would, so neither this script nor the test depends on pnp's internal API.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "tests" / "reference"
GAMES = ("nonads", "nooks", "numeria", "netmatch", "nonaga")
PAPER = "a4"
PAGE = 2          # 1-based: the first page after the cover, the first page of parts in every A4 kit
DPI = 30          # A4 at 30 dpi is 248 x 351 pixels
COMMAND = "python3 -m tests.make_references"


def reference_png(game: str) -> Path:
    """Where the reference rendering of ``game`` is kept."""
    return REFERENCE / f"{game}-{PAPER}-p{PAGE}.png"


def build_kits(out: Path, games: tuple[str, ...] = GAMES, *options: str) -> dict[str, Path]:
    """Build the A4 PDF of each of ``games`` into ``out`` with ``python -m pnp build``, adding
    ``options`` to the command: {game: PDF path}.

    Raises:
        RuntimeError: the command fails (its output is in the message) or a PDF is missing.
    """
    env = {**os.environ, "SOURCE_DATE_EPOCH": "946684800", "NO_COLOR": "1", "COLUMNS": "200"}
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "pnp", "-q", "build", *games, "--paper", PAPER,
                           "--format", "pdf", "--out", str(out), *options],
                          capture_output=True, text=True, timeout=600, env=env, cwd=out.parent)
    if proc.returncode != 0:
        raise RuntimeError(f"pnp build exited {proc.returncode}:\n{proc.stdout}{proc.stderr}")
    pdfs = {game: out / game / f"{game}-{PAPER}.pdf" for game in games}
    missing = [str(p) for p in pdfs.values() if not p.is_file()]
    if missing:
        raise RuntimeError(f"pnp build wrote no {', '.join(missing)}")
    return pdfs


def render_page(pdf: Path, page: int = PAGE, dpi: int = DPI):
    """Page ``page`` (1-based) of ``pdf`` as an 8-bit grey PIL image at ``dpi``, on white.

    Raises:
        IndexError: the PDF has fewer pages.
    """
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        if page > len(doc):
            raise IndexError(f"{pdf.name} has {len(doc)} pages, not {page}")
        bitmap = doc[page - 1].render(scale=dpi / 72, grayscale=True, may_draw_forms=False)
        return bitmap.to_pil().convert("L")
    finally:
        doc.close()


def write_references(out: Path) -> list[Path]:
    """Build the kits into ``out`` and write every reference PNG; returns their paths."""
    REFERENCE.mkdir(parents=True, exist_ok=True)
    written = []
    for game, pdf in build_kits(out).items():
        path = reference_png(game)
        render_page(pdf).save(path, optimize=True)
        written.append(path)
    return written


def write_seed_fingerprints(seeds: Path) -> list[Path]:
    """Write tests/reference/seed-runs/<game>.txt from the seed texts in ``seeds``; returns the paths."""
    sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "inputs")]
    import test_rules_text as rt

    rt.SEEDS = seeds
    rt.FINGERPRINTS.mkdir(parents=True, exist_ok=True)
    written = []
    for game in sorted(rt.GAMES):
        prints = rt.seed_fingerprints(rt.seed_file(game).read_text(encoding="utf-8", errors="replace"))
        path = rt.FINGERPRINTS / f"{game}.txt"
        lines = [f"# {game}: the first 8 hex digits of SHA-256 of every run of {rt.OVERLAP_RUN} words of "
                 f"the original rule text (lower case, words joined by one space); tests/inputs/test_rules_text.py.",
                 f"# Written by: {COMMAND} --seeds DIR"]
        lines += [" ".join(prints[i:i + 8]) for i in range(0, len(prints), 8)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, help="folder of the original rule texts: write the "
                        "seed fingerprints from it instead of the reference PNGs")
    args = parser.parse_args(argv)
    if args.seeds is not None:
        if not args.seeds.is_dir():
            parser.error(f"--seeds {args.seeds}: no such folder")
        paths = write_seed_fingerprints(args.seeds)
    else:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="pnp-references-") as tmp:
            paths = write_references(Path(tmp) / "out")
    for path in paths:
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
