// Varia playground: the board's geometry and drawing (squares or points, lines, rivers,
// coordinates, stacks) from the server's view of a board, as SVG.

import { drawPiece } from './pieces.js';

const SVG = 'http://www.w3.org/2000/svg';
export const S = 60; // pixels per square
const GAP = 1.2; // squares between boards drawn side by side (room for their rank numbers)

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// A piece as a cell's tooltip names it: its player and its type.
export function pieceWords(p, players) {
  return `${players[p.player] ?? p.player} ${p.name}`;
}

// A cell name's board prefix, file and rank: `Ac1` is A, c, 1; `e4` is '', e, 4; `a1.5` has none.
export function nameParts(name) {
  const m = /^([A-Z]*)([a-z]+)(\d+)$/.exec(name);
  return m ? { board: m[1], file: m[2], rank: m[3] } : null;
}

// Screen placement of the board's display coordinates: boards side by side, lowest layer first.
export function geometry(view, flipped) {
  const cells = view.board.cells;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const c of cells) {
    if (c.covers) continue;
    for (const [x, y] of c.at) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  const layers = view.board.layers;
  const w = maxX - minX + 1, h = maxY - minY + 1;
  const boardOf = (l) => {
    let li = layers.indexOf(l);
    if (flipped) li = layers.length - 1 - li;
    return li;
  };
  const place = ([x, y, l]) => {
    const fx = flipped ? maxX - x : x - minX;
    const fy = flipped ? y - minY : maxY - y;
    return [(fx + boardOf(l) * (w + GAP)) * S, fy * S];
  };
  const byName = new Map(cells.map((c, i) => [c.name, i]));
  // Where each cell is drawn: top-left corners of squares, centres for between locations.
  const spots = cells.map((c) => {
    if (!c.covers) return c.at.map(place);
    const pts = c.covers.map((n) => place(cells[byName.get(n)].at[0]));
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length + S / 2;
    const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length + S / 2;
    return [[cx, cy]];
  });
  return { spots, place, boardOf, w, h, minX, maxX, minY, maxY, layers,
    width: (layers.length * w + (layers.length - 1) * GAP) * S, height: h * S };
}

// Coordinates along each board's edges, read from its cells' names, and each board's name
// (the prefix its cells share: A, B, C in The Central Squares) above it.
export function drawCoordinates(svg, v, geo, flipped) {
  const g = el('g', { class: 'coords' }, svg);
  const multi = geo.layers.length > 1;
  for (const l of geo.layers) {
    const own = v.board.cells.filter((c) => !c.covers && c.at.length === 1 && c.at[0][2] === l);
    const parts = own.map((c) => [c, nameParts(c.name)]).filter(([, p]) => p);
    const files = new Map(), ranks = new Map(), prefixes = new Set();
    for (const [c, p] of parts) {
      const [x, y] = c.at[0];
      if (!files.has(x)) files.set(x, p.file);
      if (!ranks.has(y)) ranks.set(y, p.rank);
      prefixes.add(p.board);
    }
    for (const [x, file] of files) {
      const [px] = geo.place([x, geo.minY, l]);
      const t = el('text', { class: 'coord file', x: px + S / 2, y: geo.height + 17, 'text-anchor': 'middle' }, g);
      t.textContent = file;
    }
    for (const [y, rank] of ranks) {
      const [px, py] = geo.place([flipped ? geo.maxX : geo.minX, y, l]);
      const t = el('text', { class: 'coord rank', x: px - 7, y: py + S / 2, 'text-anchor': 'end', 'dominant-baseline': 'central' }, g);
      t.textContent = rank;
    }
    if (multi) {
      const [px] = geo.place([flipped ? geo.maxX : geo.minX, geo.maxY, l]);
      const name = prefixes.size === 1 && [...prefixes][0] ? `board ${[...prefixes][0]}` : `board ${geo.layers.indexOf(l) + 1}`;
      const t = el('text', { class: 'board-label', 'data-board': name, x: px + (geo.w * S) / 2, y: -9, 'text-anchor': 'middle' }, g);
      t.textContent = name;
    }
  }
}

// A board on points: each layer's background, under the lines and the cells' click areas.
export function drawBoardBack(svg, geo, flipped) {
  const g = el('g', { class: 'board-back' }, svg);
  for (const l of geo.layers) {
    const [x0, y0] = geo.place([flipped ? geo.maxX : geo.minX, flipped ? geo.minY : geo.maxY, l]);
    el('rect', { class: 'points-board', x: x0, y: y0, width: geo.w * S, height: geo.h * S, rx: 6 }, g);
  }
}

// The lines of a board on points: every two cells one apart in x or y are joined, except
// across a river away from the board's edges; then the file's own lines and the river labels.
export function drawLines(svg, v, geo, display) {
  const g = el('g', { class: 'board-lines', 'pointer-events': 'none' }, svg);
  const cells = v.board.cells;
  const at = new Map();
  const edges = new Map(); // layer -> [least x, greatest x]
  for (const c of cells) {
    if (c.covers) continue;
    for (const [x, y, l] of c.at) {
      at.set(`${x},${y},${l}`, [x, y, l]);
      const e = edges.get(l) || [x, x];
      edges.set(l, [Math.min(e[0], x), Math.max(e[1], x)]);
    }
  }
  const rivers = display.rivers.map((r) => ({ ...r, y: cells[r.below].at[0][1], l: cells[r.below].at[0][2] }));
  const centre = (p) => geo.place(p).map((q) => q + S / 2);
  const line = (a, b, cls) => {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    el('line', { class: cls, x1, y1, x2, y2 }, g);
  };
  for (const [x, y, l] of at.values()) {
    if (at.has(`${x + 1},${y},${l}`)) line([x, y, l], [x + 1, y, l], 'grid-line');
    if (!at.has(`${x},${y + 1},${l}`)) continue;
    const [lo, hi] = edges.get(l);
    const crossesRiver = rivers.some((r) => r.l === l && r.y === y);
    if (!crossesRiver || x === lo || x === hi) line([x, y, l], [x, y + 1, l], 'grid-line');
  }
  for (const [a, b] of display.lines) line(cells[a].at[0], cells[b].at[0], 'extra-line');
  for (const r of rivers) {
    if (!r.label) continue;
    const [, ya] = centre(cells[r.below].at[0]);
    const [, yb] = centre(cells[r.above].at[0]);
    const [lo, hi] = edges.get(r.l);
    const [xa] = centre([lo, r.y, r.l]);
    const [xb] = centre([hi, r.y, r.l]);
    const t = el('text', { class: 'river-label', x: (xa + xb) / 2, y: (ya + yb) / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = r.label;
  }
}

export function drawStack(g, pieces, x, y, between) {
  if (between) {
    el('circle', { class: 'between-ring', cx: x, cy: y, r: S * 0.4 }, g);
    pieces.forEach((pc, i) => drawPiece(g, pc, x + i * 6, y - i * 6, S * 0.75));
    return;
  }
  if (pieces.length === 1) {
    drawPiece(g, pieces[0], x + S / 2, y + S / 2, S * 0.92);
    return;
  }
  // A stack: bottom piece at the lower left, each next one up and to the right, numbered.
  const n = pieces.length;
  pieces.forEach((pc, i) => {
    const t = i / (n - 1);
    const cx = x + S * (0.3 + 0.4 * t), cy = y + S * (0.68 - 0.38 * t);
    drawPiece(g, pc, cx, cy, S * 0.6);
    const o = el('text', { class: 'order', x: cx - S * 0.22, y: cy - S * 0.12 }, g);
    o.textContent = String(i + 1);
  });
}
