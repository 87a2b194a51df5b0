"""A data-driven component made ready: its table read, its templates loaded and bound, its rows' copies.

ready(spec, ctx) does it once per build (ctx.once), so the rules checks and the drawing share one
read of every data file and template; each file read is recorded in ctx.used so `pnp watch`
rebuilds when it changes; so is every picture an image layer draws, checked here, before anything
is drawn (pnp.custom.imagecheck). components() then draws every face: the number of parts is bounded
(MAX_PARTS) before the first face is drawn, and any text that does not fit, colour that is not a
colour or glyph the font lacks is refused before a page is imposed.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from ..core.errors import SpecError
from ..core.fonts import face as font_face, is_fallback, register_face
from ..core.ir import Component, PartSource
from ..engine import KitContext
from ..inputs.fontfile import FontFile, read_font
from ..inputs.gamefolder import inside
from .box import box_parts, inside_of
from .columns import not_a_count, whole_count
from .draw import Context, Face, Filler
from .fronts import HELD_FRONTS, TemplateFronts
from .icons import IconFolder
from .shaped import (FACE_COLUMN, d6_component, expand_faces, outline_of, standee_components, standee_drawing,
                     standee_net)
from .imagecheck import AbsentUse, PictureUse, scan
from .spec import D6_FACES, MAX_COPIES, NETS, ComponentSpec, CustomSpec
from .languages import column, fallback_note, fallbacks
from .table import DataError, Row, Table, check_cells, key, read_table
from .template import Loads, Placed, load_template, parse_placeholders, resolve

MAX_PARTS = 20_000  # parts of one component read from a data file, copies included: a few hundred pages (a
                    # generator's table is bounded by its generator: NetMatch's word list, MAX_WORDS)
MAX_BACKS = 26      # distinct backs of one component (each becomes its own run of parts)


@dataclass(eq=False)
class Ready:
    """One component with its ``table`` (None without data), ``rows`` ([None] without data), each
    row's ``copies`` and the ``pictures`` its image layers draw (every file checked)."""
    spec: ComponentSpec
    table: Table | None
    rows: list[Row | None]
    copies: list[int]
    faces: dict[Path, Face]
    paths: list[tuple[Path, Path | None]]
    line: int | None
    pictures: list[PictureUse]
    box_face: Face | None = None
    language: str | None = None
    absent: tuple[AbsentUse, ...] = ()
    """The pictures not there yet that ``missing: placeholder`` layers print placeholders for."""

    @property
    def parts(self) -> int:
        """How many parts the component prints: its rows' copies; for a d6, its dice (each die the
        copies of its first row of six)."""
        if self.spec.shape == "d6":
            return sum(self.copies[::D6_FACES])
        return sum(self.copies)


def _record(ctx: KitContext, path: Path) -> None:
    """Add ``path`` to the files the kit read (``ctx.used``), which `pnp watch` watches."""
    if path not in ctx.used:
        ctx.used.append(path)


def template_columns(layers: list[Placed]) -> dict[str, str]:
    """Every column key a template's strings name (text, colours, when:), with where it is named
    ("front.yaml, line 3")."""
    cols: dict[str, str] = {}
    for p in layers:
        L = p.layer
        for f in ("text", "fill", "stroke", "colour", "when", "src"):
            value = getattr(L, f, None)
            if f == "when" and value is not None:
                names = {key(value if isinstance(value, str) else value.column)}
            elif isinstance(value, str):
                try:
                    names = {key(part[0]) for part in parse_placeholders(value) if isinstance(part, tuple)}
                except ValueError:
                    names = set()  # bind() reports it with its line
            else:
                continue
            for name in names:
                cols.setdefault(name, f"{p.file.name}, line {p.line_of(f)}, field {f}")
    return cols


def _names(text: str) -> set[str]:
    try:
        return {key(p[0]) for p in parse_placeholders(text) if isinstance(p, tuple)}
    except ValueError:
        return set()


