// Varia playground: draws the board from the server's view of a game and plays through the JSON API.
// The page holds the game (rules text, start position, moves); the server replays it on each call.

import { drawPiece, setPlayers, setUpsideDown } from './pieces.js';
import { S, el, nameParts, geometry, drawCoordinates, drawBoardBack, drawLines, drawStack, pieceWords } from './board.js';
import { cap, drawReserves, drawLegend, drawMoveList } from './side.js';

const $ = (id) => document.getElementById(id);
const EDGE = 24; // pixels around the boards for coordinates and board names

const state = {
  source: '',
  format: 'var',
  start: null, // a position string, or null for the variant's setup
  moves: [], // long notation, from the start
  view: null, // the server's view of the game
  flipped: false,
  selected: null, // the cell whose moves are shown
  hand: null, // the name of the piece chosen in the hand to drop, or null
  generation: 0, // bumped by every change, so late answers are dropped
  thinking: false,
  shown: null, // a view of an earlier position being looked at, or null for the game's
  shownPly: null, // how many moves that position is after the start
  drag: null, // a piece being dragged: { from, x, y, moved, ghost }
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok) {
    const e = new Error(data.error || `HTTP ${res.status}`);
    e.data = data;
    e.status = res.status;
    throw e;
  }
  return data;
}

function gameBody(extra = {}) {
  const body = { source: state.source, format: state.format, moves: state.moves, ...extra };
  if (state.start) body.start = state.start;
  return body;
}

// Errors and notices are shown above the board, where the user is looking.
function showError(text) {
  const e = $('error');
  e.textContent = text || '';
  e.hidden = !text;
  if (text) showNotice('');
}

function showNotice(text) {
  const e = $('notice');
  e.textContent = text || '';
  e.hidden = !text;
}

// ---- game state changes ----

function setView(view) {
  state.view = view;
  state.moves = view.history.map((h) => h.long);
  state.selected = null;
  state.hand = null;
  state.shown = null;
  state.shownPly = null;
  showError('');
  render();
  maybeAi();
}

async function play(long) {
  const gen = ++state.generation;
  try {
    const view = await api('/api/move', gameBody({ move: long }));
    if (gen === state.generation) setView(view);
  } catch (e) {
    showError(e.message);
  }
}

// A seat (human or computer) for every player past the first two, in games of more.
function ensureSeats(players) {
  const last = $('who1').closest('label');
  for (const extra of document.querySelectorAll('label.extra-seat')) {
    if (+extra.dataset.side >= players.length) extra.remove();
  }
  let after = last;
  for (let side = 2; side < players.length; side++) {
    let label = document.querySelector(`label.extra-seat[data-side="${side}"]`);
    if (!label) {
      label = document.createElement('label');
      label.className = 'extra-seat';
      label.dataset.side = String(side);
      label.innerHTML = `<span class="player-name" data-side="${side}"></span> `
        + `<select id="who${side}" aria-label="player ${side + 1}"><option value="human">human</option>`
        + '<option value="ai" selected>computer</option></select>';
      label.querySelector('select').addEventListener('change', maybeAi);
      after.after(label);
    }
    after = label;
  }
}

function who(side) {
  const sel = $(`who${side}`);
  return sel ? sel.value : 'human';
}

function aiTurn() {
  const v = state.view;
  return v && !v.result && who(v.turn.side) === 'ai';
}

function maybeAi() {
  if (aiTurn() && !state.thinking) aiMove();
}

async function aiMove() {
  const v = state.view;
  if (!v || v.result || state.thinking) return;
  const gen = state.generation;
  const seconds = Math.min(10, Math.max(0.1, parseFloat($('ai-time').value) || 1));
  state.thinking = true;
  renderStatus();
  try {
    const answer = await api('/api/ai', gameBody({ time_ms: Math.round(seconds * 1000) }));
    state.thinking = false;
    if (gen === state.generation) {
      state.generation++;
      setView(answer.game);
    } else {
      maybeAi();
    }
  } catch (e) {
    state.thinking = false;
    if (e.status === 429) {
      setTimeout(maybeAi, 500);
    } else if (gen === state.generation) {
      showError(e.message);
    }
    renderStatus();
  }
}

