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