def fonts(spec: CustomSpec, ctx: KitContext, lines: dict) -> dict[str, FontFile]:
    """The fonts the spec declares (``fonts:``), by name, each file read and checked once per build,
    recorded in ctx.used (so `pnp watch` rebuilds when it changes) and registered as a face
    (pnp.core.fonts) under FontFile.face, the name ir.Text.font holds.

    Raises:
        SpecError: a font file that is missing, not a TTF/OTF, damaged or not embeddable (the spec
            file, line and field ``fonts.<name>``; see pnp.inputs.fontfile).
    """
    def load() -> dict[str, FontFile]:
        out = {}
        for name, value in spec.fonts.items():
            path = inside(value, ctx.spec_path.parent, what=f"font {name!r}", file=ctx.spec_path,
                          line=lines.get(("fonts", name)), field=f"fonts.{name}", must_exist=False)
            _record(ctx, path)
            font = out[name] = read_font(path, name, spec=ctx.spec_path, line=lines.get(("fonts", name)),
                                         field=f"fonts.{name}")
            register_face(font.face, font.source, font.family, data=font.data)  # a new name for new content
        return out
    return ctx.once(("custom-fonts", id(spec)), load)


def ready(spec: CustomSpec, ctx: KitContext, lines: dict, tables: dict[str, Table] | None = None) -> list[Ready]:
    """Every component of ``spec`` read and bound (once per build). ``tables``: tables a generator
    computed, by the ``data:`` value that names them (pnp.custom.generated), read in place of a file.

    Raises:
        SpecError: a template is missing or malformed, names a column the data lacks, loops.
        DataError: the data cannot be read, lacks a column, has too many rows, a bad copies cell.
    """
    def load() -> list[Ready]:
        out = [_ready(spec, i, c, ctx, lines, tables or {}) for i, c in enumerate(spec.components)]
        for r in out:
            _translations(spec, r, ctx)
        if not any(sum(r.copies) for r in out):
            first = out[0]
            where = (f" (every row of {first.table.path.name} has copies 0)" if first.table is not None and
                     first.table.rows else "")
            raise SpecError(f"the kit has no parts: every component's copies come to 0{where}.", file=ctx.spec_path,
                            line=first.line, field="components.0.copies",
                            hint="set copies: to 1 or more, or fill the copies column")
        return out
    return ctx.once(("custom", id(spec)), load)


