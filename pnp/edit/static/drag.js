// pnp edit: the layer boxes and guides drawn over pnp's card (mm, in the trim's coordinates), and
// direct manipulation: select, drag, resize handles (Shift keeps proportions), snapping with guides
// (Alt turns it off), arrow-key nudges. Loaded after editor.js (its state and API), before panels.js.
"use strict";

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
