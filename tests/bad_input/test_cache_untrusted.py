"""The font cache in OUT/.pnp/cache is untrusted: an entry is used only if it is
a regular file under the size bound whose content hashes to its name and has the shape pnp writes;
planted CSS never reaches an SVG, a FIFO does not hang the build, a symlink to a big file is not read."""
from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir

from pnp.pipeline.execute import build_kit
from pnp.core.fontbook import FontBook
from pnp.render import fontcache

from sentinel import make_sentinel, tree_hash

SVG = "{http://www.w3.org/2000/svg}"
GOOD = re.compile(r"@font-face \{ font-family: 'pnp (Noto Sans|NotoSans-Bold|NotoSans-Italic|NotoSans-BoldItalic)'; "
                  r"font-style: (normal|italic); font-weight: (400|700); "
                  r"src: url\(data:font/woff2;base64,[A-Za-z0-9+/]+={0,2}\) format\('woff2'\); \}")
PLANTS = [
    "svg * {display: none}",
    "@import url(http://example.invalid/evil.css);",
    None,   # a real entry with an @import appended (filled in below)
    "@font-face { font-family: 'pnp Noto Sans'; font-style: normal; font-weight: 400; "
    "src: url(data:font/woff2;base64," + base64.b64encode(b"not a font at all").decode() + ") format('woff2'); }",
]

# The questions example prints Greek and Cyrillic. With the shipped font chunks (pnp.render.fontchunks)
# its pages need no subset; these tests set the chunks aside (each build in a font book whose chunk
# folder holds none, as when the installed font package is another version than the chunks were made
# from, or for a spec's own font), so its SVG pages get font subsets made by fontTools and kept in the cache.
TARGET = str(specs_dir() / "questions")


@pytest.fixture
def no_chunks(tmp_path, monkeypatch) -> Path:
    """An empty folder to read the built-in faces' chunk files from (FontBook.chunk_folder)."""
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    folder = tmp_path / "no-chunks"
    folder.mkdir()
    return folder


def _build(out: Path, no_chunks: Path) -> FontBook:
    """Build the questions deck (SVG) into ``out`` in a font book of its own (nothing in memory: as a
    new process, only the disk cache), the shipped chunks set aside; the book."""
    with FontBook(chunk_folder=no_chunks).in_use() as book:
        build_kit(TARGET, formats=("svg",), out=out)
    return book


def _entries(out: Path) -> list[Path]:
    return sorted((out / ".pnp" / "cache").glob("font-*.css"))


def _styles(kit: Path) -> list[str]:
    found = []
    for svg in sorted((kit / "svg").glob("*.svg")):
        root = ElementTree.parse(svg).getroot()
        found += [el.text or "" for el in root.iter(f"{SVG}style")]
    return found


def _populated(out: Path, no_chunks: Path) -> list[Path]:
    assert _build(out, no_chunks).made["subset"] > 0
    entries = _entries(out)
    assert entries, "the build kept no font subset in OUT/.pnp/cache"
    return entries


def _plant(path: Path, text: str) -> Path:
    """Replace the entry ``path`` by ``text`` under a name that is the true hash of ``text`` (so only
    the content checks can refuse it), keeping the key part of the name."""
    key = path.name.split("-")[1]
    data = text.encode()
    path.unlink()
    planted = path.with_name(f"font-{key}-{hashlib.sha256(data).hexdigest()}.css")
    planted.write_bytes(data)
    return planted


def test_planted_css_never_reaches_an_svg(tmp_path, no_chunks):
    out = tmp_path / "out"
    entries = _populated(out, no_chunks)
    planted = []
    for i, entry in enumerate(entries):
        text = PLANTS[i % len(PLANTS)]
        if text is None:
            text = entry.read_text() + "\n@import url(http://example.invalid/evil.css);"
        planted.append(_plant(entry, text))
    # a tampered entry keeping its (now wrong) hash name
    if len(entries) > 1:
        name = planted[-1].name
        wrong = planted[-1].with_name(name[:-5] + ("0" if name[-5] != "0" else "1") + ".css")
        planted[-1].rename(wrong)
        planted[-1] = wrong
    _build(out, no_chunks)
    styles = _styles(out / "questions")
    assert styles
    for css in styles:
        assert GOOD.fullmatch(css.strip()), css[:200]
        assert "display" not in css and "@import" not in css and "http" not in css
    assert not any(p.exists() for p in planted)           # bad entries were removed
    for entry in _entries(out):                             # and what is left is good
        data = entry.read_bytes()
        assert entry.name == f"font-{entry.name.split('-')[1]}-{hashlib.sha256(data).hexdigest()}.css"
        assert GOOD.fullmatch(data.decode())


