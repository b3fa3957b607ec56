// End-to-end tests of how the playground draws what the file asks (points, lines, rivers,
// pieces turned round, pieces by how they move) and of its messages, checks and drops.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, played, waitMoves, clickCell, move, shot } from './harness.mjs';

test('xiangqi: drawn on points, with the palaces\' diagonals and the river', async () => {
  const page = await open('xiangqi.var');
  // The cells are round spots over a wooden board; lines join them.
  assert.equal(await page.locator('.points-board').count(), 1);
  assert.equal(await page.locator('.sq.light, .sq.dark').count(), 0);
  assert.equal(await page.locator('.sq.point').count(), 90);
  // 9 x 10 points: 8 x 10 rank lines, 9 x 9 file lines less the 7 the river cuts.
  assert.equal(await page.locator('.grid-line').count(), 80 + 81 - 7);
  assert.equal(await page.locator('.extra-line').count(), 4);
  assert.match(await page.textContent('.river-label'), /Chu river\s+Han border/);
  // A palace diagonal runs from d1's point to f3's.
  const centre = (name) => page.$eval(`[data-cell="${name}"] rect`, (r) => [+r.getAttribute('x') + +r.getAttribute('width') / 2, +r.getAttribute('y') + +r.getAttribute('height') / 2]);
  const [d1, f3] = [await centre('d1'), await centre('f3')];
  const diagonal = await page.$eval('.extra-line', (l) => ['x1', 'y1', 'x2', 'y2'].map((k) => +l.getAttribute(k)));
  assert.deepEqual(diagonal, [...d1, ...f3]);
  // Pieces stand on the points and move there by clicks: the cannon to the centre file.
  // Pieces drawn by how they move: the horse (a lame knight) as a knight, the chariot as a
  // rook, the cannon as a cannon, the soldier as a pawn, the general as a general.
  const drawnAt = (name) => page.$eval(`[data-cell="${name}"]`, (g, name) => {
    const r = g.querySelector('rect').getBoundingClientRect();
    const hit = [...document.querySelectorAll('.pieces .piece')].find((p) => {
      const b = p.getBoundingClientRect();
      return Math.abs(b.x + b.width / 2 - (r.x + r.width / 2)) < 4 && Math.abs(b.y + b.height / 2 - (r.y + r.height / 2)) < 4;
    });
    return hit ? hit.dataset.piece : null;
  }, name);
  const drawn = {};
  for (const c of ['b1', 'a1', 'b3', 'a4', 'e1', 'd1', 'c1']) drawn[c] = await drawnAt(c);
  assert.deepEqual(drawn, { b1: 'knight', a1: 'rook', b3: 'cannon', a4: 'pawn', e1: 'general', d1: 'ferz', c1: 'elephant' });
  await move(page, 'h3', 'e3');
  assert.deepEqual(await played(page), ['Ch3-e3']);
  await move(page, 'h10', 'g8');
  await shot(page, 'xiangqi', '#play');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('shogi: the second player\'s pieces drawn upside down, the first\'s upright', async () => {
  const page = await open('shogi.var');
  const turned = (player) => page.$$eval(`.piece[data-player="${player}"]`, (els) => els.map((e) => e.dataset.upsideDown === 'true'));
  const white = await turned(0), black = await turned(1);
  assert.equal(white.length, 20);
  assert.equal(black.length, 20);
  assert.ok(white.every((t) => !t) && black.every((t) => t), `${white} / ${black}`);
  // Flipped, the board is seen from Black's side: Black's pieces upright, White's turned.
  await page.click('#flip');
  assert.ok((await turned(0)).every((t) => t) && (await turned(1)).every((t) => !t));
  await page.click('#flip');
  // Chess declares nothing: no piece is turned.
  const chess = await open('chess.var');
  assert.equal(await chess.locator('.piece[data-upside-down]').count(), 0);
  await move(page, 'g3', 'g4');
  await waitMoves(page, 1);
  await shot(page, 'shogi', '#play');
  assert.deepEqual(page.errors, []);
  await page.close();
  await chess.close();
});

test('long messages wrap: the page never grows wider than the window', async () => {
  const page = await open('chess.var');
  const fits = () => page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  // A long position string that does not read: its error names it whole.
  const bad = `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ${'x'.repeat(400)}`;
  await page.fill('#position', bad);
  await page.click('#set-position');
  await page.waitForSelector('#error:not([hidden])');
  let [width, viewport] = await fits();
  assert.ok(width <= viewport, `after a long position error the page is ${width} px wide in a ${viewport} px window`);
  // A rule text with a long line in error: the status, the diagnostic and its source line.
  const source = await page.inputValue('#source');
  await page.fill('#source', source.replace('piece Knight', `piece Knight${'Z'.repeat(300)} ${'q'.repeat(300)}`));
  await page.click('#apply');
  await page.waitForSelector('#diagnostics li');
  [width, viewport] = await fits();
  assert.ok(width <= viewport, `after a long diagnostic the page is ${width} px wide in a ${viewport} px window`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('pgn of another game switches the variant; messages show above the board; + and # in the list', async () => {
  const page = await open('chess.var');
  // Check and mate are marked in the move list.
  for (const [a, b] of [['e2', 'e4'], ['f7', 'f5'], ['d1', 'h5']]) await move(page, a, b);
  assert.match(await page.textContent('#moves'), /e4\s*f5\s*Qh5\+/);
  const seen = (selector) => page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return !e.hidden && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });
  // A xiangqi game opened while chess is loaded: the page switches to xiangqi and plays it.
  await page.setInputFiles('#open-pgn', {
    name: 'xiangqi.pgn', mimeType: 'text/plain',
    buffer: Buffer.from('[Variant "Xiangqi"]\n\n1. Ch3-e3 Ch8-e8 *\n'),
  });
  await page.waitForFunction(() => window.varia.view.title === 'Xiangqi' && window.varia.moves.length === 2);
  assert.equal(await page.$eval('#variant', (s) => s.value), 'xiangqi.var');
  assert.deepEqual(await played(page), ['Ch3-e3', 'Ch8-e8']);
  assert.match(await page.textContent('#notice'), /game of Xiangqi: switched/);
  assert.ok(await seen('#notice'), 'the notice is in view');
  await shot(page, 'pgn-switch');
  // A game of no variant offered: refused, the reason shown in view.
  await page.setInputFiles('#open-pgn', {
    name: 'other.pgn', mimeType: 'text/plain', buffer: Buffer.from('[Variant "Nonesuch"]\n\n1. e4 *\n'),
  });
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /the PGN is a game of "Nonesuch"; the rules loaded are "Xiangqi"/);
  assert.ok(await seen('#error'), 'the error is in view');
  assert.equal(await page.isHidden('#notice'), true);
  assert.deepEqual(await played(page), ['Ch3-e3', 'Ch8-e8']);
  assert.deepEqual(page.errors, []);
  await page.close();
});
