"""Every page of every kit renders the same before and after a change.

    python -m bench.samepixels render ROOT OUTDIR     # build the kits with the pnp in ROOT, render them
    python -m bench.samepixels compare BEFORE AFTER   # compare two renders pixel by pixel

``render`` builds every game in each configuration of CONFIGS (PDF and SVG) with the pnp found in
ROOT (a checkout: run it once for the tree before a change and once after), then renders every PDF
page at 100 dpi with pypdfium2 and every SVG page at 100 dpi with cairosvg, as PNG files under
OUTDIR. ``compare`` checks that both renders hold the same pages and that every page has exactly the
same pixels (a difference of at most TOLERANCE levels is reported and allowed), and that every PDF of AFTER passes ``qpdf --check``; it prints one line per
configuration and exits 1 on any difference.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFIGS = {
    "a4": [],
    "letter-short": ["--paper", "letter", "--duplex", "short"],
    "a3": ["--paper", "a3"],
    "a4-bleed3-long": ["--bleed", "3", "--duplex", "long"],
    "a4-fold": ["--duplex", "fold"],
}
DPI = 100
TOLERANCE = 2  # /255 per channel: pdfium composes a Form XObject's matrix in its own float order, so an
               # anti-aliased edge of a placed form may land a level or two off (measured; nothing visible)


def render(root: Path, out: Path) -> None:
    import pypdfium2 as pdfium
    import cairosvg
    env = dict(os.environ, PYTHONPATH=str(root.resolve()))
    for name, args in CONFIGS.items():
        kits = out / name / "kits"
        if kits.exists():
            shutil.rmtree(kits)
        subprocess.run([sys.executable, "-m", "pnp", "-q", "build", "--out", str(kits), "--format", "pdf,svg", *args],
                       env=env, check=True, cwd=root)
        png = out / name / "png"
        png.mkdir(parents=True, exist_ok=True)
        for pdf in sorted(kits.glob("*/*.pdf")):
            doc = pdfium.PdfDocument(str(pdf))
            for i in range(len(doc)):
                doc[i].render(scale=DPI / 72).to_pil().convert("RGB").save(png / f"{pdf.stem}-p{i + 1:03d}.png")
            doc.close()
        for svg in sorted(kits.glob("*/svg/*.svg")):
            cairosvg.svg2png(url=str(svg), write_to=str(png / f"{svg.stem}.svg.png"), dpi=DPI)


def compare(before: Path, after: Path) -> int:
    import numpy as np
    from PIL import Image
    bad = worst = 0
    for name in CONFIGS:
        a, b = before / name / "png", after / name / "png"
        names_a = sorted(p.name for p in a.glob("*.png"))
        names_b = sorted(p.name for p in b.glob("*.png"))
        if names_a != names_b or not names_a:
            print(f"{name}: page sets differ ({len(names_a)} before, {len(names_b)} after)")
            bad += 1
            continue
        diff = []
        for n in names_a:
            x = np.asarray(Image.open(a / n).convert("RGB"), dtype=np.int16)
            y = np.asarray(Image.open(b / n).convert("RGB"), dtype=np.int16)
            if x.shape != y.shape:
                diff.append((n, "the page size", 255))
            elif (x != y).any():
                d = np.abs(x - y).max(axis=2)
                diff.append((n, f"{int((d > 0).sum())} pixels", int(d.max())))
        pdfs = sorted((after / name / "kits").glob("*/*.pdf"))
        qpdf = [p.name for p in pdfs if subprocess.run(["qpdf", "--check", str(p)], capture_output=True).returncode]
        pages = sum(1 for n in names_a if not n.endswith(".svg.png"))
        most = max((d[2] for d in diff), default=0)
        print(f"{name}: {pages} PDF pages and {len(names_a) - pages} SVG pages compared, {len(diff)} differ "
              f"(at most {most}/255 in a channel); {len(pdfs)} PDFs, qpdf --check failed on {len(qpdf)}")
        for n, what, level in diff:
            print(f"   {n}: {what} differ, by at most {level}/255")
        for p in qpdf:
            print(f"   qpdf --check failed: {p}")
        worst = max(worst, most)
        bad += bool(qpdf) or most > TOLERANCE
    print(f"largest difference {worst}/255 (allowed: {TOLERANCE}/255, anti-aliasing rounding)")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "render":
        render(Path(argv[1]), Path(argv[2]))
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
