// Varia playground: the parts of the side panel drawn from the server's view of a game alone:
// the squares in reserve, the colour legend and the list of moves.

// A player's name as a heading writes it.
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The squares each player holds in reserve, where the game has squares.
export function drawReserves(reserves, v) {
  reserves.textContent = '';
  if (v.squares) {
    const parts = v.squares.reserves.map((n, p) => `${cap(v.players[p])}: ${n === null ? 'unlimited' : n}`);
    reserves.textContent = `Squares in reserve \u2014 ${parts.join(' \u00B7 ')}`;
  }
}

// What the board's colours mean: owned squares, cells shared by every board, crowded cells.
export function drawLegend(legend, v) {
  legend.innerHTML = '';
  const add = (cls, text) => {
    const s = document.createElement('span');
    s.className = 'swatch';
    s.style.background = getComputedStyle(document.documentElement).getPropertyValue(cls);
    legend.append(s, text);
  };
  if (v.squares && v.squares.owners.length) {
    add('--owner0', `${cap(v.players[0])}'s square`);
    add('--owner1', `${cap(v.players[1] || '')}'s square`);
  }
  if (v.board.cells.some((c) => c.at.length > 1)) add('--shared', 'shared by every board');
  if (v.capacity.length) {
    const most = [...new Set(v.capacity.map(([, m]) => m))];
    add('--crowd', most.length === 1 && most[0] !== null ? `holds up to ${most[0]} pieces` : 'holds several pieces');
  }
}

// The moves, a row per round, a turn's actions together; each move a link to its position
// (`pick` is called with its ply), the one `shownPly` marked current.
export function drawMoveList(list, v, shownPly, pick) {
  list.innerHTML = '';
  const turns = [];
  v.history.forEach((h, i) => {
    const t = turns[turns.length - 1];
    if (t && t.side === h.side) t.moves.push([h.short, i + 1]);
    else turns.push({ side: h.side, moves: [[h.short, i + 1]] });
  });
  let row = null;
  turns.forEach((t) => {
    if (!row || t.side === 0 || row.children.length >= v.players.length) {
      row = document.createElement('li');
      list.appendChild(row);
    }
    const span = document.createElement('span');
    span.className = 'turn';
    t.moves.forEach(([text, ply], k) => {
      if (k) span.append(' ');
      const m = document.createElement('a');
      m.className = 'move' + (ply === shownPly ? ' current' : '');
      m.dataset.ply = ply;
      m.href = '#';
      m.textContent = text;
      m.addEventListener('click', (e) => {
        e.preventDefault();
        pick(ply);
      });
      span.appendChild(m);
    });
    row.appendChild(span);
  });
}