def _ready(spec: CustomSpec, index: int, comp: ComponentSpec, ctx: KitContext, lines: dict,
           tables: dict[str, Table]) -> Ready:
    spec_dir = ctx.spec_path.parent
    line = lines.get(("components", index))
    loaded: dict[Path, list[Placed]] = {}

    found: dict[tuple[str, str], Path] = {}

    def template(name: str, field: str, row: Row | None = None, table: Table | None = None) -> Path:
        if (name, field) in found:
            return found[name, field]
        try:  # a name a data cell chose must be one of the folder's own templates
            path = resolve(name, spec_dir, spec_dir, ctx.spec_path, lines.get(("components", index, field), line),
                           f"components.{index}.{field}", cell=bool(row is not None and _names(getattr(comp, field))))
        except SpecError as exc:
            if row is None or table is None:
                raise
            col = next(iter(_names(getattr(comp, field))), None)
            raise table.error(row.number, col, exc.message, exc.hint, field=field) from None
        if path not in loaded:
            files: list[Path] = []
            try:
                loaded[path] = load_template(path, spec_dir, files, ctx.once(("template loads",), Loads))
            finally:
                for file in files:  # watched even when one is broken, so fixing it rebuilds
                    _record(ctx, file)
        found[name, field] = path
        return path

    where = f"{ctx.spec_path.name}, component {comp.name!r}"
    needed = {c: where for c in _names(comp.front) | _names(comp.back or "") | _names(str(comp.copies))}
    for name in (comp.front, comp.back):
        if name and not _names(name):
            layers = loaded[template(name, "front" if name is comp.front else "back")]
            for col, origin in template_columns(layers).items():
                needed.setdefault(col, origin)
    for col in key_columns(comp):
        needed.setdefault(col, f"{ctx.spec_path.name}, line {lines.get(('components', index, 'key'), line)}, field key")
    if comp.title is not None:
        needed.setdefault(key(comp.title), f"{ctx.spec_path.name}, line "
                                           f"{lines.get(('components', index, 'title'), line)}, field title")
    for chk in spec.checks:
        if chk.component == comp.name:
            for c in (getattr(chk, "columns", None) or ([chk.column] if hasattr(chk, "column") else [])):
                needed.setdefault(key(c), f"{ctx.spec_path.name}, a {chk.check} check")
    if comp.faces != "rows":  # a d6's faces from six columns: {face} is each of them in turn
        needed.pop(FACE_COLUMN, None)
        for col in comp.faces:
            needed.setdefault(key(col), f"{ctx.spec_path.name}, line {lines.get(('components', index, 'faces'), line)}"
                                        ", field faces")
    table = None
    rows: list[Row | None] = [None]
    if comp.data in tables:
        table = tables[comp.data]
        lacking = sorted(c for c in needed if c not in table.position)
        if lacking:
            raise SpecError(f"{needed[lacking[0]]} names the column {lacking[0]!r}, which the generator's table "
                            f"{comp.data} does not have (its columns: {', '.join(table.headers)}).",
                            file=ctx.spec_path, line=lines.get(("components", index, "data"), line),
                            field=f"components.{index}.data", hint="use one of the table's columns")
        rows = list(table.rows)
    elif comp.data is not None:
        first = next(c for c in spec.components if c.data is not None) is comp
        path = ctx.input_path("data" if first else f"data.{comp.name}", comp.data,  # --set data=FILE: the first
                              line=lines.get(("components", index, "data"), line), field=f"components.{index}.data")
        _record(ctx, path)
        if comp.url is not None and not ctx.overridden("data" if first else f"data.{comp.name}") \
                and not path.exists():  # a build never downloads: the designer pulls
            raise DataError("data file does not exist; it comes from the component's url:, and pnp build never "
                            "downloads.", file=path, field=f"components.{index}.data",
                            hint=f"run `pnp pull {spec_dir.name}` to download it, then build again")
        table = read_table(path, needed, comp.sheet, comp.header_row, field=f"components.{index}.data",
                           delimiter=comp.delimiter, columns=comp.columns)
        if comp.faces != "rows":
            table = expand_faces(table, comp.faces)
        rows = list(table.rows)
    elif needed:
        raise SpecError(f"component {comp.name!r} uses the columns {', '.join(sorted(needed))} but has no data.",
                        file=ctx.spec_path, line=line, field=f"components.{index}.data",
                        hint="add data: FILE (a .csv, .tsv, .xlsx or .ods file) or remove the placeholders")
    if comp.shape == "d6" and (table is None or len(rows) % D6_FACES):
        raise SpecError(f"component {comp.name!r} is a d6: each die takes {D6_FACES} faces, "
                        + (f"{D6_FACES} rows of its data in order, and {table.path.name} has {len(rows)} rows."
                           if table is not None else "and it has no data."),
                        file=table.path if table is not None else ctx.spec_path, line=None if table else line,
                        field=f"components.{index}.{'data' if table is None else 'faces'}",
                        hint=f"give {D6_FACES} rows per die (faces 1 to {D6_FACES} in order), or name {D6_FACES} columns "
                             "in faces: (each row one die, {face} the cell drawn)")
    copies = [_copies(comp, row, table) for row in rows]
    total = sum(copies)
    if total > MAX_PARTS and comp.data not in tables:  # a generator's rows are bounded by the generator
        raise SpecError(f"component {comp.name!r} would have {total:,} parts (limit {MAX_PARTS:,}).",
                        file=table.path if table else ctx.spec_path, line=None if table else line,
                        field=f"components.{index}.copies", hint="check the copies: a real deck is a few hundred parts")
    faces: dict[Path, Face] = {}
    icons = IconFolder(spec_dir / spec.icons, lambda p: _record(ctx, p), root=spec_dir)
    cols = set(table.position) if table else None
    fillers = {field: Filler(getattr(comp, field), ctx.spec_path, lines.get(("components", index, field), line),
                             f"components.{index}.{field}", cols, table.path if table else None)
               for field in ("front", "back") if getattr(comp, field) is not None}
    paths: list[tuple[Path, Path | None]] = []
    pairs: dict[tuple, tuple[Path, Path | None]] = {}  # one tuple per distinct (front, back): rows share it
    named = any(filler.columns for filler in fillers.values())  # a cell names a row's template
    for row in (rows if named else rows[:1]):  # else every row's templates are the first row's
        values = row.values if row else {}
        got: dict[str, Path | None] = {"back": None}
        for field, filler in fillers.items():
            path = got[field] = template(filler.fill(values), field, row, table)
            if path not in faces:  # the key of its furniture (drawn once): template and part size
                faces[path] = Face(loaded[path], Context(*comp.size, cols, table, spec_dir=spec_dir,
                                                         record=lambda p: _record(ctx, p), icons=icons,
                                                         fonts=fonts(spec, ctx, lines), language=ctx.language,
                                                         faces=ctx.once(("faces used",), set),
                                                         unbolded=ctx.once(("faces set regular",), set)),
                                   key=f"template {path}\x1f{comp.size[0]!r} x {comp.size[1]!r} mm")
        pair = (got["front"], got["back"])
        paths.append(pairs.setdefault(pair, pair))
    if not named:
        paths *= len(rows)
    box_face = None
    if comp.box_template is not None:  # drawn on the box's front and back panels, at their size
        path = template(comp.box_template, "box_template")
        inside = inside_of(comp, sum(copies))
        box_face = Face(loaded[path], Context(inside.width, inside.height, None, None, spec_dir=spec_dir,
                                              record=lambda p: _record(ctx, p), icons=icons,
                                              fonts=fonts(spec, ctx, lines), language=ctx.language,
                                              faces=ctx.once(("faces used",), set),
                                              unbolded=ctx.once(("faces set regular",), set)))
    pictures, absent = scan(rows, paths, faces)
    if box_face is not None:  # the box's pictures not there yet are named too
        absent += scan([None], [(path, None)], {path: box_face})[1]
    return Ready(comp, table, rows, copies, faces, paths, line, pictures, box_face, ctx.language, tuple(absent))