async function restart(start) {
  state.generation++;
  try {
    const view = await api('/api/game', { source: state.source, format: state.format, moves: [], ...(start ? { start } : {}) });
    state.start = start || null;
    setView(view);
  } catch (e) {
    showError(e.message);
  }
}

async function undo() {
  const v = state.view;
  if (!v || !v.history.length) return;
  const history = v.history.slice();
  const humans = [0, 1].some((s) => who(s) === 'human');
  // Take back the computer's replies and the human's last move, so the human is to move again.
  let popped;
  do {
    popped = history.pop();
  } while (humans && history.length && who(popped.side) === 'ai');
  state.generation++;
  try {
    const view = await api('/api/game', gameBody({ moves: history.map((h) => h.long) }));
    state.view = view;
    state.moves = view.history.map((h) => h.long);
    state.selected = null;
    state.hand = null;
    state.shown = null;
    state.shownPly = null;
    showError('');
    render();
  } catch (e) {
    showError(e.message);
  }
}

// ---- the rules editor ----

async function apply() {
  const source = $('source').value;
  const format = $('format').value;
  const status = $('apply-status');
  status.textContent = 'loading…';
  try {
    const view = await api('/api/game', { source, format, moves: [] });
    state.source = source;
    state.format = format;
    state.start = null;
    state.generation++;
    $('diagnostics').innerHTML = '';
    errorLines = new Set();
    updateGutter();
    status.textContent = `applied: ${view.title}`;
    setView(view);
  } catch (e) {
    status.textContent = e.message;
    showDiagnostics(source, (e.data && e.data.diagnostics) || []);
  }
}

// Line numbers beside the text, the lines with errors marked.
let errorLines = new Set();
function updateGutter() {
  const n = $('source').value.split('\n').length;
  const gutter = $('gutter');
  gutter.innerHTML = '';
  for (let i = 1; i <= n; i++) {
    const span = document.createElement('span');
    span.textContent = String(i);
    if (errorLines.has(i)) span.className = 'err';
    gutter.append(span, '\n');
  }
  gutter.scrollTop = $('source').scrollTop;
}

function showDiagnostics(source, diags) {
  errorLines = new Set(diags.map((d) => d.line));
  updateGutter();
  if (diags.length) jumpTo(diags[0].line, diags[0].col);
  const list = $('diagnostics');
  list.innerHTML = '';
  const lines = source.split('\n');
  for (const d of diags) {
    const li = document.createElement('li');
    li.dataset.line = d.line;
    li.dataset.col = d.col;
    const text = lines[d.line - 1] ?? '';
    const caret = ' '.repeat(Math.max(0, d.col - 1)) + '^'.repeat(Math.max(1, d.end_line === d.line ? d.end_col - d.col : 1));
    li.textContent = `line ${d.line}, column ${d.col}: ${d.message}`;
    const pre = document.createElement('pre');
    pre.textContent = `${text}\n${caret} ${d.label}`;
    li.appendChild(pre);
    li.addEventListener('click', () => jumpTo(d.line, d.col));
    list.appendChild(li);
  }
}

function jumpTo(line, col) {
  const area = $('source');
  const lines = area.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += col - 1;
  area.focus();
  area.setSelectionRange(offset, offset + 1);
  // Scroll the line into view: about one line height per line.
  const lh = parseFloat(getComputedStyle(area).lineHeight) || 16;
  area.scrollTop = Math.max(0, (line - 5) * lh);
  $('gutter').scrollTop = area.scrollTop;
}

async function loadVariant(id) {
  try {
    const v = await api(`/api/variants/${encodeURIComponent(id)}`);
    $('source').value = v.source;
    $('format').value = v.format;
    await apply();
    if (state.source === v.source) {
      state.bundledSource = v.source;
      markLoaded(null);
      $('variant').value = id;
    }
  } catch (e) {
    showError(e.message);
  }
}

// ---- drawing ----

