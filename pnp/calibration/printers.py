"""Printers whose duplex offset was measured: ``pnp calibrate --measure ... --save-printer NAME``
keeps it, ``pnp build --printer NAME`` applies it.

Kept in ``printers.json`` in the user's configuration folder (platformdirs: ~/.config/pnp on Linux,
honouring $XDG_CONFIG_HOME; ~/Library/Application Support/pnp on macOS; %APPDATA%\\pnp on Windows),
replaced in one step (pnp.core.safepath.write_atomic). Shape::

    {"version": 1, "printers": {"office": {"long": {"back_offset": [1.5, -0.4], "paper": "a4",
                                                    "measured": "2026-12-02"}, "short": {...}}}}

The file is read back as untrusted input: a regular file of at most MAX_BYTES, JSON, the shape above
and nothing else, at most MAX_PRINTERS names (NAME_RULE), each offset finite and at most
MAX_BACK_OFFSET mm; anything else is refused naming the file and the field.
"""
from __future__ import annotations

import datetime
import json
import math
import re
from pathlib import Path

import platformdirs

from ..core.errors import PnpError
from ..core.safepath import write_atomic
from ..inputs.safefile import NotRegular, read_regular
from ..layout.options import MAX_BACK_OFFSET

FILE = "printers.json"
MAX_BYTES = 64 * 1024
MAX_PRINTERS = 100
NAME_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}\Z")
EDGES = ("long", "short")


def config_folder() -> Path:
    """The user's configuration folder for pnp (platformdirs.user_config_dir("pnp"))."""
    return Path(platformdirs.user_config_dir("pnp", appauthor=False))


def check_name(name: str, field: str) -> str:
    """``name`` if it is a printer name (NAME_RULE).

    Raises:
        PnpError: it is not (field ``field``)."""
    if not NAME_RULE.match(name):
        raise PnpError(f"printer name {name!r} is not 1-40 letters, digits, '.', '_' or '-' (starting with a letter "
                       "or digit).", field=field, hint="name it e.g. office or home-laser")
    return name


