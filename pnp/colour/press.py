"""The CMYK press profile: the one pnp ships (``shipped_press``) or one a user names with ``--icc FILE``
(``load_press``), checked before anything is drawn.

A PDF/X file names its printing condition in an OutputIntent (ISO 15930-7; docs/print.md): the
profile itself (DestOutputProfile), an OutputConditionIdentifier, and for a registered condition the
registry it is registered in. The shipped profile is built from CGATS TR 003-2007 data (SWOP #3
coated, registered at the ICC as "CGATS TR 003"); a user's profile is a "Custom" condition described
by its own description tag.
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..core.errors import SpecError
from ..inputs.safefile import NotRegular, read_regular

PROFILES = Path(__file__).resolve().parent / "profiles"
SHIPPED = PROFILES / "swop_tr003_300.icc"
MAX_ICC_BYTES = 8 * 1024 * 1024
"""An ICC profile larger than this is refused (press profiles are 0.1 to 3 MB)."""
ICC_HEADER = 128
SYSTEM_HINTS = (Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),)
"""CMYK profiles a system may have, suggested when a named one cannot be used (never copied into pnp:
Ghostscript's is AGPL-3)."""


@dataclass(eq=False)
class Press:
    """A CMYK output profile and the printing condition it stands for.

    Attributes:
        icc: the profile's bytes (ICC, colour space CMYK, class output).
        description: its description tag (OutputCondition and Info of the OutputIntent).
        condition: OutputConditionIdentifier ("CGATS TR 003" for the shipped profile, else "Custom").
        registry: RegistryName of a registered condition ("" for a custom one).
        source: where it came from, for messages (a file path).
    """
    icc: bytes
    description: str
    condition: str = "Custom"
    registry: str = ""
    source: str = ""
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.icc).hexdigest()

    def cms_profile(self):
        """The profile opened by LittleCMS (Pillow's ImageCms), once."""
        if "profile" not in self._cache:
            from PIL import ImageCms  # Pillow: imported when first needed, never at start-up
            self._cache["profile"] = ImageCms.ImageCmsProfile(io.BytesIO(self.icc))
        return self._cache["profile"]


@lru_cache(maxsize=1)
def shipped_press() -> Press:
    """The profile pnp ships: SWOP #3 coated from CGATS TR 003-2007 data, 300 % total ink
    (profiles/README.md)."""
    press = _checked(SHIPPED.read_bytes(), str(SHIPPED))
    press.condition, press.registry = "CGATS TR 003", "http://www.color.org"
    return press


def load_press(path: Path) -> Press:
    """The CMYK output profile in ``path`` (a user's ``--icc`` argument, read as a regular file).

    Raises:
        SpecError: no such file, not a regular file, larger than MAX_ICC_BYTES, not an ICC profile,
            not CMYK, not an output profile, or one LittleCMS cannot build an sRGB to CMYK transform
            with (field --icc, the file named; the hint names a system profile when one exists).
    """
    try:
        data = read_regular(Path(path), MAX_ICC_BYTES)
    except FileNotFoundError:
        _refuse(path, "no such file")
    except NotRegular as exc:
        _refuse(path, f"it is {exc}, not a file")
    except OSError as exc:
        _refuse(path, f"it cannot be read ({exc.strerror or exc})")
    if len(data) > MAX_ICC_BYTES:
        _refuse(path, f"it is larger than {MAX_ICC_BYTES // (1024 * 1024)} MiB; a press profile is far smaller")
    return _checked(data, str(path))


def _checked(data: bytes, source: str) -> Press:
    if len(data) < ICC_HEADER or data[36:40] != b"acsp":
        _refuse(source, "it is not an ICC profile (no 'acsp' signature in its header)")
    declared = int.from_bytes(data[0:4], "big")
    if declared != len(data):
        _refuse(source, f"its header says {declared} bytes but the file has {len(data)} (truncated or damaged)")
    space, kind = data[16:20].decode("latin-1").strip(), data[12:16].decode("latin-1")
    if space != "CMYK":
        _refuse(source, f"its colour space is {space or 'unnamed'}, not CMYK")
    if kind != "prtr":
        _refuse(source, f"it is a {kind!r} profile, not an output (printer, 'prtr') profile")
    press = Press(data, "", source=source)
    try:
        from PIL import Image, ImageCms  # Pillow: imported when first needed, never at start-up
        profile = press.cms_profile()
        transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
                                            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        ImageCms.applyTransform(Image.new("RGB", (1, 1)), transform)  # as pnp.colour.convert uses it
        press.description = (profile.profile.profile_description or Path(source).name).strip()
    except (OSError, ValueError, ImageCms.PyCMSError) as exc:
        _refuse(source, f"LittleCMS cannot use it ({exc})")
    return press


def _refuse(source, what: str):
    hint = "name a CMYK output profile (.icc) of your printer or print service"
    found = [str(p) for p in SYSTEM_HINTS if p.is_file()]
    if found:
        hint += f", e.g. this system's {found[0]}"
    hint += ", or leave out --icc to use pnp's own (SWOP, CGATS TR 003)"
    raise SpecError(f"the --icc profile cannot be used: {what}.", file=source, field="--icc", hint=hint)