// The view on the board: an earlier position being looked at, or the game's.
const shownView = () => state.shown || state.view;
const browsing = () => state.shown !== null;

function render() {
  const v = shownView();
  if (!v) return;
  $('title').textContent = v.title;
  document.title = `${v.title} — Varia playground`;
  setPlayers(v.players);
  ensureSeats(v.players);
  for (const span of document.querySelectorAll('.player-name')) {
    const name = v.players[+span.dataset.side] || '';
    const out = (v.out || []).includes(+span.dataset.side) ? ' (out)' : '';
    span.textContent = name.charAt(0).toUpperCase() + name.slice(1) + out;
  }
  renderBoard(v);
  renderStatus();
  renderSide(state.view);
}

function renderBoard(v) {
  const svg = $('board');
  svg.innerHTML = '';
  const geo = geometry(v, state.flipped);
  const top = geo.layers.length > 1 ? EDGE + 6 : 6;
  svg.setAttribute('viewBox', `${-EDGE} ${-top} ${geo.width + EDGE + 6} ${geo.height + top + EDGE}`);
  const defs = el('defs', {}, svg);
  const grad = el('radialGradient', { id: 'check-glow' }, defs);
  el('stop', { offset: '0%', 'stop-color': '#ff0000', 'stop-opacity': '1' }, grad);
  el('stop', { offset: '35%', 'stop-color': '#e70000', 'stop-opacity': '0.9' }, grad);
  el('stop', { offset: '100%', 'stop-color': '#a50000', 'stop-opacity': '0' }, grad);
  const cells = v.board.cells;
  const holes = new Set(v.squares ? v.squares.holes : []);
  const owner = new Map(v.squares ? v.squares.owners.map(([c, p]) => [c, p]) : []);
  const untouchable = new Set(v.squares ? v.squares.untouchable : []);
  const touched = new Set(v.squares ? v.squares.touched : []);
  const coveredBy = new Map(v.covered.map(([sq, at]) => [sq, at]));
  const capacity = new Map(v.capacity.map(([c, most]) => [c, most]));
  const stacks = new Map(v.stacks.map((s) => [s.cell, s.pieces]));
  const checked = new Set(v.checked || []);
  const last = v.history.length ? v.history[v.history.length - 1] : null;
  const chosen = state.hand !== null ? v.legal.filter((m) => m.kind === 'drop' && m.piece === state.hand)
    : state.selected === null ? [] : v.legal.filter((m) => m.from === state.selected && m.kind !== 'end-turn' && m.kind !== 'choice' && m.kind !== 'drop');
  const targets = new Set(chosen.map((m) => m.to));

  const display = v.board.display || { points: false, lines: [], rivers: [], upside_down: [] };
  const points = display.points;
  setUpsideDown(display.upside_down, state.flipped);
  if (points) drawBoardBack(svg, geo, state.flipped);
  const squares = el('g', { class: 'squares' }, svg);
  if (points) drawLines(svg, v, geo, display);
  const pieces = el('g', { class: 'pieces' }, svg);
  const marks = el('g', { class: 'marks' }, svg);
  const betweens = el('g', { class: 'between' }, svg);
  drawCoordinates(svg, v, geo, state.flipped);

  cells.forEach((c, id) => {
    const spots = geo.spots[id];
    const stack = stacks.get(id);
    const cover = coveredBy.has(id) ? cells[coveredBy.get(id)].name : null;
    const title = cover ? `${c.name}: covered by the piece on ${cover}` : `${c.name}${stack ? ': ' + stack.map((p) => pieceWords(p, v.players)).join(', ') + (stack.length > 1 ? ' (drawn lowest first)' : '') : ''}`;
    if (c.covers) {
      // A location between squares: drawn where it is occupied, a target or selected.
      const [cx, cy] = spots[0];
      const active = stack || targets.has(id) || state.selected === id;
      if (!active) return;
      const g = el('g', { class: 'cell between-cell clickable', 'data-cell': c.name, 'data-id': id }, betweens);
      el('title', {}, g).textContent = `${title} (between ${c.covers.join(' ')})`;
      el('circle', { class: state.selected === id ? 'selected' : 'between-spot', cx, cy, r: S * 0.2 }, g);
      if (stack) drawStack(g, stack, cx, cy, true);
      if (targets.has(id)) el('circle', { class: 'target-dot', 'data-target': c.name, cx, cy, r: S * 0.12 }, g);
      g.addEventListener('click', () => clickCell(id));
      return;
    }
    // A square's name is written in it only where the edge coordinates do not give it (a
    // square shared by several boards, or a name not of file and rank).
    const parts = nameParts(c.name);
    const named = c.at.length > 1 || !parts;
    spots.forEach(([x, y], k) => {
      const [gx, gy] = c.at[k];
      const g = el('g', { class: 'cell clickable', 'data-cell': c.name, 'data-id': id, 'data-spot': k }, squares);
      el('title', {}, g).textContent = title;
      const dark = ((gx + gy) % 2 + 2) % 2 === 0;
      // On points, a cell is a round spot around its point: its marks are drawn round too.
      const r = points ? { rx: S / 2, ry: S / 2 } : {};
      el('rect', { class: `sq ${holes.has(id) ? 'hole' : points ? 'point' : dark ? 'dark' : 'light'}`, x, y, width: S, height: S, ...r }, g);
      if (owner.has(id)) el('rect', { class: `owner${owner.get(id) % 2}`, x, y, width: S, height: S, ...r }, g);
      if (last && last.kind !== 'choice' && (last.from === id || last.to === id)) el('rect', { class: 'last-move', x, y, width: S, height: S, ...r }, g);
      if (state.selected === id) el('rect', { class: 'selected', x, y, width: S, height: S, ...r }, g);
      if (checked.has(id)) el('circle', { class: 'check-mark', 'data-check': c.name, cx: x + S / 2, cy: y + S / 2, r: S * 0.5, fill: 'url(#check-glow)' }, g);
      if (cover !== null) el('rect', { class: 'covered', x: x + 3, y: y + 3, width: S - 6, height: S - 6 }, g);
      if (c.at.length > 1) el('rect', { class: 'shared-mark', x: x + 2, y: y + 2, width: S - 4, height: S - 4 }, g);
      if (untouchable.has(id)) {
        el('line', { class: 'untouchable', x1: x + 4, y1: y + 4, x2: x + S - 4, y2: y + S - 4 }, g);
        el('line', { class: 'untouchable', x1: x + S - 4, y1: y + 4, x2: x + 4, y2: y + S - 4 }, g);
      }
      if (capacity.has(id)) {
        // A corner mark: this square may hold several pieces.
        el('path', { class: 'crowd-mark', d: `M${x + S - 16},${y} L${x + S},${y} L${x + S},${y + 16} Z` }, g);
      }
      if (touched.has(id)) el('rect', { class: 'touched', x: x + 5, y: y + 5, width: S - 10, height: S - 10 }, g);
      if (named) {
        const name = el('text', { class: 'cell-name', x: x + 3, y: y + S - 5 }, g);
        name.textContent = c.name;
      }
      g.addEventListener('click', () => clickCell(id));
      if (stack) drawStack(pieces, stack, x, y, false);
      if (targets.has(id)) {
        const cls = stack ? 'target-ring' : 'target-dot';
        el('circle', { class: cls, 'data-target': c.name, cx: x + S / 2, cy: y + S / 2, r: S * (stack ? 0.45 : 0.14) }, marks);
      }
    });
  });
  // Marks and pieces must not swallow clicks meant for the squares below them.
  marks.setAttribute('pointer-events', 'none');
  pieces.setAttribute('pointer-events', 'none');
  $('end-turn').hidden = browsing() || !v.legal.some((m) => m.kind === 'end-turn') || aiTurn();
  renderChoices(v);
}