def _translations(spec: CustomSpec, r: Ready, ctx: KitContext) -> None:
    """For a kit in a language other than the spec's first: every translation cell the templates print
    checked as printable (pnp.custom.table.check_cells), and the cells that fall back to the default
    text told in ``ctx.notes`` (pnp.custom.languages)."""
    if not ctx.language or r.table is None:
        return
    printed = sorted({c for face in r.faces.values() for layer in face.layers if layer.text is not None
                      for c in layer.text.columns})
    check_cells(r.table, [column(c, ctx.language) for c in printed], field="data")
    codes = getattr(spec, "languages", ())
    if codes and ctx.language != codes[0]:
        where = fallbacks(r.rows, printed, r.table.position, ctx.language)
        if where:
            ctx.notes.append(fallback_note(ctx.language, where, f"{r.table.path.name} ({r.spec.name})"))


def _copies(comp: ComponentSpec, row: Row | None, table: Table | None) -> int:
    if isinstance(comp.copies, int):
        return comp.copies
    col = key(comp.copies.strip()[1:-1])
    cell = row.values.get(col, "") if row else ""
    n = whole_count(cell, MAX_COPIES)
    if n is None:
        raise table.error(row.number, col, f"the copies cell {not_a_count(cell, MAX_COPIES)}.",
                          f"write how many of this part to print, 0 to {MAX_COPIES}", field="copies")
    return n


TITLE_COLUMNS = ("name", "title")
"""Column keys that title a card (Tabletop Simulator's Nickname), in order of preference; else the first column."""


def title_column(table: Table | None, declared: str | None = None) -> str | None:
    """The key of the column whose cell titles each row's part: the component's ``title:`` column
    (``declared``), else ``name``, else ``title`` (any case), else the first column; None without a table."""
    if table is None:
        return None
    if declared is not None:
        return key(declared)
    keys = [key(h) for h in table.headers if key(h)]
    return next((k for k in TITLE_COLUMNS if k in keys), keys[0] if keys else None)


def key_columns(comp: ComponentSpec) -> tuple[str, ...]:
    """The column keys ``key:`` names, () when it is not set."""
    if comp.key is None:
        return ()
    return tuple(key(c) for c in ((comp.key,) if isinstance(comp.key, str) else comp.key))


