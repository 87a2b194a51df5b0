"""Print colour: the CMYK press profile (``press``) and the conversion of sRGB colours and pictures
to DeviceCMYK with it (``convert``), used by the PDF writer for ``--colour cmyk`` and ``--pdfx``
(docs/print.md). The shipped profile and its source are in ``profiles/`` (README.md there)."""