// Choices made before the first move (an army each): one button per option.
function renderChoices(v) {
  const box = $('choice-options');
  box.replaceChildren();
  const options = browsing() || aiTurn() ? [] : v.legal.filter((m) => m.kind === 'choice');
  box.hidden = options.length === 0;
  for (const m of options) {
    const b = document.createElement('button');
    b.textContent = m.label;
    b.dataset.move = m.long;
    b.addEventListener('click', () => play(m.long));
    box.appendChild(b);
  }
}

function renderStatus() {
  const v = shownView();
  if (!v) return;
  const banner = $('banner');
  const live = state.view;
  banner.hidden = !live.result;
  banner.textContent = live.result ? `Game over: ${live.result.text}` : '';
  const browse = $('browse');
  browse.hidden = !browsing();
  if (browsing()) {
    browse.textContent = `Looking at the position after move ${state.shownPly} of ${live.history.length} \u2014 click the last move or press End to return`;
  }
  if (v.result) {
    $('status').textContent = browsing() ? v.result.text : '';
    return;
  }
  const name = v.players[v.turn.side] || `player ${v.turn.side + 1}`;
  let text = `${name.charAt(0).toUpperCase() + name.slice(1)} to move`;
  if (v.turn.actions > 1) text += ` (action ${v.turn.action + 1} of ${v.turn.actions}: ${v.turn.kinds.join(' or ')})`;
  if (v.check) text += ' \u2014 check!';
  if (state.thinking && !browsing()) text += ' \u2014 the computer is thinking\u2026';
  $('status').textContent = text;
}

