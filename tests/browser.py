"""Render an SVG with headless Chromium that sees no installed fonts: what a reader's browser shows
on a machine without Noto Sans.

Chromium comes from Debian's ``chromium`` package (``apt-get install -y chromium``), at
/usr/bin/chromium. Each render starts a new Chromium with a fresh profile (--user-data-dir in a
new temporary folder) and a fontconfig set-up of its own (FONTCONFIG_FILE) that lists no font
directory unless ``font_dirs`` names some, with a fresh fontconfig cache, so only the fonts the SVG
carries itself (``@font-face`` with a data: URL) are drawn as themselves.

    reason = chromium_available()      # None when it can run, else why not
    require_chromium("this test compares ...")   # in a test: skip (or fail in CI) with a clear reason
    render_svg_png("page.svg", "page.png", 800, 600)

Inkscape (``apt-get install -y inkscape``, GPL, for tests only) exports an SVG page to PNG the same
way, with the same fontconfig set-up (``inkscape_png``; ``require_inkscape``).

Without Chromium (or Inkscape) the browser tests skip and the summary says why; with PNP_REQUIRE_BROWSER=1 in the
environment (``.ci/run`` sets it) they fail instead, so CI never passes without having run them.

How the SVG is shown (``mode``):

* ``"inline"`` (default): the SVG's markup inside an HTML page, stretched to the window.
* ``"img"``: an ``<img src=page.svg>`` stretched to the window.
* ``"file"``: the .svg opened as the document itself, at its own size (mm at 96 px per inch), as a
  reader double-clicking it would see it.

How the picture is taken (``method``):

* ``"cdp"`` (default): Chromium is driven over --remote-debugging-pipe (the DevTools protocol, no
  network port): load the page, wait until ``document.fonts`` has loaded every face and two frames
  have been drawn, then capture. With no installed font at all, Chromium 156 fails about one
  load in four to take a data: URL font (the face ends "error" with a NetworkError although all
  its bytes arrived); the page is then loaded again, up to FONT_RETRIES times, and a face that
  still fails raises RuntimeError.
* ``"screenshot"``: the one-shot ``--screenshot`` flag. It does not wait for web fonts: with
  Chromium 156 in several of our runs it captured the text before its data: font was ready (nothing
  drawn, with no installed font to fall back on), even with --virtual-time-budget.

Found with Chromium 156: with *no* font at all (empty fontconfig), text in an SVG shown as an
``<img>`` is never painted, even once its @font-face has loaded (waiting 3 s more changes nothing);
"inline" and "file" paint it. So ``"img"`` needs at least one unrelated font in ``font_dirs``
(e.g. /usr/share/fonts/truetype/dejavu).
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterable

CHROMIUM = "/usr/bin/chromium"
INSTALL = "apt-get install -y chromium"
REQUIRE_ENV = "PNP_REQUIRE_BROWSER"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
         "--force-device-scale-factor=1", "--font-render-hinting=none")
MODES = ("inline", "img", "file")
METHODS = ("cdp", "screenshot")

_FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
{dirs}  <cachedir>{cache}</cachedir>
</fontconfig>
"""

_HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>html, body {{ margin: 0; padding: 0; background: #fff; overflow: hidden; }}
#pnp-svg > svg, #pnp-svg > img {{ display: block; width: {w}px; height: {h}px; }}</style></head>
<body><div id="pnp-svg">{body}</div></body></html>
"""

# resolves once every font face is loaded (or failed), every image decoded, and two frames drawn
_SETTLE_JS = """(async () => {
  const fonts = document.fonts ? [...document.fonts] : [];
  await Promise.all(fonts.map(f => f.load().catch(() => null)));
  if (document.fonts) await document.fonts.ready;
  await Promise.all([...document.images].map(i => i.decode().catch(() => null)));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return fonts.map(f => [f.family, f.status]);
})()"""
FONT_RETRIES = 3


def chromium_available() -> str | None:
    """None when headless Chromium can be run here, else the reason it cannot."""
    if not Path(CHROMIUM).exists():
        return f"there is no {CHROMIUM}"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is not executable"
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{CHROMIUM} --version failed: {exc}"
    if out.returncode != 0 or "Chromium" not in out.stdout:
        return f"{CHROMIUM} --version failed ({out.returncode}): {(out.stderr or out.stdout).strip()[:200]}"
    return None


def require_chromium(what: str) -> None:
    """In a test: return when headless Chromium can run; else skip, naming what is missing, how to
    install it and ``what`` the test checks. With PNP_REQUIRE_BROWSER=1 (set by .ci/run) fail instead.

    Raises:
        pytest's Skipped or Failed outcome when Chromium cannot run.
    """
    _require("headless Chromium", chromium_available(), INSTALL, what)


def _require(tool: str, reason: str | None, install: str, what: str) -> None:
    """Return when ``reason`` is None; else skip naming ``tool``, why it cannot run, how to install
    it and ``what`` the test checks, or fail instead with PNP_REQUIRE_BROWSER=1."""
    import pytest

    if reason is None:
        return
    test = os.environ.get("PYTEST_CURRENT_TEST", "this test").split(" ")[0]  # the summary shows browser.py's line
    message = (f"{test} needs {tool}, which is not installed or cannot run here ({reason}). "
               f"Install it with 'sudo {install}' (Debian, Ubuntu) to run this test; it {what}")
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        pytest.fail(f"{REQUIRE_ENV} is set, so this browser test must run: {message}", pytrace=False)
    pytest.skip(message)


INKSCAPE = "inkscape"
INKSCAPE_INSTALL = "apt-get install -y inkscape"


def inkscape_available() -> str | None:
    """None when Inkscape (1.x, the command-line export) can be run here, else the reason it cannot."""
    exe = shutil.which(INKSCAPE)
    if exe is None:
        return f"there is no {INKSCAPE} on PATH"
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{exe} --version failed: {exc}"
    if out.returncode != 0 or not out.stdout.startswith("Inkscape 1."):
        return f"{exe} --version gave {(out.stdout or out.stderr).strip()[:200]!r}, not Inkscape 1.x"
    return None


def require_inkscape(what: str) -> None:
    """As require_chromium, for Inkscape (GPL; used by the tests only, never by pnp)."""
    _require("Inkscape", inkscape_available(), INKSCAPE_INSTALL, what)


def inkscape_png(svg: Path, png: Path, dpi: int, workdir: Path, font_dirs: Iterable[str | Path] = ()) -> None:
    """Export ``svg``'s page to ``png`` at ``dpi`` with Inkscape seeing only the fonts in ``font_dirs``
    (fontconfig_env), as on a machine without Noto Sans.

    Raises:
        RuntimeError: Inkscape failed or wrote no file (its output in the message).
    """
    env = fontconfig_env(workdir, font_dirs)
    out = subprocess.run([shutil.which(INKSCAPE) or INKSCAPE, str(svg), "--export-type=png", f"--export-dpi={dpi}",
                          f"--export-filename={png}"], capture_output=True, text=True, timeout=300, env=env,
                         stdin=subprocess.DEVNULL, cwd=workdir)
    if out.returncode != 0 or not png.is_file():
        raise RuntimeError(f"inkscape failed ({out.returncode}): {(out.stderr or out.stdout).strip()[-400:]}")


def fontconfig_env(workdir: Path, font_dirs: Iterable[str | Path] = ()) -> dict[str, str]:
    """An environment whose fontconfig sees only ``font_dirs`` (none by default), with a fresh
    cache, config and home under ``workdir``."""
    cache = workdir / "fontconfig-cache"
    cache.mkdir(parents=True, exist_ok=True)
    (workdir / "home").mkdir(exist_ok=True)
    dirs = "".join(f"  <dir>{Path(d).resolve()}</dir>\n" for d in font_dirs)
    conf = workdir / "fonts.conf"
    conf.write_text(_FONTS_CONF.format(dirs=dirs, cache=cache), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FONTCONFIG", "XDG_"))}
    env.update(FONTCONFIG_FILE=str(conf), FONTCONFIG_PATH=str(workdir),
               XDG_CACHE_HOME=str(workdir / "xdg-cache"), XDG_CONFIG_HOME=str(workdir / "xdg-config"),
               XDG_DATA_HOME=str(workdir / "xdg-data"), HOME=str(workdir / "home"))
    return env


def _svg_markup(svg: Path) -> str:
    """The SVG file's text from its root element on (no XML declaration or DOCTYPE)."""
    text = svg.read_text(encoding="utf-8")
    start = text.find("<svg")
    if start < 0:
        raise ValueError(f"{svg} has no <svg> element")
    return text[start:]


def render_svg_png(svg_path: str | Path, out_png: str | Path, width_px: int, height_px: int, *,
                   font_dirs: Iterable[str | Path] = (), mode: str = "inline", method: str = "cdp",
                   timeout: float = 120.0) -> Path:
    """Take a picture of ``svg_path`` with headless Chromium into ``out_png``, ``width_px`` x
    ``height_px`` pixels (device scale 1).

    In the default ``mode="inline"`` (and in ``"img"``) the SVG is stretched to the whole picture,
    aspect kept as its preserveAspectRatio says, so a page in mm fills it whatever its size;
    ``"file"`` opens the .svg itself (see the module notes). Chromium sees no fonts but those in
    ``font_dirs`` (none by default) and whatever the SVG embeds.

    Raises:
        RuntimeError: Chromium is missing, fails, or writes no picture.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    reason = chromium_available()
    if reason:
        raise RuntimeError(reason)
    svg = Path(svg_path).resolve()
    out = Path(out_png).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    w, h = int(width_px), int(height_px)
    work = Path(tempfile.mkdtemp(prefix="pnp-chromium-"))
    try:
        env = fontconfig_env(work, font_dirs)
        if mode == "file":
            url = svg.as_uri()
        else:
            body = _svg_markup(svg) if mode == "inline" else f'<img src="{svg.as_uri()}" alt="">'
            page = work / "page.html"
            page.write_text(_HTML.format(w=w, h=h, body=body), encoding="utf-8")
            url = page.as_uri()
        args = [*FLAGS, f"--user-data-dir={work / 'profile'}", f"--window-size={w},{h}"]
        if method == "screenshot":
            png = _screenshot_flag(args, url, work, env, timeout)
        else:
            png = _screenshot_cdp(args, url, w, h, work, env, timeout)
        out.write_bytes(png)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _screenshot_flag(args: list[str], url: str, work: Path, env: dict, timeout: float) -> bytes:
    shot = work / "shot.png"
    cmd = [CHROMIUM, *args, "--virtual-time-budget=5000", f"--screenshot={shot}", url]
    proc = subprocess.run(cmd, env=env, cwd=work, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    if proc.returncode != 0 or not shot.exists():
        raise RuntimeError(f"chromium exited {proc.returncode} without a screenshot:\n{proc.stderr.strip()[-2000:]}")
    return shot.read_bytes()


class _Pipe:
    """The DevTools protocol over --remote-debugging-pipe: JSON messages ended by NUL bytes,
    Chromium reading commands on its fd 3 and writing answers and events on its fd 4."""

    def __init__(self, cmd: list[str], env: dict, cwd: Path, deadline: float) -> None:
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # move Chromium's ends above 9 so that the shell's "3<&A 4>&B" cannot clobber one with the other
        a = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
        b = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        shell = f'exec 3<&{a} 4>&{b} {a}<&- {b}>&-; exec "$0" "$@"'
        self.log = open(cwd / "chromium.log", "w+b")
        self.proc = subprocess.Popen(["/bin/bash", "-c", shell, *cmd], env=env, cwd=cwd, pass_fds=(a, b),
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        os.close(a)
        os.close(b)
        self.wfd, self.rfd = to_chrome_w, from_chrome_r
        self.deadline = deadline
        self.buf = b""
        self.next_id = 0
        self.events: list[dict] = []

    def _read_message(self) -> dict:
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("chromium did not answer in time")
            ready, _, _ = select.select([self.rfd], [], [], min(left, 1.0))
            if not ready:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"chromium exited {self.proc.returncode}: {self.tail()}")
                continue
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                raise RuntimeError(f"chromium closed the pipe: {self.tail()}")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, name: str) -> dict:
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == name:
                    return self.events.pop(i)
            self.events.append(self._read_message())

    def tail(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace").strip()[-2000:]

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    os.write(self.wfd, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
                except OSError:
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for fd in (self.wfd, self.rfd):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.log.close()


def _screenshot_cdp(args: list[str], url: str, w: int, h: int, work: Path, env: dict, timeout: float) -> bytes:
    pipe = _Pipe([CHROMIUM, *args, "--remote-debugging-pipe", "about:blank"], env, work,
                 time.monotonic() + timeout)
    try:
        targets = pipe.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t.get("type") == "page"), None)
        target = page["targetId"] if page else pipe.call("Target.createTarget", url="about:blank")["targetId"]
        session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        pipe.call("Emulation.setDeviceMetricsOverride", session, width=w, height=h, deviceScaleFactor=1,
                  mobile=False)
        pipe.call("Page.enable", session)
        pipe.call("Page.navigate", session, url=url)
        for attempt in range(FONT_RETRIES + 1):
            pipe.wait_event("Page.loadEventFired")
            faces = pipe.call("Runtime.evaluate", session, expression=_SETTLE_JS, awaitPromise=True,
                              returnByValue=True)["result"].get("value") or []
            failed = [family for family, status in faces if status != "loaded"]
            if not failed:
                break
            if attempt == FONT_RETRIES:
                raise RuntimeError(f"chromium could not load the font face(s) {failed} in {attempt + 1} tries")
            # Chromium 156 with no installed font at all fails now and then to load a data: URL
            # font ("NetworkError" although every byte arrived); loading the page again cures it
            pipe.call("Page.reload", session, ignoreCache=True)
        shot = pipe.call("Page.captureScreenshot", session, format="png",
                         clip={"x": 0, "y": 0, "width": w, "height": h, "scale": 1})
        return base64.b64decode(shot["data"])
    finally:
        pipe.close()


def differing_ink(pdf: str | Path, page_index: int, svgs: Iterable[Path], boxes: Iterable[tuple[float, float, float, float]],
                  px: int, workdir: Path) -> list[float]:
    """For each SVG of ``svgs`` (a page of ``pdf``, drawn by Chromium), the pixels that differ from
    PDFium's render of page ``page_index`` by more than 64 grey levels (both after a 1-pixel blur),
    as a share of the PDF's inked pixels (below 160), counted inside ``boxes`` ((x0, y0, x1, y1) mm
    on the page); ``px`` pixels per mm."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[page_index]
        w_px, h_px = round(page.get_width() * 25.4 / 72 * px), round(page.get_height() * 25.4 / 72 * px)
        rendered = page.render(scale=w_px / page.get_width()).to_pil().convert("L")
    finally:
        doc.close()

    def grey(im):
        return np.asarray(im.resize((w_px, h_px)).filter(ImageFilter.GaussianBlur(1)), dtype=np.int16)
    want = grey(rendered)
    cuts = [(slice(round(y0 * px), round(y1 * px)), slice(round(x0 * px), round(x1 * px))) for x0, y0, x1, y1 in boxes]
    shares = []
    for i, svg in enumerate(svgs):
        got = grey(Image.open(render_svg_png(svg, workdir / f"{Path(svg).stem}-{i}.png", w_px, h_px)).convert("L"))
        diff, ink = np.abs(got - want) > 64, want < 160
        shares.append(sum(float(diff[c].sum()) for c in cuts) / sum(float(ink[c].sum()) for c in cuts))
    return shares
