"""The embedded SVG font subsets (@font-face CSS per character set), cached in memory and, between
builds, in a folder inside --out (OUT/.pnp/cache, set by pnp.build.plan): nothing outside --out is written.
Subsetting with fontTools takes about 0.4 s per new character set, so the disk cache is what keeps a
cold build fast. A cached file is used only if it looks like what this module writes.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

_CSS: dict[frozenset, str] = {}
_DISK: dict[str, Path | None] = {"dir": None}


def set_cache_dir(folder: Path | None) -> None:
    """Keep font subsets in ``folder`` between runs (pnp.build.plan passes OUT/.pnp/cache, so nothing
    outside --out is written); None keeps them in memory only."""
    _DISK["dir"] = folder


def _cache_dir() -> Path | None:
    """Where font subsets are kept between runs: $PNP_CACHE_DIR when set (empty turns the disk cache
    off), else the folder set_cache_dir() named, else none."""
    env = os.environ.get("PNP_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    return _DISK["dir"]


def _css_key(chars: frozenset) -> str:
    """What the subset depends on: the font file, fontTools's version, svgfont's code, the characters."""
    from importlib.util import find_spec

    from ..core.fonts import font_path
    font = font_path()
    h = hashlib.sha256()
    stat = font.stat()
    h.update(f"{font}|{stat.st_size}|{stat.st_mtime_ns}|".encode())
    h.update(Path(find_spec("fontTools").origin).read_bytes())  # its version
    h.update(Path(__file__).with_name("svgfont.py").read_bytes())
    h.update("".join(sorted(chars)).encode("utf-8"))
    return h.hexdigest()[:32]


def font_css(chars: frozenset, base: frozenset = frozenset()) -> str:
    """The @font-face rule for a page using ``chars`` (svgfont.font_face_css(base | chars)), from
    memory, else the disk cache, else made (fontTools subsetting: about 0.4 s) and cached. The same
    characters give the same string on every run."""
    key = base | chars
    css = _CSS.get(key)
    if css is not None:
        return css
    folder = _cache_dir()
    path = None
    if folder is not None:
        try:
            path = folder / f"font-{_css_key(key)}.css"
            css = path.read_text(encoding="ascii")
            if not css.startswith("@font-face {") or "<" in css or "&" in css:
                css = None  # not what this code writes: make it afresh
        except (OSError, ValueError):
            css = None
    if css is None:
        from .svgfont import font_face_css
        css = font_face_css(key)
        if path is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f".{path.name}.{os.getpid()}")
                tmp.write_text(css, encoding="ascii")
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only folder: no disk cache, same output
    _CSS[key] = css
    return css