function renderSide(v) {
  drawReserves($('reserves'), v);
  const hands = $('hands');
  hands.textContent = '';
  if (v.hands) {
    // The side to move's pieces in hand are buttons: choose one, then the cell to drop it on.
    const live = !v.result && !browsing() && !aiTurn();
    hands.append('In hand (choose a piece, then a cell) \u2014 ');
    v.hands.forEach((hand, p) => {
      if (p) hands.append(' \u00B7 ');
      hands.append(`${cap(v.players[p])}: `);
      if (!hand.length) hands.append('\u2014');
      hand.forEach((h, k) => {
        if (k) hands.append(', ');
        const text = h.count > 1 ? `${h.name} \u00D7${h.count}` : h.name;
        const canDrop = live && p === v.turn.side && v.legal.some((m) => m.kind === 'drop' && m.piece === h.name);
        if (!canDrop) {
          hands.append(text);
          return;
        }
        const b = document.createElement('button');
        b.className = 'hand-piece' + (state.hand === h.name ? ' chosen' : '');
        b.dataset.piece = h.name;
        b.textContent = text;
        b.addEventListener('click', () => {
          state.hand = state.hand === h.name ? null : h.name;
          state.selected = null;
          renderBoard(v);
          renderSide(v);
        });
        hands.appendChild(b);
      });
    });
  }
  drawLegend($('legend'), v);
  const list = $('moves');
  drawMoveList(list, v, browsing() ? state.shownPly : v.history.length, browse);
  if (!browsing()) list.scrollTop = list.scrollHeight;
  if (document.activeElement !== $('position')) $('position').value = shownView().position;
}

// ---- looking back through the game ----

async function browse(ply) {
  const v = state.view;
  if (!v) return;
  const n = v.history.length;
  ply = Math.max(0, Math.min(n, ply));
  state.selected = null;
  state.hand = null;
  if (ply === n) {
    state.shown = null;
    state.shownPly = null;
    render();
    return;
  }
  const gen = state.generation;
  try {
    const view = await api('/api/game', gameBody({ moves: v.history.slice(0, ply).map((h) => h.long) }));
    if (gen !== state.generation) return;
    state.shown = view;
    state.shownPly = ply;
    render();
  } catch (e) {
    showError(e.message);
  }
}

const shownPlyNow = () => (browsing() ? state.shownPly : state.view ? state.view.history.length : 0);

// ---- clicks and drags ----