class PrinterStore:
    """The printers kept in ``folder/printers.json`` (default: config_folder())."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else config_folder()
        self.path = self.folder / FILE

    def load(self) -> dict[str, dict[str, dict]]:
        """Every printer: name -> flip edge -> {"back_offset": (dx, dy), "paper": str, "measured": str};
        {} when there is no file yet.

        Raises:
            PnpError: the file cannot be read, is too large, is not JSON or not of the shape above.
        """
        try:
            raw = read_regular(self.path, MAX_BYTES)
        except FileNotFoundError:
            return {}
        except (NotRegular, OSError) as exc:
            raise PnpError(f"cannot be read: {exc}.", file=self.path, hint="remove it and measure again") from None
        if len(raw) > MAX_BYTES:
            raise PnpError(f"is more than {MAX_BYTES // 1024} KiB.", file=self.path, hint="remove it and measure again")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise PnpError(f"is not JSON ({exc}).", file=self.path, hint="remove it and measure again") from None
        return self._checked(data)

    def _checked(self, data) -> dict[str, dict[str, dict]]:
        def bad(field: str, what: str) -> PnpError:
            return PnpError(what, file=self.path, field=field, hint="remove the file (or that printer) and measure "
                                                                    "again with pnp calibrate --measure")
        if not isinstance(data, dict) or data.get("version") != 1 or set(data) != {"version", "printers"}:
            raise bad("version", "is not a pnp printers file (expected {\"version\": 1, \"printers\": {...}}).")
        printers = data["printers"]
        if not isinstance(printers, dict) or len(printers) > MAX_PRINTERS:
            raise bad("printers", f"must map at most {MAX_PRINTERS} printer names to their offsets.")
        result = {}
        for name, edges in printers.items():
            if not isinstance(name, str) or not NAME_RULE.match(name):
                raise bad("printers", f"printer name {str(name)[:40]!r} is not a printer name.")
            if not isinstance(edges, dict) or not edges or not set(edges) <= set(EDGES):
                raise bad(f"printers.{name}", "must map long and/or short to a measurement.")
            result[name] = {}
            for edge, entry in edges.items():
                field = f"printers.{name}.{edge}"
                if not isinstance(entry, dict) or set(entry) != {"back_offset", "paper", "measured"}:
                    raise bad(field, "must hold back_offset, paper and measured, and nothing else.")
                off = entry["back_offset"]
                if (not isinstance(off, list) or len(off) != 2
                        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in off)
                        or not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in off)):
                    raise bad(f"{field}.back_offset", f"must be [dx, dy], mm, each at most {MAX_BACK_OFFSET:g}.")
                if not all(isinstance(entry[k], str) and len(entry[k]) <= 40 for k in ("paper", "measured")):
                    raise bad(field, "paper and measured must be short texts.")
                result[name][edge] = {"back_offset": (float(off[0]), float(off[1])), "paper": entry["paper"],
                                      "measured": entry["measured"]}
        return result

    def save(self, name: str, duplex: str, back_offset: tuple[float, float], paper: str) -> Path:
        """Keep ``back_offset`` (mm) for printer ``name`` and flip edge ``duplex``, measured on
        ``paper`` today; the printer's other flip edge and the other printers are kept. Returns the file.

        Raises:
            PnpError: a bad name; the existing file is not a printers file; the folder cannot be written.
        """
        check_name(name, "--save-printer")
        printers = self.load()
        if name not in printers and len(printers) >= MAX_PRINTERS:
            raise PnpError(f"already holds {MAX_PRINTERS} printers.", file=self.path, hint="remove some from it")
        printers.setdefault(name, {})[duplex] = {"back_offset": tuple(back_offset), "paper": paper,
                                                 "measured": datetime.date.today().isoformat()}
        data = {"version": 1, "printers": {n: {e: {"back_offset": list(v["back_offset"]), "paper": v["paper"],
                                                    "measured": v["measured"]} for e, v in edges.items()}
                                            for n, edges in sorted(printers.items())}}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self.folder, FILE, (json.dumps(data, indent=2) + "\n").encode("utf-8"))
        return self.path

    def offset(self, name: str, duplex: str) -> tuple[str, tuple[float, float]]:
        """(flip edge, back offset mm) kept for printer ``name``: for ``duplex`` "long" or "short", or,
        when ``duplex`` is "none", the one edge it was measured for.

        Raises:
            PnpError: an unknown printer (naming those kept); not measured for that edge; measured for
                both and ``duplex`` "none"; ``duplex`` "fold" (no back side to move).
        """
        check_name(name, "--printer")
        printers = self.load()
        if name not in printers:
            known = ", ".join(sorted(printers)) or "none yet"
            raise PnpError(f"no printer {name!r} in {self.path} (kept: {known}).", field="--printer",
                           hint=f"measure it: pnp calibrate --measure PHOTO.jpg --save-printer {name}")
        edges = printers[name]
        if duplex == "none":
            if len(edges) > 1:
                raise PnpError(f"printer {name!r} was measured for both flip edges.", field="--printer",
                               hint="add --duplex long or --duplex short")
            duplex = next(iter(edges))
        if duplex not in EDGES:
            raise PnpError(f"--printer moves the backs of a two-sided print, but --duplex is {duplex}.",
                           field="--printer", hint="use --duplex long or short, or drop --printer")
        if duplex not in edges:
            raise PnpError(f"printer {name!r} was measured for the {next(iter(edges))} edge, not the {duplex} edge.",
                           field="--printer", hint=f"print `pnp calibrate --duplex {duplex}` and measure it with "
                                                   f"--save-printer {name}")
        return duplex, edges[duplex]["back_offset"]


def printer_offset(name: str, duplex: str, back_offset: str, store: PrinterStore | None = None
                   ) -> tuple[str, str]:
    """(duplex, back offset "DX,DY") for `pnp build --printer NAME`: the offset kept for printer
    ``name`` and flip edge ``duplex`` ("none": the one edge it was measured for).

    Raises:
        PnpError: --back-offset given too; as PrinterStore.offset (an unknown printer, ...).
    """
    if back_offset.strip() not in ("0,0", ""):
        raise PnpError(f"--printer {name} and --back-offset {back_offset} both move the backs.", field="--printer",
                       hint="give one of them")
    duplex, (dx, dy) = (store or PrinterStore()).offset(name, duplex)
    return duplex, f"{dx:g},{dy:g}"