def test_valid_entry_checks_name_hash_shape_and_payload():
    css = fontcache.font_css(frozenset("ab"))
    data = css.encode()
    name = f"font-{'0' * 32}-{hashlib.sha256(data).hexdigest()}.css"
    assert fontcache.valid_entry(name, data) == css
    assert fontcache.valid_entry(name, data + b" ") is None                    # hash differs
    assert fontcache.valid_entry(name.replace("font-", "x-"), data) is None     # not a cache name
    evil = data.replace(b"font-style: normal;", b"font-style: normal; } svg * { display: none;")
    evil_name = f"font-{'0' * 32}-{hashlib.sha256(evil).hexdigest()}.css"
    assert fontcache.valid_entry(evil_name, evil) is None


def test_an_italic_subset_is_cached_on_disk_and_read_back(tmp_path, monkeypatch):
    """The italic face's @font-face goes to the disk cache under a key of its own (not the regular
    face's for the same characters) and a fresh process state reads the same rule back from it."""
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    cache = tmp_path / "cache"
    with FontBook().in_use():
        italic = fontcache.font_css(frozenset("ab"), cache=cache, face="NotoSans-Italic")
        regular = fontcache.font_css(frozenset("ab"), cache=cache)
    assert "font-style: italic" in italic and "font-style: normal" in regular
    entries = sorted(cache.iterdir())
    assert len(entries) == 2 and len({e.name.split("-")[1] for e in entries}) == 2
    assert all(fontcache.valid_entry(e.name, e.read_bytes()) for e in entries)
    with FontBook().in_use() as book:  # a new build's book: only the disk cache
        assert fontcache.font_css(frozenset("ab"), cache=cache, face="NotoSans-Italic") == italic
    assert book.made["subset"] == 0  # read from the cache, not made


def _run_build(out: Path, no_chunks: Path, timeout: float = 240) -> tuple[int, str, int]:
    """Build the questions deck (SVG) in a child process under a timeout, the shipped chunks set aside
    (the CLI's build runs in the font book the child entered); (exit code, stderr, peak RSS in MiB)."""
    pnp = ("import runpy\nfrom pnp.core.fontbook import FontBook\n"
           f"with FontBook(chunk_folder={str(no_chunks)!r}).in_use():\n"
           "    runpy.run_module('pnp', run_name='__main__', alter_sys=True)\n")
    code = ("import resource, subprocess, sys\n"
            f"r = subprocess.run([sys.executable, '-c', {pnp!r}, 'build', {TARGET!r}, '--format', 'svg', "
            f"'--out', {str(out)!r}], capture_output=True, text=True, timeout={timeout})\n"
            "sys.stderr.write(r.stderr)\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    env = {k: v for k, v in os.environ.items() if k != "PNP_CACHE_DIR"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout + 30,
                          env=env)
    assert proc.returncode == 0 and proc.stdout, f"the build did not finish in {timeout} s: {proc.stderr[-2000:]}"
    rc, peak_kib = proc.stdout.split()
    return int(rc), proc.stderr, int(peak_kib) // 1024


def test_a_fifo_in_the_cache_does_not_hang_the_build(tmp_path, no_chunks):
    out = tmp_path / "out"
    entries = _populated(out, no_chunks)
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry)
    rc, err, _ = _run_build(out, no_chunks)             # subprocess.run's timeout fails the test if it hangs
    assert rc == 0, err
    assert "Traceback" not in err
    assert _styles(out / "questions") and all(GOOD.fullmatch(s.strip()) for s in _styles(out / "questions"))


def test_a_symlink_to_a_large_file_is_not_read(tmp_path, no_chunks):
    out = tmp_path / "out"
    sentinel = make_sentinel(tmp_path / "outside")
    big = sentinel / "big.bin"
    with open(big, "wb") as f:                # 1.5 GiB, sparse: costs no disk, but reading it would
        f.truncate(1536 << 20)
    before = tree_hash(sentinel)
    entries = _populated(out, no_chunks)
    for i, entry in enumerate(entries):
        entry.unlink()
        if i % 2:
            os.symlink(big, entry)
        else:
            with open(entry, "wb") as f:      # a regular file over the size bound
                f.truncate(1536 << 20)
    rc, err, peak = _run_build(out, no_chunks)
    assert rc == 0, err
    assert peak < 700, f"peak RSS {peak} MiB: the big file was read"
    assert tree_hash(sentinel) == before
    assert big.stat().st_size == 1536 << 20