function clickCell(id) {
  if (state.dragged) {
    state.dragged = false;
    return;
  }
  const v = state.view;
  if (!v || v.result || aiTurn() || browsing()) return;
  // A drop needs its piece chosen in the hand first: a click on a cell alone never drops.
  if (state.hand !== null) {
    const drops = v.legal.filter((m) => m.kind === 'drop' && m.piece === state.hand && m.to === id);
    state.hand = null;
    if (drops.length) {
      choose(drops);
      return;
    }
    renderSide(v);
  }
  const legal = v.legal.filter((m) => m.kind !== 'end-turn' && m.kind !== 'choice' && m.kind !== 'drop');
  if (state.selected !== null) {
    const cands = legal.filter((m) => m.from === state.selected && m.to === id && id !== state.selected);
    if (cands.length) {
      choose(cands);
      return;
    }
    if (id === state.selected) {
      state.selected = null;
      renderBoard(v);
      return;
    }
  }
  let from = legal.filter((m) => m.from === id);
  const cover = v.covered.find(([sq]) => sq === id);
  if (!from.length && cover) {
    // A square covered by a piece standing between squares: that piece is meant.
    id = cover[1];
    from = legal.filter((m) => m.from === id);
  }
  if (!from.length) {
    state.selected = null;
    renderBoard(v);
    return;
  }
  if (from.every((m) => m.to === id)) {
    // Only actions on this very location (placing a square there): no target to pick.
    choose(from);
    return;
  }
  state.selected = id;
  renderBoard(v);
}

// The cell under a point of the page (the square or between location drawn there).
function cellAt(x, y) {
  for (const e of document.elementsFromPoint(x, y)) {
    const g = e.closest && e.closest('[data-id]');
    if (g) return +g.dataset.id;
  }
  return null;
}

// Drag and drop: press on a piece that can move, drag it, release on a target. A press and
// release without moving is a click, handled as above.
function startDrag(e) {
  const v = state.view;
  if (!v || v.result || aiTurn() || browsing() || e.button !== 0) return;
  const id = cellAt(e.clientX, e.clientY);
  if (id === null) return;
  const from = v.legal.filter((m) => m.from === id && m.to !== id && m.kind !== 'end-turn' && m.kind !== 'choice');
  if (!from.length) return;
  state.drag = { from: id, x: e.clientX, y: e.clientY, moved: false, ghost: null };
}

function moveDrag(e) {
  const d = state.drag;
  if (!d) return;
  if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 5) return;
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = e.clientX;
  pt.y = e.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  if (!d.moved) {
    d.moved = true;
    state.selected = d.from;
    renderBoard(state.view);
    const stack = state.view.stacks.find((s) => s.cell === d.from);
    if (stack) {
      d.ghost = el('g', { class: 'drag-ghost', 'pointer-events': 'none' }, svg);
      drawPiece(d.ghost, stack.pieces[stack.pieces.length - 1], 0, 0, S);
    }
  }
  if (d.ghost) d.ghost.setAttribute('transform', `translate(${p.x} ${p.y})`);
}

function endDrag(e) {
  const d = state.drag;
  state.drag = null;
  if (!d || !d.moved) return;
  if (d.ghost) d.ghost.remove();
  state.dragged = true; // the click that follows the release is not a click
  setTimeout(() => { state.dragged = false; }, 0);
  const to = cellAt(e.clientX, e.clientY);
  const v = state.view;
  const cands = v.legal.filter((m) => m.from === d.from && m.to === to && m.kind !== 'end-turn' && m.kind !== 'choice');
  if (to !== null && to !== d.from && cands.length) {
    choose(cands);
  } else {
    state.selected = to === d.from ? d.from : null;
    renderBoard(v);
  }
}

function choose(cands) {
  if (cands.length === 1) {
    play(cands[0].long);
    return;
  }
  const dialog = $('chooser');
  const box = $('choices');
  box.innerHTML = '';
  for (const m of cands) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.move = m.long;
    const n = document.createElement('span');
    n.className = 'notation';
    n.textContent = m.short;
    b.append(n, m.label);
    b.addEventListener('click', () => {
      dialog.close();
      play(m.long);
    });
    box.appendChild(b);
  }
  dialog.showModal();
}

// ---- PGN ----

