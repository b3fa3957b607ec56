// Varia playground: SVG pieces. The six chess pieces are Colin M. L. Burnett's (Wikimedia
// Commons, BSD licence); the fairy pieces are drawn here in the same 45 x 45 frame: compounds as
// their two parts, step movers as a pedestal with their move sign, and any other piece as a
// pedestal with its letter.

const SVG = 'http://www.w3.org/2000/svg';

const CHESS = {
  'king0': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M22.5 11.63V6M20 8h5" stroke-linejoin="miter"/><path d="M22.5 25s4.5-7.5 3-10.5c0 0-1-2.5-3-2.5s-3 2.5-3 2.5c-1.5 3 3 10.5 3 10.5" fill="#fff" stroke-linecap="butt" stroke-linejoin="miter"/><path d="M11.5 37c5.5 3.5 15.5 3.5 21 0v-7s9-4.5 6-10.5c-4-6.5-13.5-3.5-16 4V27v-3.5c-3.5-7.5-13-10.5-16-4-3 6 5 10 5 10V37z" fill="#fff"/><path d="M11.5 30c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0"/></g>',
  'king1': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M22.5 11.63V6" stroke-linejoin="miter"/><path d="M22.5 25s4.5-7.5 3-10.5c0 0-1-2.5-3-2.5s-3 2.5-3 2.5c-1.5 3 3 10.5 3 10.5" fill="#000" stroke-linecap="butt" stroke-linejoin="miter"/><path d="M11.5 37c5.5 3.5 15.5 3.5 21 0v-7s9-4.5 6-10.5c-4-6.5-13.5-3.5-16 4V27v-3.5c-3.5-7.5-13-10.5-16-4-3 6 5 10 5 10V37z" fill="#000"/><path d="M20 8h5" stroke-linejoin="miter"/><path d="M32 29.5s8.5-4 6.03-9.65C34.15 14 25 18 22.5 24.5l.01 2.1-.01-2.1C20 18 9.906 14 6.997 19.85c-2.497 5.65 4.853 9 4.853 9M11.5 30c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0" stroke="#fff"/></g>',
  'queen0': '<g fill="#fff" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M8 12a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM24.5 7.5a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM41 12a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM16 8.5a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM33 9a2 2 0 1 1-4 0 2 2 0 1 1 4 0z"/><path d="M9 26c8.5-1.5 21-1.5 27 0l2-12-7 11V11l-5.5 13.5-3-15-3 15-5.5-14V25L7 14l2 12zM9 26c0 2 1.5 2 2.5 4 1 1.5 1 1 .5 3.5-1.5 1-1.5 2.5-1.5 2.5-1.5 1.5.5 2.5.5 2.5 6.5 1 16.5 1 23 0 0 0 1.5-1 0-2.5 0 0 .5-1.5-1-2.5-.5-2.5-.5-2 .5-3.5 1-2 2.5-2 2.5-4-8.5-1.5-18.5-1.5-27 0z" stroke-linecap="butt"/><path d="M11.5 30c3.5-1 18.5-1 22 0M12 33.5c6-1 15-1 21 0" fill="none"/></g>',
  'queen1': '<g fill="#000" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><g fill="#000" stroke="none"><circle cx="6" cy="12" r="2.75"/><circle cx="14" cy="9" r="2.75"/><circle cx="22.5" cy="8" r="2.75"/><circle cx="31" cy="9" r="2.75"/><circle cx="39" cy="12" r="2.75"/></g><path d="M9 26c8.5-1.5 21-1.5 27 0l2.5-12.5L31 25l-.3-14.1-5.2 13.6-3-14.5-3 14.5-5.2-13.6L14 25 6.5 13.5 9 26zM9 26c0 2 1.5 2 2.5 4 1 1.5 1 1 .5 3.5-1.5 1-1.5 2.5-1.5 2.5-1.5 1.5.5 2.5.5 2.5 6.5 1 16.5 1 23 0 0 0 1.5-1 0-2.5 0 0 .5-1.5-1-2.5-.5-2.5-.5-2 .5-3.5 1-2 2.5-2 2.5-4-8.5-1.5-18.5-1.5-27 0z" stroke-linecap="butt"/><path d="M11 38.5a35 35 1 0 0 23 0" fill="none" stroke-linecap="butt"/><path d="M11 29a35 35 1 0 1 23 0M12.5 31.5h20M11.5 34.5a35 35 1 0 0 22 0M10.5 37.5a35 35 1 0 0 24 0" fill="none" stroke="#fff"/></g>',
  'rook0': '<g fill="#fff" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M9 39h27v-3H9v3zM12 36v-4h21v4H12zM11 14V9h4v2h5V9h5v2h5V9h4v5" stroke-linecap="butt"/><path d="M34 14l-3 3H14l-3-3"/><path d="M31 17v12.5H14V17" stroke-linecap="butt" stroke-linejoin="miter"/><path d="M31 29.5l1.5 2.5h-20l1.5-2.5"/><path d="M11 14h23" fill="none" stroke-linejoin="miter"/></g>',
  'rook1': '<g fill="#000" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M9 39h27v-3H9v3zM12.5 32l1.5-2.5h17l1.5 2.5h-20zM12 36v-4h21v4H12z" stroke-linecap="butt"/><path d="M14 29.5v-13h17v13H14z" stroke-linecap="butt" stroke-linejoin="miter"/><path d="M14 16.5L11 14h23l-3 2.5H14zM11 14V9h4v2h5V9h5v2h5V9h4v5H11z" stroke-linecap="butt"/><path d="M12 35.5h21M13 31.5h19M14 29.5h17M14 16.5h17M11 14h23" fill="none" stroke="#fff" stroke-width="1" stroke-linejoin="miter"/></g>',
  'bishop0': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><g fill="#fff" stroke-linecap="butt"><path d="M9 36c3.39-.97 10.11.43 13.5-2 3.39 2.43 10.11 1.03 13.5 2 0 0 1.65.54 3 2-.68.97-1.65.99-3 .5-3.39-.97-10.11.46-13.5-1-3.39 1.46-10.11.03-13.5 1-1.354.49-2.323.47-3-.5 1.354-1.94 3-2 3-2zM15 32c2.5 2.5 12.5 2.5 15 0 .5-1.5 0-2 0-2 0-2.5-2.5-4-2.5-4 5.5-1.5 6-11.5-5-15.5-11 4-10.5 14-5 15.5 0 0-2.5 1.5-2.5 4 0 0-.5.5 0 2zM25 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 1 1 5 0z"/></g><path d="M17.5 26h10M15 30h15m-7.5-14.5v5M20 18h5" stroke-linejoin="miter"/></g>',
  'bishop1': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M9 36c3.39-.97 10.11.43 13.5-2 3.39 2.43 10.11 1.03 13.5 2 0 0 1.65.54 3 2-.68.97-1.65.99-3 .5-3.39-.97-10.11.46-13.5-1-3.39 1.46-10.11.03-13.5 1-1.354.49-2.323.47-3-.5 1.354-1.94 3-2 3-2zm6-4c2.5 2.5 12.5 2.5 15 0 .5-1.5 0-2 0-2 0-2.5-2.5-4-2.5-4 5.5-1.5 6-11.5-5-15.5-11 4-10.5 14-5 15.5 0 0-2.5 1.5-2.5 4 0 0-.5.5 0 2zM25 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 1 1 5 0z" fill="#000" stroke-linecap="butt"/><path d="M17.5 26h10M15 30h15m-7.5-14.5v5M20 18h5" stroke="#fff" stroke-linejoin="miter"/></g>',
  'knight0': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M 22,10 C 32.5,11 38.5,18 38,39 L 15,39 C 15,30 25,32.5 23,18" style="fill:#ffffff; stroke:#000000;"/><path d="M 24,18 C 24.38,20.91 18.45,25.37 16,27 C 13,29 13.18,31.34 11,31 C 9.958,30.06 12.41,27.96 11,28 C 10,28 11.19,29.23 10,30 C 9,30 5.997,31 6,26 C 6,24 12,14 12,14 C 12,14 13.89,12.1 14,10.5 C 13.27,9.506 13.5,8.5 13.5,7.5 C 14.5,6.5 16.5,10 16.5,10 L 18.5,10 C 18.5,10 19.28,8.008 21,7 C 22,7 22,10 22,10" style="fill:#ffffff; stroke:#000000;"/><path d="M 9.5 25.5 A 0.5 0.5 0 1 1 8.5,25.5 A 0.5 0.5 0 1 1 9.5 25.5 z" style="fill:#000000; stroke:#000000;"/><path d="M 15 15.5 A 0.5 1.5 0 1 1 14,15.5 A 0.5 1.5 0 1 1 15 15.5 z" transform="matrix(0.866,0.5,-0.5,0.866,9.693,-5.173)" style="fill:#000000; stroke:#000000;"/></g>',
  'knight1': '<g fill="none" fill-rule="evenodd" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="M 22,10 C 32.5,11 38.5,18 38,39 L 15,39 C 15,30 25,32.5 23,18" style="fill:#000000; stroke:#000000;"/><path d="M 24,18 C 24.38,20.91 18.45,25.37 16,27 C 13,29 13.18,31.34 11,31 C 9.958,30.06 12.41,27.96 11,28 C 10,28 11.19,29.23 10,30 C 9,30 5.997,31 6,26 C 6,24 12,14 12,14 C 12,14 13.89,12.1 14,10.5 C 13.27,9.506 13.5,8.5 13.5,7.5 C 14.5,6.5 16.5,10 16.5,10 L 18.5,10 C 18.5,10 19.28,8.008 21,7 C 22,7 22,10 22,10" style="fill:#000000; stroke:#000000;"/><path d="M 9.5 25.5 A 0.5 0.5 0 1 1 8.5,25.5 A 0.5 0.5 0 1 1 9.5 25.5 z" style="fill:#ececec; stroke:#ececec;"/><path d="M 15 15.5 A 0.5 1.5 0 1 1 14,15.5 A 0.5 1.5 0 1 1 15 15.5 z" transform="matrix(0.866,0.5,-0.5,0.866,9.693,-5.173)" style="fill:#ececec; stroke:#ececec;"/><path d="M 24.55,10.4 L 24.1,11.85 L 24.6,12 C 27.75,13 30.25,14.49 32.5,18.75 C 34.75,23.01 35.75,29.06 35.25,39 L 35.2,39.5 L 37.45,39.5 L 37.5,39 C 38,28.94 36.62,22.15 34.25,17.66 C 31.88,13.17 28.46,11.02 25.06,10.5 L 24.55,10.4 z " style="fill:#ececec; stroke:none;"/></g>',
  'pawn0': '<g><path d="M22.5 9c-2.21 0-4 1.79-4 4 0 .89.29 1.71.78 2.38C17.33 16.5 16 18.59 16 21c0 2.03.94 3.84 2.41 5.03-3 1.06-7.41 5.55-7.41 13.47h23c0-7.92-4.41-12.41-7.41-13.47 1.47-1.19 2.41-3 2.41-5.03 0-2.41-1.33-4.5-3.28-5.62.49-.67.78-1.49.78-2.38 0-2.21-1.79-4-4-4z" fill="#fff" stroke="#000" stroke-width="1.5" stroke-linecap="round"/></g>',
  'pawn1': '<g><path d="M22.5 9c-2.21 0-4 1.79-4 4 0 .89.29 1.71.78 2.38C17.33 16.5 16 18.59 16 21c0 2.03.94 3.84 2.41 5.03-3 1.06-7.41 5.55-7.41 13.47h23c0-7.92-4.41-12.41-7.41-13.47 1.47-1.19 2.41-3 2.41-5.03 0-2.41-1.33-4.5-3.28-5.62.49-.67.78-1.49.78-2.38 0-2.21-1.79-4-4-4z" fill="#000" stroke="#000" stroke-width="1.5" stroke-linecap="round"/></g>',
};

