"""The last pass over every PDF pnp writes, with pikepdf (MPL-2.0) through its public API: what
reportlab's public API cannot write.

- **Subset tags from the subset's content.** reportlab tags a font subset by its index (the first
  subset of every font is ``AAAAAA+``), so two different subsets in two files, or in one merged file,
  share a tag. Every embedded subset is retagged with six letters from a SHA-256 of its font program
  (``FontFile2``): equal tags mean byte-identical subsets (ISO 32000-1, 9.6.4: the tag "shall be
  unique" per subset). Always done.
- **Characters beyond U+FFFF copy out as themselves.** reportlab's ToUnicode map of a subset writes
  a character's code in hex as it is (``<1F4E6>`` for 📦), which readers take as a 16-bit code and
  a digit (U+1F4E and "6"); such entries are rewritten as UTF-16BE, a surrogate pair
  (``<D83DDCE6>``, ISO 32000-1, 9.10.3). Only maps that hold one are touched.
- **Soft masks of CMYK pictures.** reportlab makes an image's soft mask only from RGBA or LA images;
  a picture converted to CMYK gets its alpha back here as an ``/SMask`` (ISO 32000-1, 11.6.5.3).
- **PDF/X-4** (ISO 15930-7; clauses in docs/print.md): the OutputIntent (GTS_PDFX, the press
  profile as DestOutputProfile, OutputConditionIdentifier, RegistryName, Info), ``GTS_PDFXVersion``
  in the document information and in XMP metadata (with the dates, DocumentID, VersionID and
  RenditionClass), header version 1.6. TrimBox, BleedBox and ``Trapped`` are written by reportlab.

Streams are copied as they are (never decoded and compressed again); the file's ID is derived from
its content (qpdf's deterministic ID), so a build stays byte-for-byte reproducible.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import uuid
import warnings
import zlib
from pathlib import Path

from ..core.safepath import open_write

PDFX_VERSION = "PDF/X-4"
_TAGGED = re.compile(r"/[A-Z]{6}\+(.+)")
_ASTRAL = re.compile(rb"(<[0-9A-F]{2}> )<([0-9A-F]{5,6})>")  # a bfchar entry whose character is beyond U+FFFF


def content_tag(font_program: bytes) -> str:
    """Six capital letters from the SHA-256 of a font program (a subset tag, ISO 32000-1, 9.6.4)."""
    h = int.from_bytes(hashlib.sha256(font_program).digest()[:8], "big")
    return "".join(chr(65 + (h >> (5 * i)) % 26) for i in range(6))


def finish_pdf(source, target=None, *, press=None, pdfx: bool = False, masks: dict | None = None) -> None:
    """Finish the PDF ``source`` as reportlab saved it: bytes, written to ``target`` (a path or a binary
    file object); or the path of the file, which is replaced (``target`` None; read from disk, which
    holds less in memory than bytes). Adds content-derived subset tags, the soft masks ``masks``
    ({form name: mode "L" alpha image} of pictures drawn in CMYK, see pnp.render.pdf) and, when
    ``pdfx``, the PDF/X-4 identification for the pnp.colour.press.Press ``press``.

    Raises:
        OutputError: the temporary file cannot be made (pnp.core.safepath).
        OSError: writing or replacing the file fails (pnp.pipeline.execute reports it for the kit).
    """
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    in_place = not isinstance(source, (bytes, bytearray))
    options = save_options(bool(masks), pdfx)
    with pikepdf.open(Path(source) if in_place else io.BytesIO(source)) as pdf:
        retag_subsets(pdf)
        if masks:
            _attach_masks(pdf, masks)
        if pdfx:
            _mark_pdfx(pdf, press, _digest(source))
        if not in_place:
            pdf.save(target, **options)
            return
        path = Path(source)
        temporary = f".{path.name}.tmp-{os.getpid()}"
        with open_write(path.parent, temporary) as f:
            pdf.save(f, **options)
    os.replace(path.parent / temporary, path)


def save_options(masks: bool = False, pdfx: bool = False) -> dict:
    """pikepdf's ``Pdf.save`` options of every PDF pnp writes: streams copied as they are, the file's
    ID derived from its content; version 1.4 at least with soft ``masks``, 1.6 with ``pdfx``."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    return dict(deterministic_id=True, compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none,
                object_stream_mode=pikepdf.ObjectStreamMode.preserve, min_version="1.4" if masks else "",
                force_version="1.6" if pdfx else None)