function savePgn() {
  const v = state.view;
  if (!v) return;
  const blob = new Blob([v.pgn], { type: 'application/x-chess-pgn' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${v.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.pgn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Loads a PGN's game; a game of another listed variant (its Variant tag names it) switches to
// that variant first.
async function loadPgn(text) {
  state.generation++;
  try {
    let view;
    try {
      view = await api('/api/game', { source: state.source, format: state.format, pgn: text });
    } catch (e) {
      const other = e.data && e.data.variant;
      if (!other) throw e;
      await loadVariant(other);
      if ($('variant').value !== other) {
        showError(e.message);
        return;
      }
      view = await api('/api/game', { source: state.source, format: state.format, pgn: text });
      state.generation++;
      state.start = view.start;
      setView(view);
      showNotice(`The PGN is a game of ${view.title}: switched to it.`);
      return;
    }
    state.start = view.start;
    setView(view);
  } catch (e) {
    showError(e.message);
  }
}

// ---- the variant selector ----

// Shows in the selector what is loaded: a bundled variant, or the file opened or text applied.
function markLoaded(label) {
  const select = $('variant');
  let o = select.querySelector('option[value="__loaded"]');
  if (label === null) {
    if (o) o.remove();
    return;
  }
  if (!o) {
    o = document.createElement('option');
    o.value = '__loaded';
    select.prepend(o);
  }
  o.textContent = label;
  select.value = '__loaded';
}

// ---- start-up ----

async function init() {
  $('new').addEventListener('click', () => restart(null));
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => { state.flipped = !state.flipped; render(); });
  $('ai-move').addEventListener('click', () => aiMove());
  $('who0').addEventListener('change', maybeAi);
  $('who1').addEventListener('change', maybeAi);
  $('end-turn').addEventListener('click', () => play('end'));
  $('apply').addEventListener('click', async () => {
    await apply();
    if (state.view && state.source === $('source').value && state.source !== state.bundledSource) {
      markLoaded(`${state.view.title} (edited)`);
    }
  });
  $('source').addEventListener('input', updateGutter);
  $('source').addEventListener('scroll', () => { $('gutter').scrollTop = $('source').scrollTop; });
  $('variant').addEventListener('change', (e) => {
    if (e.target.value !== '__loaded') loadVariant(e.target.value);
  });
  $('copy-position').addEventListener('click', async () => {
    const input = $('position');
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand('copy');
    }
  });
  $('set-position').addEventListener('click', () => restart($('position').value.trim()));
  $('open').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('source').value = await file.text();
    $('format').value = file.name.toLowerCase().endsWith('.zrf') ? 'zrf' : 'var';
    await apply();
    if (state.source === $('source').value) {
      state.bundledSource = null;
      markLoaded(`${file.name} (${state.view.title})`);
    }
    e.target.value = '';
  });
  $('save-pgn').addEventListener('click', savePgn);
  $('open-pgn').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    await loadPgn(await file.text());
    e.target.value = '';
  });
  $('nav-start').addEventListener('click', () => browse(0));
  $('nav-back').addEventListener('click', () => browse(shownPlyNow() - 1));
  $('nav-forward').addEventListener('click', () => browse(shownPlyNow() + 1));
  $('nav-end').addEventListener('click', () => browse(Infinity));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || !state.view) return;
    const to = { ArrowLeft: shownPlyNow() - 1, ArrowRight: shownPlyNow() + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    browse(to);
  });
  const board = $('board');
  board.addEventListener('pointerdown', startDrag);
  window.addEventListener('pointermove', moveDrag);
  window.addEventListener('pointerup', endDrag);
  const { variants } = await api('/api/variants');
  const select = $('variant');
  for (const v of variants) {
    const o = document.createElement('option');
    o.value = v.id;
    o.textContent = v.title;
    o.title = v.about;
    select.appendChild(o);
  }
  const wanted = new URLSearchParams(location.search).get('variant');
  const id = variants.some((v) => v.id === wanted) ? wanted : variants[0].id;
  select.value = id;
  await loadVariant(id);
}

window.varia = state; // for the curious, from the browser console
init().catch((e) => showError(e.message));