// Colours of a side: body fill, outline, and details drawn on the body.
const ink = (c) => (c ? { f: '#000', s: '#000', d: '#fff' } : { f: '#fff', s: '#000', d: '#000' });

function pedestal(c) {
  const { f, s } = ink(c);
  return `<path d="M11 39h23v-3.5H11z M13.5 35.5c1-6 4-10 5.5-13h7c1.5 3 4.5 7 5.5 13z" fill="${f}" stroke="${s}" stroke-width="1.5" stroke-linejoin="round"/>`
    + `<circle cx="22.5" cy="15" r="8.5" fill="${f}" stroke="${s}" stroke-width="1.5"/>`;
}

// Signs drawn in the pedestal's disc (centre 22.5, 15).
const SIGNS = {
  diagonal: 'M18 10.5l9 9M27 10.5l-9 9',
  orthogonal: 'M22.5 9v12M16.5 15h12',
  both: 'M18 10.5l9 9M27 10.5l-9 9M22.5 8.5v13M16 15h13',
  hop: 'M17.5 18.5l5-6 5 6',
};

function signed(sign) {
  return (c) => pedestal(c) + `<path d="${SIGNS[sign]}" fill="none" stroke="${ink(c).d}" stroke-width="2" stroke-linecap="round"/>`;
}

