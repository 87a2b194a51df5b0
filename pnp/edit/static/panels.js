// pnp edit: the layer list, the problems list and the properties panel (every field from the template
// schema), rows, zoom and keys; starts the page. Loaded last, after editor.js and drag.js.
"use strict";

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