def _digest(source) -> bytes:
    h = hashlib.sha256()
    if isinstance(source, (bytes, bytearray)):
        h.update(source)
    else:
        with open(source, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.digest()


def retag_subsets(pdf) -> int:
    """Give every embedded font subset of ``pdf`` (a pikepdf.Pdf) a tag derived from its font
    program, in BaseFont and in its descriptor's FontName; returns how many were retagged."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    done = 0
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font":
            continue
        match = _TAGGED.fullmatch(str(obj.get("/BaseFont", "")))
        descriptor = obj.get("/FontDescriptor")
        if match is None or descriptor is None:
            continue
        program = next((descriptor[k] for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor), None)
        if program is None:
            continue
        name = pikepdf.Name(f"/{content_tag(program.read_bytes())}+{match.group(1)}")
        obj.BaseFont = name
        descriptor.FontName = name
        _astral_to_utf16(obj.get("/ToUnicode"))
        done += 1
    return done


def astral_utf16(cmap: bytes) -> bytes:
    """A ToUnicode CMap's bfchar entries whose character is beyond U+FFFF (written by reportlab as
    five or six hex digits) as UTF-16BE surrogate pairs; every other byte as it was."""
    def pair(m: re.Match) -> bytes:
        cp = int(m.group(2), 16) - 0x10000
        return m.group(1) + b"<%04X%04X>" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF))
    return _ASTRAL.sub(pair, cmap)


def _astral_to_utf16(stream) -> None:
    """Rewrite the ToUnicode ``stream`` (a pikepdf.Stream, or None) with :func:`astral_utf16` when it
    holds such an entry (Flate-compressed, as reportlab writes it); else leave it as it is."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    if stream is None:
        return
    data = stream.read_bytes()
    fixed = astral_utf16(data)
    if fixed != data:
        stream.write(zlib.compress(fixed, 6), filter=pikepdf.Name.FlateDecode)


def _attach_masks(pdf, masks: dict) -> None:
    """Set the soft mask of the image inside each picture form named in ``masks``."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    pending = {f"/FormXob.{name}": alpha for name, alpha in masks.items()}
    seen: set = set()

    def walk(resources) -> None:
        xobjects = resources.get("/XObject") if resources is not None else None
        for name, xo in (xobjects.items() if xobjects is not None else ()):
            if xo.objgen in seen or xo.get("/Subtype") != "/Form":
                continue
            seen.add(xo.objgen)
            alpha = pending.get(name)
            inner = xo.get("/Resources")
            if alpha is not None and inner is not None and "/XObject" in inner:
                for _, image in inner.XObject.items():
                    if image.get("/Subtype") == "/Image" and image.get("/Width") == alpha.width:
                        image.SMask = _gray_image(pdf, alpha)
            walk(inner)

    for page in pdf.pages:
        walk(page.get("/Resources"))


def _gray_image(pdf, alpha):
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    stream = pikepdf.Stream(pdf, b"")
    stream.write(zlib.compress(alpha.tobytes(), 6), filter=pikepdf.Name.FlateDecode)
    stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    stream.Width, stream.Height = alpha.width, alpha.height
    stream.ColorSpace, stream.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    return pdf.make_indirect(stream)


def _mark_pdfx(pdf, press, digest: bytes) -> None:
    """The OutputIntent, version keys and XMP metadata of PDF/X-4 (docs/print.md)."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    from pikepdf import Name, String  # pikepdf: imported when first needed, never at start-up
    profile = pikepdf.Stream(pdf, b"")
    profile.write(zlib.compress(press.icc, 6), filter=Name.FlateDecode)
    profile.N = 4
    intent = pikepdf.Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX,
                                OutputConditionIdentifier=String(press.condition),
                                OutputCondition=String(press.description), Info=String(press.description),
                                DestOutputProfile=pdf.make_indirect(profile))
    if press.registry:
        intent.RegistryName = String(press.registry)
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        with warnings.catch_warnings():  # Info /Trapped has no XMP twin for pikepdf: set below
            warnings.simplefilter("ignore", UserWarning)
            meta.load_from_docinfo(pdf.docinfo)
        created = meta.get("xmp:CreateDate")
        if created:
            meta["xmp:MetadataDate"] = created
            if "xmp:ModifyDate" not in meta:
                meta["xmp:ModifyDate"] = created
        producer = pdf.docinfo.get("/Producer")
        if producer is not None:  # pikepdf's empty XMP names pikepdf
            meta["pdf:Producer"] = str(producer)
        meta["pdf:Trapped"] = "False"
        meta["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION
        meta["xmpMM:DocumentID"] = f"uuid:{uuid.UUID(bytes=digest[:16])}"
        meta["xmpMM:InstanceID"] = f"uuid:{uuid.UUID(bytes=digest[16:])}"
        meta["xmpMM:VersionID"] = "1"
        meta["xmpMM:RenditionClass"] = "default"
    pdf.docinfo[Name.GTS_PDFXVersion] = String(PDFX_VERSION)  # after the XMP sync: it has no XMP twin there