function star(c) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 2.8 : 6.5;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(22.5 + r * Math.cos(a)).toFixed(2)},${(15.5 + r * Math.sin(a)).toFixed(2)}`);
  }
  return pedestal(c) + `<polygon points="${pts.join(' ')}" fill="${ink(c).d}"/>`;
}

function elephant(c) {
  const { f, s, d } = ink(c);
  return `<g stroke="${s}" stroke-width="1.5" stroke-linejoin="round" fill="${f}">`
    + '<path d="M10 39h25v-3.5H10z"/>'
    + '<path d="M15 35.5c-1-6 0-10 2-13-2-4-1-10 5-12.5 6-2 12 1 13 7 1 5-1 9-3 11l1 7.5z"/>'
    + '<path d="M18 21c-4 3-6 8-5 14.5h3.5c-.5-5 1-9 4-11.5z"/>'
    + `<path d="M27 13c4 0 6 3 6 7s-3 6-6 6" fill="none" stroke="${d}"/>`
    + `<path d="M20 24l-3.5 3.5" stroke="${d}" stroke-width="2" stroke-linecap="round"/>`
    + `<circle cx="22" cy="16.5" r="1.3" fill="${d}" stroke="none"/></g>`;
}

function cannon(c) {
  const { f, s, d } = ink(c);
  return `<g stroke="${s}" stroke-width="1.5" stroke-linejoin="round" fill="${f}">`
    + '<path d="M9 39h27v-3H9z"/>'
    + '<path d="M10 26.5L32 12l3.5 5.5-22 14.5z"/>'
    + '<path d="M31 11l5.5 8.5"/>'
    + '<circle cx="18" cy="29" r="6.5"/>'
    + `<circle cx="18" cy="29" r="1.8" fill="${d}" stroke="none"/>`
    + `<path d="M14 25l8 8M22 25l-8 8" stroke="${d}" stroke-width="1"/></g>`;
}

function lettered(letter) {
  return (c) => pedestal(c)
    + `<text x="22.5" y="15.5" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-weight="bold" font-size="11" fill="${ink(c).d}">${letter}</text>`;
}

const chess = (name) => (c) => CHESS[`${name}${c}`];

// Two pieces in one: the first behind at the left, the second in front at the right.
function compound(a, b) {
  return (c) => `<g transform="translate(-7 1) scale(0.95)">${SHAPES[a](c)}</g>`
    + `<g transform="translate(13 8.5) scale(0.8)">${SHAPES[b](c)}</g>`;
}

function rider(base) {
  return (c) => SHAPES[base](c) + `<circle cx="22.5" cy="22.5" r="20.5" fill="none" stroke="${ink(1).s}" stroke-width="1.2" stroke-dasharray="3 2.5"/>`;
}

function horned(c) {
  const { f, s } = ink(c);
  return CHESS[`knight${c}`] + `<path d="M14.5 9.5L8 2.5l9 5z" fill="${f}" stroke="${s}" stroke-width="1.2" stroke-linejoin="round"/>`;
}

const SHAPES = {
  king: chess('king'),
  queen: chess('queen'),
  rook: chess('rook'),
  bishop: chess('bishop'),
  knight: chess('knight'),
  pawn: chess('pawn'),
  ferz: signed('diagonal'),
  wazir: signed('orthogonal'),
  man: signed('both'),
  grasshopper: signed('hop'),
  general: star,
  elephant,
  cannon,
  nightrider: null,
  unicorn: horned,
  archbishop: null,
  chancellor: null,
  amazon: null,
  dragon: null,
  horse: null,
};
SHAPES.archbishop = compound('bishop', 'knight');
SHAPES.chancellor = compound('rook', 'knight');
SHAPES.amazon = compound('queen', 'knight');
SHAPES.dragon = compound('rook', 'ferz');
SHAPES.horse = compound('bishop', 'wazir');
SHAPES.nightrider = rider('knight');

// Other names of the same pieces, in the games that use them.
const ALIASES = {
  cardinal: 'archbishop', princess: 'archbishop', janus: 'archbishop', paladin: 'archbishop',
  marshal: 'chancellor', marshall: 'chancellor', empress: 'chancellor',
  fers: 'ferz', met: 'ferz', advisor: 'ferz', mandarin: 'ferz', guard: 'ferz', counsellor: 'ferz',
  alfil: 'elephant', bishopelephant: 'elephant', minister: 'elephant',
  commoner: 'man', mann: 'man', prince: 'man', ferzwazir: 'man',
  soldier: 'pawn', peon: 'pawn', sergeant: 'pawn',
  chariot: 'rook', tower: 'rook', boat: 'rook',
  springer: 'knight', xiangqihorse: 'knight', ma: 'knight',
  dragonking: 'dragon', dragonhorse: 'horse',
  vizier: 'wazir', centaur: 'man',
  maharaja: 'amazon',
  // Chaturaji's Sanskrit names.
  raja: 'king', bhata: 'pawn', gaja: 'elephant', ashva: 'knight', ratha: 'rook',
};

/// The shape a piece's name calls for (its own or an alias), or null.
export function shapeOf(name) {
  const key = (name || '').toLowerCase().replace(/[^a-z]/g, '');
  const found = SHAPES[key] ? key : ALIASES[key];
  return found && SHAPES[found] ? found : null;
}

// The shapes for each set of whole Betza atoms (every direction), best first.
const BY_ATOMS = {
  Q: ['queen'], NQ: ['amazon'], R: ['rook'], NR: ['chancellor'], FR: ['dragon'],
  B: ['bishop'], BN: ['archbishop'], BW: ['horse'], N: ['knight'],
  F: ['ferz'], W: ['wazir', 'general'], K: ['man', 'king', 'general'],
  // The alfil, and the (2, 3) leaper (janggi's elephant, lame on the way).
  A: ['elephant'], Z: ['elephant'],
};

/// The shapes a piece may be drawn with by how it moves (`moves`: its Betza description from
/// the server, as found on an empty board), best first; empty when no shape moves so.
export function shapesByMoves(moves, royal) {
  const atoms = [...(moves || '').matchAll(/(p?)([fbs]*)([A-Z])/g)].map(([, hop, dirs, letter]) => ({ hop: !!hop, dirs, letter }));
  const hops = atoms.filter((a) => a.hop);
  const rest = atoms.filter((a) => !a.hop);
  if (hops.length) {
    // Along lines only: a cannon (moving like a rook or only by hopping); every way: a grasshopper.
    const lines = hops.every((a) => a.letter === 'R' && !a.dirs) && rest.every((a) => a.letter === 'R' && !a.dirs);
    return lines ? ['cannon'] : hops.length === 2 && rest.length === 0 ? ['grasshopper'] : [];
  }
  const partial = rest.filter((a) => a.dirs);
  if (partial.length === 0) {
    const key = rest.map((a) => a.letter).sort().join('');
    const shapes = BY_ATOMS[key] || [];
    // A royal piece that steps: a king (or a general) first.
    if (royal && ['K', 'W', 'F'].includes(key)) return ['king', 'general', ...shapes];
    return shapes;
  }
  if (partial.length === rest.length && rest.every((a) => a.letter === 'N')) return ['knight'];
  const pawnlike = rest.every((a) => a.dirs && /^[fs]+$/.test(a.dirs) && 'WFD'.includes(a.letter));
  return pawnlike && rest.some((a) => a.dirs.includes('f')) ? ['pawn'] : [];
}

/// The shape's name a piece is drawn with, or null for the lettered pedestal: chosen by how
/// it moves, its name deciding only among the shapes that move so (and for a piece that makes
/// no move on an empty board).
export function shapeFor(piece) {
  const byName = shapeOf(piece.name);
  if (!piece.moves) return byName;
  const shapes = shapesByMoves(piece.moves, piece.royal);
  return shapes.includes(byName) ? byName : (shapes[0] || null);
}

// With more than two players each player's pieces get a colour: the player's name where it
// is one (Blue, Red, ...), else one of these.
const PALETTE = ['#f4f4f4', '#d8342c', '#2f6fd0', '#e8b923', '#2e9e4f', '#8e44ad', '#e67e22', '#17a2b8'];
let colours = null;

/// Tells the drawing the game's players: with more than two, pieces are coloured per player.
export function setPlayers(names) {
  colours = names.length > 2
    ? names.map((n, k) => {
      const word = (n || '').toLowerCase();
      return word && CSS.supports('color', word) ? word : PALETTE[k % PALETTE.length];
    })
    : null;
}

/// The colour a player's pieces are drawn in, or null when pieces are white and black.
export function playerColour(player) {
  return colours ? colours[player % colours.length] : null;
}

// The players whose pieces are drawn upside down (the file's `display`), as the board is
// turned now: with the board flipped, the others are.
let turned = null;

/// Tells the drawing which players' pieces the file turns round, and whether the board is flipped.
export function setUpsideDown(players, flipped) {
  turned = players && players.length ? { players: new Set(players), flipped } : null;
}

function upsideDown(player) {
  return turned !== null && turned.players.has(player) !== turned.flipped;
}

/// Draws a piece centred at (cx, cy), `size` pixels across; returns its <g>.
export function drawPiece(parent, piece, cx, cy, size) {
  const g = document.createElementNS(SVG, 'g');
  const shape = shapeFor(piece);
  const colour = playerColour(piece.player);
  const side = colour ? 0 : piece.player % 2;
  g.setAttribute('class', `piece p${side}`);
  g.setAttribute('data-piece', shape || 'letter');
  g.setAttribute('data-player', String(piece.player));
  const turn = upsideDown(piece.player) ? ' rotate(180 22.5 22.5)' : '';
  g.setAttribute('transform', `translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 45})${turn}`);
  if (turn) g.setAttribute('data-upside-down', 'true');
  g.innerHTML = (shape ? SHAPES[shape] : lettered(piece.letter.toUpperCase()))(side);
  if (colour) {
    // The white body takes the player's colour.
    for (const e of g.querySelectorAll('[fill="#fff"], [fill="#ffffff"]')) e.setAttribute('fill', colour);
    for (const e of g.querySelectorAll('[style*="fill:#ffffff"]')) e.style.fill = colour;
  }
  parent.appendChild(g);
  return g;
}

/// Every shape with its name, for the page that shows them all.
export const SHAPE_NAMES = Object.keys(SHAPES);