def row_keys(comp: ComponentSpec, table: Table | None, rows: list[Row | None]) -> tuple[list[str], str]:
    """Each row's key, the name its part keeps across builds: the cells of the ``key:`` columns
    (joined by a space), else the cell of the first column whose cells all differ (and none is
    empty), else the row number; "1" without data. With them, what they are: "declared", "column",
    "row" ("" without data), as PartSource.keyed records it.

    Raises:
        DataError: ``key:`` is declared and two rows share a key, or a key is empty (naming the rows).
    """
    if table is None:
        return ["1"] * len(rows), ""
    cols = key_columns(comp)
    if cols:
        seen: dict[str, int] = {}
        out = []
        for row in rows:
            cell = " ".join(c for c in (row.values.get(col, "").strip() for col in cols) if c)
            if not cell:
                raise table.error(row.number, cols[0], "the key is empty.",
                                  "give every row its own key (the key: column names each part)", field="key")
            if cell in seen:
                raise table.error(row.number, cols[0], f"the key {cell!r} is already row {seen[cell]}'s; each part "
                                  "needs its own key.", "make the key cells differ, or name other columns in key:",
                                  field="key")
            seen[cell] = row.number
            out.append(cell)
        return out, "declared"
    for header in table.headers:
        cells = [row.values.get(key(header), "").strip() for row in rows]
        if key(header) and all(cells) and len(set(cells)) == len(cells):
            return cells, "column"
    return [str(row.number) for row in rows], "row"


def _row_keys(comp: ComponentSpec, table: Table | None, rows: list[Row | None]) -> tuple[list[str], str]:
    """row_keys(), for a d6 whose faces are six columns once per die (its rows come six to a data row)."""
    if comp.faces == "rows":
        return row_keys(comp, table, rows)
    keys, keyed = row_keys(comp, table, rows[::D6_FACES])
    return [k for k in keys for _ in range(D6_FACES)], keyed


def text_fit_work(spec: CustomSpec, ctx: KitContext, lines: dict) -> float:
    """About how many characters build_components() lays out to fit the kit's texts (each row's
    front and back once, pnp.custom.draw.Face.fit_work), from the tables and templates alone.

    Raises:
        SpecError, DataError: as ready().
    """
    return sum(r.faces[f].fit_work(row) + (r.faces[b].fit_work(row) if b is not None else 0)
               for r in ready(spec, ctx, lines) for row, (f, b) in zip(r.rows, r.paths))


def build_components(spec: CustomSpec, ctx: KitContext, lines: dict,
                     tables: dict[str, Table] | None = None) -> list[Component]:
    """The kit's Components, in spec order: fronts drawn from every row (repeated for its copies),
    sizes in mm, each front titled by its row's cell in title_column() (``Component.titles``); a
    component whose rows have different backs becomes one Component per back.

    Raises:
        SpecError, DataError: as ready(); a text that does not fit its box, a colour cell that is not a
            colour or a glyph the font lacks (naming the data file, row, column and template layer);
            more than MAX_BACKS different backs.
    """
    out: list[Component] = []
    for r in ready(spec, ctx, lines, tables):
        comp = r.spec
        w, h = comp.size
        groups: dict[tuple | None, list] = {}
        titles: dict[tuple | None, list[str]] = {}
        sources: dict[tuple | None, list[PartSource]] = {}
        col = title_column(r.table, comp.title)
        proofs: dict = {}  # a front template's path -> its proof box on the part (x, y, w, h mm) or None
        # the last back seen and its lists (a back is a long tuple: hashed only when new)
        last, fronts, named, keyed = object(), [], [], []
        keys, how = _row_keys(comp, r.table, r.rows)  # each row's key, and what the keys are
        kept = comp.shape in NETS or r.parts <= HELD_FRONTS  # a net's fronts are drawn into it (pnp.custom.shaped)
        for row, n, (fpath, bpath), part_key in zip(r.rows, r.copies, r.paths, keys):
            front = (face := r.faces[fpath]).draw(row)  # all drawn while planning: what does not fit is refused
            back = r.faces[bpath].draw(row) if bpath is not None else None
            if back is not last:
                last, named, keyed = back, titles.setdefault(back, []), sources.setdefault(back, [])
                fronts = groups.get(back) or groups.setdefault(back, TemplateFronts(kept))
            fronts.add(face, row, n, front)  # with its row and template, which fingerprint it (pnp.custom.fronts)
            named.extend([row.values.get(col, "").strip() if row and col else ""] * n)
            proof = proofs.get(fpath, proofs)
            if proof is proofs:  # the template's proof box on this part, once per template
                proof = proofs[fpath] = ctx.once(("template loads",), Loads).proof_box(fpath, w, h)
            source = PartSource(part_key, row.number if row else None,
                                tuple(sorted(row.values.items())) if row else (), comp.name, proof, how)
            keyed.extend([source] * n)
        if comp.shape in NETS:
            out += _nets(r, groups, titles, sources, col is not None)
            continue
        if len(groups) > MAX_BACKS:
            raise SpecError(f"component {comp.name!r} has {len(groups)} different backs (limit {MAX_BACKS}).",
                            file=ctx.spec_path, line=r.line, field="back",
                            hint="print fewer kinds of back: each is cut and printed as its own run")
        for i, (back, fronts) in enumerate(groups.items(), start=1):
            name = comp.name if len(groups) == 1 else f"{comp.name} (back {i} of {len(groups)})"
            if fronts:
                outline = outline_of(comp)
                out.append(Component(name, w, h, fronts, 1, back, "polygon" if outline else comp.shape, comp.board,
                                     comp.note, radius=comp.radius if comp.shape == "rounded" else 0.0,
                                     titles=tuple(titles[back]) if col else (), sources=tuple(sources[back]),
                                     outline=outline))
        if comp.box is not None:
            out += _box(spec, r, groups, ctx, lines)
    _faces_note(spec, ctx)
    return out


