// pnp edit: the card is drawn by pnp (GET /api/card, its SVG writer); this page only shows it, draws
// the guides and layer boxes over it (mm, in the trim's coordinates) and sends edits (POST /api/edit)
// with the page's token. Every field of the properties panel comes from the template schema.
"use strict";

const TOKEN = document.querySelector('meta[name="pnp-token"]').content;
const SVGNS = "http://www.w3.org/2000/svg";
const PX_PER_MM = 96 / 25.4;
const NUDGE = 0.5, BIG_NUDGE = 5, GRID = 0.5, SNAP_PX = 6, MIN_MM = 0.5;
const LABEL_CHARS = 40;  // a layer's label in the list: longer ones end in … (the tooltip has it whole)
const $ = (id) => document.getElementById(id);

const state = { deck: null, comp: 0, side: "front", row: 0, card: null, selected: null, zoom: 2,
                problems: [], drag: null, writing: 0, stamp: null, hidden: new Set(), draws: 0 };

// ---------------------------------------------------------------- talking to pnp
async function api(path) {
  const r = await fetch(path, { cache: "no-store" });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function write(kind, body) {
  const r = await fetch(`/api/${kind}`, { method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", "X-PNP-Token": TOKEN }, body: JSON.stringify(body || {}) });
  const got = await r.json();
  if (!r.ok) throw new Error(got.error || r.statusText);
  $("undo").disabled = !got.can_undo;
  $("redo").disabled = !got.can_redo;
  return got;
}

function say(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

// A write and the drawing after it count as writing: the file watch's look (below) waits for both,
// so it does not draw the card a second time for the page's own edit.
async function edit(op, done) {
  state.writing += 1;
  try {
    try {
      const got = await write("edit", op);
      say(got.done);
      if (done) done();
    } catch (e) {
      say(e.message, true);
    }
    await redraw();
  } finally {
    state.writing -= 1;
  }
}

async function step(kind) {
  state.writing += 1;
  try {
    try {
      const got = await write(kind);
      say(got.done ? `${kind === "undo" ? "undone" : "redone"}: ${got.done}` : `nothing to ${kind}`);
    } catch (e) {
      say(e.message, true);
    }
    await redraw();
  } finally {
    state.writing -= 1;
  }
}

// ---------------------------------------------------------------- loading and drawing
async function loadDeck() {
  state.deck = await api("/api/deck");
  $("folder").textContent = state.deck.folder;
  $("undo").disabled = !state.deck.can_undo;
  $("redo").disabled = !state.deck.can_redo;
  const comp = $("component");
  comp.innerHTML = "";
  state.deck.components.forEach((c, i) => comp.add(new Option(`${c.name} (${c.size[0]} x ${c.size[1]} mm)`, i)));
  comp.value = state.comp;
  fillSides();
}

function component() { return state.deck.components[state.comp]; }

function fillSides() {
  const side = $("side");
  side.innerHTML = "";
  for (const s of component().sides) side.add(new Option(s, s));
  if (!component().sides.includes(state.side)) state.side = "front";
  side.value = state.side;
  const list = $("row-titles");
  list.innerHTML = "";
  component().rows.forEach((r, i) => list.append(new Option(`${i + 1}: ${r.title}`)));
}

async function redraw() {
  const ticket = ++state.draws;  // the answer to an older ask that arrives after a newer one is not drawn
  let card;
  try {
    const hide = encodeURIComponent([...state.hidden].join(","));
    card = await api(`/api/card?component=${state.comp}&side=${state.side}&row=${state.row}&hide=${hide}`);
  } catch (e) {
    if (ticket === state.draws) say(e.message, true);
    return;
  }
  if (ticket !== state.draws) return;
  state.card = card;
  state.stamp = card.stamp;
  const holder = $("card");
  holder.innerHTML = card.svg;
  holder.dataset.version = card.version;
  const rows = component().rows;
  $("row-label").textContent = `row ${state.row + 1} of ${rows.length}: ${rows[state.row].title}`;
  if (state.selected && !card.layers.some((l) => l.id === state.selected)) state.selected = null;
  layout();
  drawOverlay();
  listLayers();
  showProps();
  const errors = card.layers.filter((l) => l.error);
  if (errors.length) say(errors.map((l) => `${l.id}: ${l.error}`).join("\n"), true);
  loadProblems(card.version);
}

async function loadProblems(version) {
  try {
    const got = await api(`/api/problems?component=${state.comp}&side=${state.side}`);
    if (!state.card || state.card.version !== version) return;
    state.problems = got.problems;
  } catch (e) {
    state.problems = [];
  }
  drawOverlay();
  listLayers();
  showProblems();
  $("card").dataset.checked = version;  // the problems of this drawing are shown
}

function scale() { return state.zoom * PX_PER_MM; }  // px per mm on screen

function layout() {
  const [w, h] = state.card.trim_mm, b = state.card.bleed_mm;
  const stage = $("stage");
  stage.style.width = `${(w + 2 * b) * scale()}px`;
  stage.style.height = `${(h + 2 * b) * scale()}px`;
  $("overlay").setAttribute("viewBox", `${-b} ${-b} ${w + 2 * b} ${h + 2 * b}`);
  $("zoom-label").textContent = ` ${Math.round(state.zoom * 100)} % `;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

function problemOf(id, kind) { return state.problems.find((p) => p.id === id && (!kind || p.kind === kind)); }

function drawOverlay() {
  const svg = $("overlay"), card = state.card;
  if (!card) return;
  const [w, h] = card.trim_mm, b = card.bleed_mm, s = card.safe_mm;
  svg.innerHTML = "";
  const comp = component();
  el("rect", { class: "bleed", x: -b, y: -b, width: w + 2 * b, height: h + 2 * b }, svg);
  comp.shape === "circle" ? el("circle", { class: "trim", cx: w / 2, cy: h / 2, r: w / 2 }, svg)
    : el("rect", { class: "trim", x: 0, y: 0, width: w, height: h, rx: comp.radius || 0 }, svg);
  // the element spanning the trim exactly (no stroke: a browser counts a stroke in an element's box)
  const span = el("rect", { id: "trim", x: 0, y: 0, width: w, height: h, fill: "none", stroke: "none",
                            "pointer-events": "none" }, svg);
  span.dataset.trimMm = `${w} ${h}`;
  el("rect", { class: "safe", x: s, y: s, width: w - 2 * s, height: h - 2 * s }, svg);
  el("line", { class: "centre", x1: w / 2, y1: 0, x2: w / 2, y2: h }, svg);
  el("line", { class: "centre", x1: 0, y1: h / 2, x2: w, y2: h / 2 }, svg);
  const boxes = el("g", { id: "boxes" }, svg);
  // the largest boxes underneath, so a click reaches the smallest layer under the pointer first
  const area = (l) => l.box[2] * l.box[3];
  for (const layer of card.layers.slice().sort((a, b) => area(b) - area(a))) {
    const [x, y, bw, bh] = boxOf(layer);
    const r = el("rect", { class: "box", x, y, width: Math.max(bw, 0.4), height: Math.max(bh, 0.4) }, boxes);
    r.dataset.layer = layer.id;
    if (!layer.shown || layer.hidden) r.classList.add("hidden");
    if (problemOf(layer.id, "fit") || layer.error) r.classList.add("problem");
    else if (problemOf(layer.id, "safe")) r.classList.add("past-safe");
    if (layer.id === state.selected) r.classList.add("selected");
    r.addEventListener("pointerdown", (e) => startDrag(e, layer, null));
  }
  const sel = selectedLayer();
  if (sel && editable(sel)) {
    const [x, y, bw, bh] = boxOf(sel);
    const hs = 8 / scale();
    const g = el("g", { id: "handles" }, svg);
    for (const [name, fx, fy] of HANDLES) {
      const hd = el("rect", { class: "handle", x: x + fx * bw - hs / 2, y: y + fy * bh - hs / 2, width: hs, height: hs }, g);
      hd.dataset.handle = name;
      hd.style.cursor = `${name}-resize`;
      hd.addEventListener("pointerdown", (e) => startDrag(e, sel, name));
    }
  }
  el("g", { id: "guides" }, svg);
}

const HANDLES = [["nw", 0, 0], ["n", 0.5, 0], ["ne", 1, 0], ["e", 1, 0.5], ["se", 1, 1], ["s", 0.5, 1],
                 ["sw", 0, 1], ["w", 0, 0.5]];

function boxOf(layer) {
  const d = state.drag;
  return d && d.layer.id === layer.id && d.box ? d.box : layer.box;
}

function selectedLayer() { return state.card && state.card.layers.find((l) => l.id === state.selected); }

function editable(layer) { return layer.source === "folder"; }

// ---------------------------------------------------------------- dragging, snapping, nudging
function toMm(e) {
  const r = $("overlay").getBoundingClientRect(), b = state.card.bleed_mm;
  return [(e.clientX - r.left) / scale() - b, (e.clientY - r.top) / scale() - b];
}

function startDrag(e, layer, handle) {
  e.preventDefault();
  e.stopPropagation();
  const [mx, my] = toMm(e);
  if (!handle) {
    // a click on a selected layer that others overlap selects the next one under the pointer
    const under = state.card.layers.filter((l) => { const [x, y, w, h] = l.box;
      return mx >= x && mx <= x + w && my >= y && my <= y + h; }).sort((a, b) => a.box[2] * a.box[3] - b.box[2] * b.box[3]);
    if (state.selected === layer.id && under.length > 1) state.pendingCycle = under;
    else state.pendingCycle = null;
    if (state.selected !== layer.id) select(layer.id);
  }
  state.drag = { layer, handle, start: [mx, my], orig: layer.box.slice(), box: null, moved: false };
  $("overlay").setPointerCapture(e.pointerId);
}

function targets(axis) {
  const [w, h] = state.card.trim_mm, s = state.card.safe_mm, size = axis === 0 ? w : h;
  const out = [0, size, s, size - s, size / 2];
  for (const l of state.card.layers) {
    if (state.drag && l.id === state.drag.layer.id) continue;
    const o = l.box[axis], n = l.box[axis + 2];
    if (n >= state.card.trim_mm[axis] - 0.01 && o <= 0.01) continue;  // full-card layers: the trim already
    out.push(o, o + n / 2, o + n);
  }
  return out;
}

// the shift that brings one of ``edges`` onto a target within SNAP_PX, else onto the 0.5 mm grid
function snap(edges, axis, guides) {
  const thr = SNAP_PX / scale();
  let best = null;
  for (const t of targets(axis)) for (const e of edges) {
    const d = t - e;
    if (Math.abs(d) <= thr && (best === null || Math.abs(d) < Math.abs(best.d))) best = { d, t };
  }
  if (best) { guides.push([axis, best.t]); return best.d; }
  return Math.round(edges[0] / GRID) * GRID - edges[0];
}

function onMove(e) {
  const d = state.drag;
  if (!d) return;
  const [mx, my] = toMm(e);
  let dx = mx - d.start[0], dy = my - d.start[1];
  if (!d.moved && Math.hypot(dx, dy) * scale() < 3) return;
  d.moved = true;
  const [x, y, w, h] = d.orig;
  const snapping = $("snap").checked && !e.altKey;
  const guides = [];
  let box;
  if (!d.handle) {
    let nx = x + dx, ny = y + dy;
    if (snapping) {
      nx += snap([nx, nx + w / 2, nx + w], 0, guides);
      ny += snap([ny, ny + h / 2, ny + h], 1, guides);
    }
    box = [nx, ny, w, h];
  } else {
    let x0 = x, y0 = y, x1 = x + w, y1 = y + h;
    const hd = d.handle;
    if (hd.includes("w")) x0 += dx;
    if (hd.includes("e")) x1 += dx;
    if (hd.includes("n")) y0 += dy;
    if (hd.includes("s")) y1 += dy;
    if (snapping) {
      if (hd.includes("w")) x0 += snap([x0], 0, guides);
      if (hd.includes("e")) x1 += snap([x1], 0, guides);
      if (hd.includes("n")) y0 += snap([y0], 1, guides);
      if (hd.includes("s")) y1 += snap([y1], 1, guides);
    }
    if (e.shiftKey && hd.length === 2 && w > 0 && h > 0) {  // a corner with Shift keeps the proportions
      const k = Math.max((x1 - x0) / w, (y1 - y0) / h);
      if (hd.includes("w")) x0 = x1 - w * k; else x1 = x0 + w * k;
      if (hd.includes("n")) y0 = y1 - h * k; else y1 = y0 + h * k;
    }
    if (x1 - x0 < MIN_MM) { if (hd.includes("w")) x0 = x1 - MIN_MM; else x1 = x0 + MIN_MM; }
    if (y1 - y0 < MIN_MM) { if (hd.includes("n")) y0 = y1 - MIN_MM; else y1 = y0 + MIN_MM; }
    box = [x0, y0, x1 - x0, y1 - y0];
  }
  d.box = box;
  drawOverlay();
  const g = $("guides"), [cw, ch] = state.card.trim_mm, b = state.card.bleed_mm;
  for (const [axis, t] of guides) {
    if (axis === 0) el("line", { class: "guide", x1: t, y1: -b, x2: t, y2: ch + b }, g);
    else el("line", { class: "guide", x1: -b, y1: t, x2: cw + b, y2: t }, g);
  }
}

async function onUp() {
  const d = state.drag;
  if (!d) return;
  state.drag = null;
  if (!d.moved || !d.box) {
    if (state.pendingCycle) {  // a click without a drag: the next layer under the pointer
      const under = state.pendingCycle, i = under.findIndex((l) => l.id === state.selected);
      select(under[(i + 1) % under.length].id);
    }
    drawOverlay();
    return;
  }
  if (!editable(d.layer)) { drawOverlay(); showProps(); return; }
  await edit(geometryEdit(d.layer, d.orig, d.box));
}

// the fields that put ``layer`` (drawn in ``from``) into the box ``to`` (mm)
function geometryEdit(layer, from, to) {
  const mm = (v) => ({ mm: Math.round(v * 100) / 100 });
  const [x, y, w, h] = to, fields = {};
  if (["rect", "rounded", "text", "image"].includes(layer.type)) {
    if (Math.abs(x - from[0]) > 1e-6) fields.x = mm(x);
    if (Math.abs(y - from[1]) > 1e-6) fields.y = mm(y);
    if (Math.abs(w - from[2]) > 1e-6) fields.w = mm(w);
    if (Math.abs(h - from[3]) > 1e-6) fields.h = mm(h);
  } else if (layer.type === "circle") {
    fields.cx = mm(x + w / 2); fields.cy = mm(y + h / 2);
    if (Math.abs(w - from[2]) > 1e-6 || Math.abs(h - from[3]) > 1e-6) fields.r = mm(Math.max(w, h) / 2);
  } else {
    const fx = (v) => x + (from[2] > 0 ? (v - from[0]) * w / from[2] : v - from[0]);
    const fy = (v) => y + (from[3] > 0 ? (v - from[1]) * h / from[3] : v - from[1]);
    const g = layer.geom;
    if (layer.type === "line") {
      Object.assign(fields, { x1: mm(fx(g.x1)), y1: mm(fy(g.y1)), x2: mm(fx(g.x2)), y2: mm(fy(g.y2)) });
    } else {
      fields.points = g.points.map(([px, py]) => [Math.round(fx(px) * 100) / 100, Math.round(fy(py) * 100) / 100]);
    }
  }
  return { op: "set", file: layer.file, index: layer.index, fields, ref: state.card.trim_mm };
}

function nudge(dx, dy) {
  const layer = selectedLayer();
  if (!layer || !editable(layer)) return;
  const [x, y, w, h] = layer.box;
  edit(geometryEdit(layer, layer.box, [x + dx, y + dy, w, h]));
}

// ---------------------------------------------------------------- selection, layer list, problems
function select(id) {
  state.selected = id;
  drawOverlay();
  listLayers();
  showProps();
}

function listLayers() {
  const list = $("layer-list"), card = state.card;
  list.innerHTML = "";
  card.layers.slice().reverse().forEach((layer) => {
    const li = document.createElement("li");
    li.dataset.layer = layer.id;
    li.classList.toggle("selected", layer.id === state.selected);
    if (layer.source === "shared") li.classList.add("shared");
    else if (layer.included) li.classList.add("included");
    if (problemOf(layer.id, "fit") || layer.error) li.classList.add("problem");
    const what = document.createElement("span");
    what.className = "what";
    const v = layer.values;
    const label = `${layer.index + 1} ${layer.type}${layer.name ? " " + layer.name : ""}` +
      (v.text ? `: ${v.text}` : v.src ? `: ${v.src}` : v.fill ? ` ${v.fill}` : "");
    what.textContent = label.length > LABEL_CHARS ? label.slice(0, LABEL_CHARS - 1) + "\u2026" : label;
    what.title = `${layer.id}: ${label}`;
    const eye = document.createElement("input");
    eye.type = "checkbox";
    eye.className = "visible";
    eye.checked = !layer.hidden;
    eye.title = "shown on this page (hiding changes no file)";
    eye.addEventListener("click", (e) => e.stopPropagation());
    eye.addEventListener("change", () => {
      if (eye.checked) state.hidden.delete(layer.id); else state.hidden.add(layer.id);
      redraw();
    });
    li.append(eye, what);
    if (editable(layer)) {
      const own = card.layers.filter((l) => l.file === layer.file);
      const last = Math.max(...own.map((l) => l.index));
      for (const [label, title, op] of [["\u2191", "up (drawn later)", "up"], ["\u2193", "down (drawn earlier)", "down"],
                                        ["2\u00d7", "duplicate", "duplicate"], ["\u2715", "delete", "delete"]]) {
        const b = document.createElement("button");
        b.textContent = label; b.title = title; b.dataset.op = op;
        if ((op === "up" && layer.index >= last) || (op === "down" && layer.index === 0)) b.disabled = true;
        b.addEventListener("click", (e) => { e.stopPropagation(); layerOp(layer, op); });
        li.append(b);
      }
    }
    li.addEventListener("click", () => select(layer.id));
    list.append(li);
  });
  const add = $("add-layer");
  add.innerHTML = "";
  const own = card.template_source === "folder";
  for (const type of Object.keys(state.deck.schema)) {
    if (type === "rounded") continue;
    const b = document.createElement("button");
    b.textContent = `+ ${type}`;
    b.dataset.add = type;
    b.disabled = !own || (type === "image" && !state.deck.pictures.length);
    b.title = own ? `add a ${type} layer to ${card.template}` : `${card.template} is shared: copy it first`;
    b.addEventListener("click", () => addLayer(type));
    add.append(b);
  }
}

function layerOp(layer, op) {
  const to = op === "up" ? layer.index + 1 : op === "down" ? layer.index - 1 : null;
  const body = to === null ? { op, file: layer.file, index: layer.index }
    : { op: "move", file: layer.file, index: layer.index, to };
  const sel = selectedLayer();
  // the selection stays on the layer it was on, wherever the edit puts it (ids are file:place)
  const follow = () => {
    if (!sel || sel.file !== layer.file) return;
    const i = placeAfter(sel.index, op, layer.index, to);
    state.selected = i === null ? null : `${sel.file}:${i + 1}`;
  };
  return edit(body, follow);
}

// Where the layer at place ``i`` (0-based) of a file is after ``op`` on its layer ``at``
// ("up"/"down": swapped with ``to``; "duplicate": the copy inserted after it); null once deleted.
function placeAfter(i, op, at, to) {
  if (op === "delete") return i === at ? null : i > at ? i - 1 : i;
  if (op === "duplicate") return i > at ? i + 1 : i;
  return i === at ? to : i === to ? at : i;
}

// a new layer of ``type``: a box centred on the card, inside the safe area
function newLayer(type) {
  const [w, h] = state.card.trim_mm, s = state.card.safe_mm;
  const bw = Math.min(30, w - 2 * s), bh = Math.min(15, h - 2 * s);
  const x = Math.round((w - bw) / 2 * 2) / 2, y = Math.round((h - bh) / 2 * 2) / 2;
  const r2 = (v) => Math.round(v * 100) / 100;
  switch (type) {
    case "rect": return { type, x, y, w: bw, h: bh, fill: "#90caf9" };
    case "text": return { type, text: "Text", x, y, w: bw, h: bh, size: 10, fit: "shrink", wrap: true };
    case "circle": return { type, cx: r2(w / 2), cy: r2(h / 2), r: r2(bh / 2), fill: "#90caf9" };
    case "line": return { type, x1: x, y1: r2(h / 2), x2: r2(x + bw), y2: r2(h / 2), stroke: "#000000" };
    case "polygon": return { type, points: [[r2(w / 2), y], [r2(x + bw), r2(y + bh)], [x, r2(y + bh)]], fill: "#90caf9" };
    case "image": return { type, src: state.deck.pictures[0], x, y, w: bw, h: bh };
    default: return { type };
  }
}

async function addLayer(type) {
  const card = state.card;
  const own = card.layers.filter((l) => l.file === card.template);
  const at = own.length ? Math.max(...own.map((l) => l.index)) + 1 : 0;
  await edit({ op: "add", file: card.template, at, layer: newLayer(type) });
  const added = state.card.layers.find((l) => l.file === card.template && l.index === at);
  if (added) select(added.id);
}

function showProblems() {
  const box = $("problems");
  box.innerHTML = "";
  const rows = component().rows;
  const fit = state.problems.filter((p) => p.kind === "fit"), safe = state.problems.filter((p) => p.kind === "safe");
  if (!fit.length && !safe.length) return;
  const ul = document.createElement("ul");
  for (const p of fit) {
    const li = document.createElement("li");
    li.dataset.problem = p.id;
    li.append(`${p.id}: the text fails on ${p.count} row${p.count === 1 ? "" : "s"}: `);
    for (const i of p.rows) {
      const a = document.createElement("a");
      a.textContent = `${i + 1} ${rows[i].title}`;
      a.dataset.row = i;
      a.addEventListener("click", () => goRow(i));
      li.append(a);
    }
    ul.append(li);
  }
  for (const p of safe) {
    const li = document.createElement("li");
    li.dataset.problem = p.id;
    li.textContent = `${p.id}: ${p.message}`;
    ul.append(li);
  }
  box.append(ul);
}

// ---------------------------------------------------------------- the properties panel (from the schema)
function showProps() {
  const box = $("props"), layer = selectedLayer();
  box.innerHTML = "";
  if (!layer) { box.innerHTML = '<p class="hint">Click a layer on the card or in the list.</p>'; return; }
  const schema = state.deck.schema[layer.type];
  const head = document.createElement("p");
  head.innerHTML = `<strong></strong>`;
  head.firstChild.textContent = `${layer.file} layer ${layer.index + 1} (${layer.type})`;
  box.append(head);
  if (layer.source === "shared") {
    const b = document.createElement("div");
    b.className = "banner";
    b.textContent = `This layer is in pnp's shared template ${layer.file}, used by other games too: it is not ` +
      "edited in place. ";
    const copy = document.createElement("button");
    copy.id = "copy-shared";
    copy.textContent = "Copy it into the game folder";
    copy.addEventListener("click", () => edit({ op: "copy", file: layer.file }));
    b.append(copy);
    box.append(b);
  } else if (layer.included) {
    const b = document.createElement("div");
    b.className = "banner";
    b.textContent = `This layer is in ${layer.file}, which ${state.card.template} includes: an edit changes every ` +
      "template that includes it.";
    box.append(b);
  }
  const doc = document.createElement("p");
  doc.className = "doc";
  doc.textContent = schema.doc;
  box.append(doc);
  for (const f of schema.fields) box.append(fieldRow(layer, f));
}

function shown(v) {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

function fieldRow(layer, f) {
  const row = document.createElement("div");
  row.className = "field";
  row.dataset.field = f.name;
  const set = layer.own.includes(f.name);
  if (set) row.classList.add("set");
  const label = document.createElement("label");
  label.textContent = f.name;
  if (f.unit) { const u = document.createElement("span"); u.className = "unit"; u.textContent = ` ${f.unit}`; label.append(u); }
  label.title = [f.doc, f.default !== null ? `default: ${shown(f.default)}` : f.required ? "required" : "default: none",
                 f.choices ? `one of: ${f.choices.join(", ")}` : "", f.min !== undefined ? `${f.min} to ${f.max}` : ""]
    .filter(Boolean).join("\n");
  row.append(label);
  const value = layer.values[f.name];
  const disabled = !editable(layer);
  const send = (v) => edit({ op: "set", file: layer.file, index: layer.index, fields: { [f.name]: v }, ref: state.card.trim_mm });
  let input;
  const options = (values, current) => {
    input = document.createElement("select");
    if (!f.required) input.add(new Option(`(default${f.default !== null ? ": " + shown(f.default) : ""})`, ""));
    for (const c of values) input.add(new Option(String(c), String(c)));
    input.value = set ? String(current) : "";
  };
  switch (f.kind) {
    case "choice":
      options(f.choices, value);
      input.addEventListener("change", () => {
        const c = f.choices.find((c) => String(c) === input.value);
        send(input.value === "" ? null : c);
      });
      break;
    case "font":
      options(state.deck.fonts, value);
      input.addEventListener("change", () => send(input.value || null));
      break;
    case "picture":
      options(state.deck.pictures, value);
      input.addEventListener("change", () => send(input.value || null));
      break;
    case "bool":
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(value);
      input.addEventListener("change", () => send(input.checked));
      break;
    case "colour": {
      input = document.createElement("span");
      const pick = document.createElement("input"), text = document.createElement("input");
      pick.type = "color"; text.type = "text"; text.size = 9;
      text.value = shown(value);
      if (/^#[0-9a-f]{6}$/i.test(text.value)) pick.value = text.value;
      pick.addEventListener("change", () => send(pick.value));
      text.addEventListener("change", () => send(text.value.trim() || null));
      pick.disabled = text.disabled = disabled;
      input.append(pick, text);
      break;
    }
    case "text": {
      const box = document.createElement(f.name === "text" ? "textarea" : "input");
      input = box;
      if (f.name !== "text") box.type = "text";
      box.value = shown(value);
      box.addEventListener("change", () => send(box.value === "" && !f.required ? null : box.value));
      if (f.name === "text" && component().columns.length) {
        const wrap = document.createElement("span");
        const cols = document.createElement("select");
        cols.className = "columns";
        cols.add(new Option("insert {column}", ""));
        for (const c of component().columns) cols.add(new Option(c, c));
        cols.addEventListener("change", () => { if (cols.value) send(box.value + `{${cols.value}}`); });
        cols.disabled = disabled;
        wrap.append(input, cols);
        input.disabled = disabled;
        row.append(wrap);
        input = null;
      }
      break;
    }
    case "when":
      input = document.createElement("input");
      input.type = "text";
      input.placeholder = "a column (shown when filled)";
      input.value = typeof value === "object" && value ? JSON.stringify(value) : shown(value);
      input.addEventListener("change", () => {
        const t = input.value.trim();
        let v = t || null;
        if (t.startsWith("{")) { try { v = JSON.parse(t); } catch (e) { say("when: write a column, or {\"column\": ..., \"equals\": ...}", true); return; } }
        send(v);
      });
      break;
    case "list":
      input = document.createElement("input");
      input.type = "text";
      input.value = shown(value);
      input.addEventListener("change", () => {
        const t = input.value.trim();
        if (!t) return send(null);
        try { send(JSON.parse(t)); } catch (e) { say(`${f.name}: write a list such as [1, 2]`, true); }
      });
      break;
    default:  // length, mm, number: a number as typed, or "50%", "3mm", "0.5in"
      input = document.createElement("input");
      input.type = "text";
      input.value = shown(value);
      input.placeholder = f.default !== null ? shown(f.default) : "";
      input.addEventListener("change", () => {
        const t = input.value.trim();
        if (!t) return send(null);
        send(/^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t);
      });
  }
  if (input) { input.disabled = disabled; row.append(input); }
  const reset = document.createElement("button");
  reset.className = "reset";
  reset.textContent = "\u00d7";
  reset.title = "remove from the template (back to the default)";
  reset.disabled = disabled || !set || f.required;
  reset.addEventListener("click", () => send(null));
  row.append(reset);
  return row;
}

// ---------------------------------------------------------------- rows, zoom, keys
function goRow(i) {
  const n = component().rows.length;
  state.row = ((i % n) + n) % n;
  redraw();
}

function findRow(text) {
  const rows = component().rows, t = text.trim().toLowerCase();
  const m = t.match(/^(\d+)(:|$)/);
  if (m) return Number(m[1]) - 1;
  const i = rows.findIndex((r) => r.title.toLowerCase() === t);
  return i >= 0 ? i : rows.findIndex((r) => r.title.toLowerCase().includes(t));
}

function zoom(f) {
  state.zoom = Math.min(8, Math.max(0.5, state.zoom * f));
  layout();
  drawOverlay();
}

function typing(e) { return ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName); }

document.addEventListener("keydown", (e) => {
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && e.key.toLowerCase() === "z" && !typing(e)) {
    e.preventDefault();
    step(e.shiftKey ? "redo" : "undo");
    return;
  }
  if (typing(e)) return;
  const n = e.shiftKey ? BIG_NUDGE : NUDGE;
  const moves = { ArrowLeft: [-n, 0], ArrowRight: [n, 0], ArrowUp: [0, -n], ArrowDown: [0, n] };
  if (moves[e.key] && state.selected) { e.preventDefault(); nudge(...moves[e.key]); }
  else if (e.key === "PageDown") goRow(state.row + 1);
  else if (e.key === "PageUp") goRow(state.row - 1);
  else if ((e.key === "Delete" || e.key === "Backspace") && selectedLayer() && editable(selectedLayer())) {
    layerOp(selectedLayer(), "delete");
  } else if (e.key === "Escape") select(null);
});

$("overlay").addEventListener("pointermove", onMove);
$("overlay").addEventListener("pointerup", onUp);
$("overlay").addEventListener("pointerdown", (e) => { if (e.target.id === "overlay") select(null); });
$("prev").addEventListener("click", () => goRow(state.row - 1));
$("next").addEventListener("click", () => goRow(state.row + 1));
$("search").addEventListener("change", (e) => { const i = findRow(e.target.value); if (i >= 0) goRow(i); });
$("undo").addEventListener("click", () => step("undo"));
$("redo").addEventListener("click", () => step("redo"));
$("zoom-in").addEventListener("click", () => zoom(1.25));
$("zoom-out").addEventListener("click", () => zoom(0.8));
$("stage-wrap").addEventListener("wheel", (e) => { if (e.ctrlKey) { e.preventDefault(); zoom(e.deltaY < 0 ? 1.1 : 0.9); } },
                                 { passive: false });
$("component").addEventListener("change", (e) => { state.comp = Number(e.target.value); state.row = 0; state.selected = null;
                                                   fillSides(); redraw(); });
$("side").addEventListener("change", (e) => { state.side = e.target.value; state.selected = null; redraw(); });

// an edit made outside the editor (the YAML in a text editor, the data in a spreadsheet): drawn again
// (a look that crossed a redraw or one of the page's own writes is dropped: its answer may be older)
setInterval(async () => {
  if (state.drag || !state.card || state.writing) return;
  const seen = state.card.version;
  try {
    const got = await api("/api/stamp");
    if (state.drag || state.writing || !state.card || state.card.version !== seen) return;
    if (got.stamp !== state.stamp) { state.stamp = got.stamp; await loadDeck(); await redraw(); }
  } catch (e) { /* the editor stopped */ }
}, 1000);

loadDeck().then(redraw).catch((e) => say(e.message, true));