def _nets(r: Ready, groups: dict, titles: dict, sources: dict, titled: bool) -> list[Component]:
    """A d6's or standee's Components (pnp.custom.shaped): the rows' fronts drawn into nets, their
    backs (a standee's back panels) folded in; a d6's every D6_FACES fronts are one die."""
    comp = r.spec
    fronts, named, keyed, backs = [], [], [], []
    for back, drawn in groups.items():
        fronts += drawn
        named += titles[back]
        keyed += sources[back]
        backs += [back] * len(drawn)
    if comp.shape == "standee":
        net = standee_net(comp)
        nets, cache = [], {}
        for front, back in zip(fronts, backs):
            got = cache.get((id(front), id(back)))
            if got is None:
                got = cache[id(front), id(back)] = standee_drawing(net, front, back)
            nets.append(got)
        return standee_components(comp, comp.name, nets, tuple(named) if titled else (), tuple(keyed))
    # a d6: each row's face is repeated for its copies in ``fronts``; every D6_FACES rows are one die,
    # printed as many times as its first row says (a die with a row of copies 0 is not printed)
    starts = [0, *accumulate(r.copies)]
    dice, copies, first = [], [], []
    for i in range(0, len(r.copies), D6_FACES):
        if all(r.copies[i:i + D6_FACES]):
            dice.append([fronts[starts[j]] for j in range(i, i + D6_FACES)])
            copies.append(r.copies[i])
            first.append(starts[i])
    names = tuple(named[j] for j, n in zip(first, copies) for _ in range(n)) if titled else ()
    keys = tuple(keyed[j] for j, n in zip(first, copies) for _ in range(n))
    return [d6_component(comp.name, comp, dice, copies, comp.note, names, keys)]


def _box(spec: CustomSpec, r: Ready, groups: dict, ctx: KitContext, lines: dict) -> list[Component]:
    """The tuck box of a component with ``box: tuck`` (pnp.custom.box): its front and back panels
    print the box template, else the component's first back, else nothing."""
    if r.box_face is not None:
        inside = inside_of(r.spec, sum(r.copies))
        art, size = r.box_face.draw(None), (inside.width, inside.height)
    else:
        art, size = next((back for back in groups if back is not None), None), r.spec.size
    index = spec.components.index(r.spec)
    where = (ctx.spec_path, lines.get(("components", index, "box"), r.line), f"components.{index}.box")
    return box_parts(r.spec, sum(r.copies), art, size, spec.title or spec.name or ctx.spec_path.stem, ctx, where)


def _faces_note(spec: CustomSpec, ctx: KitContext) -> None:
    """Tell which fonts the kit's text was set in (``ctx.notes``), for a kit of a spec with
    ``languages:`` or one whose text fell back to a script's face (pnp.core.fonts.FALLBACKS)."""
    used = ctx.once(("faces used",), set)
    if not used or not (getattr(spec, "languages", ()) or any(is_fallback(f) for f in used)):
        return
    labels = sorted({font_face(f).label.replace(" bold", "").replace(" italic", "") for f in used})
    who = f"language {ctx.language}" if ctx.language else "text"
    ctx.notes.append(f"{who}: set in {', '.join(labels)}.")
    regular = sorted(font_face(f).label for f in ctx.once(("faces set regular",), set))
    if regular:
        ctx.notes.append(f"{who}: {', '.join(regular)} {'has' if len(regular) == 1 else 'have'} no bold face: its bold "
                         "text is printed regular.")
