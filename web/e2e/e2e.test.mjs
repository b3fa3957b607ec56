// End-to-end tests of the playground in Debian's headless Chromium, driven by playwright-core
// (the harness in harness.mjs): click through games of several variants, save screenshots.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browser, serve, open, played, waitMoves, clickCell, move, shot } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

test('chess: click moves, targets, undo, flip, promotion chooser, position string', async () => {
  const page = await open('chess.var');
  await clickCell(page, 'e2');
  const targets = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target).sort());
  assert.deepEqual(targets, ['e3', 'e4']);
  await clickCell(page, 'e4');
  await waitMoves(page, 1);
  await move(page, 'e7', 'e5');
  await move(page, 'g1', 'f3');
  assert.deepEqual(await played(page), ['e2-e4', 'e7-e5', 'Ng1-f3']);
  assert.match(await page.textContent('#moves'), /e4\s*e5\s*Nf3/);
  assert.equal(await page.inputValue('#position'), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
  assert.equal(await page.textContent('#status'), 'Black to move');
  await page.click('#undo');
  await waitMoves(page, 2);
  // Flipped, the board is seen from Black's side: a1 at the top right.
  const a1 = () => page.$eval('[data-cell="a1"] rect', (r) => [+r.getAttribute('x'), +r.getAttribute('y')]);
  const before = await a1();
  await page.click('#flip');
  const flipped = await a1();
  assert.ok(flipped[1] < before[1] && flipped[0] > before[0], `${before} -> ${flipped}`);
  await page.click('#flip');
  // A position pasted in; a pawn's promotion asks which piece.
  await page.fill('#position', '8/P6k/8/8/8/8/8/K7 w - - 0 1');
  await page.click('#set-position');
  await page.waitForFunction(() => window.varia.start && window.varia.moves.length === 0);
  await clickCell(page, 'a7');
  await clickCell(page, 'a8');
  await page.waitForSelector('#chooser[open]');
  const choices = await page.$$eval('#choices button', (bs) => bs.map((b) => b.dataset.move));
  assert.deepEqual(choices, ['a7-a8=Q', 'a7-a8=R', 'a7-a8=B', 'a7-a8=N']);
  await page.click('#choices button[data-move="a7-a8=N"]');
  await waitMoves(page, 1);
  assert.match(await page.getAttribute('[data-cell="a8"]', 'data-cell'), /a8/);
  assert.match(await page.textContent('[data-cell="a8"] title'), /white Knight/);
  assert.equal(await page.inputValue('#position'), 'N7/7k/8/8/8/8/8/K7 b - - 0 1');
  // New game: back to the variant's setup.
  await page.click('#new');
  await page.waitForFunction(() => window.varia.start === null && window.varia.view.stacks.length === 32);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('chess: the computer answers and the game-over banner says why', async () => {
  const page = await open('chess.var');
  await page.fill('#ai-time', '0.3');
  await page.selectOption('#who1', 'ai');
  await move(page, 'e2', 'e4');
  await waitMoves(page, 2);
  const [, reply] = await played(page);
  assert.match(reply, /^[a-hNBRQKO]/);
  assert.equal(await page.textContent('#status'), 'White to move');
  // Fool's mate, by hand: the banner names the winner and the reason.
  await page.selectOption('#who1', 'human');
  await page.click('#new');
  await waitMoves(page, 0);
  await move(page, 'f2', 'f3');
  await move(page, 'e7', 'e5');
  await move(page, 'g2', 'g4');
  await move(page, 'd8', 'h4');
  await page.waitForSelector('#banner:not([hidden])');
  assert.equal(await page.textContent('#banner'), 'Game over: black wins by checkmate');
  await shot(page, 'chess-checkmate');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('share squares: a knight joins a pawn on a shared square', async () => {
  const page = await open('share-squares.var');
  await move(page, 'e2', 'e4');
  await move(page, 'a7', 'a6');
  await move(page, 'b1', 'c3');
  await move(page, 'a6', 'a5');
  await clickCell(page, 'c3');
  const targets = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target).sort());
  assert.ok(targets.includes('e4'), `${targets}`);
  await clickCell(page, 'e4');
  await waitMoves(page, 5);
  assert.equal((await played(page))[4], 'Nc3-e4');
  assert.equal(await page.textContent('[data-cell="e4"] title'), 'e4: white Knight, white Pawn (drawn lowest first)');
  // Both pieces are drawn, numbered in the stack's order.
  const numbers = await page.$$eval('.pieces .order', (els) => els.map((e) => e.textContent));
  assert.deepEqual(numbers, ['1', '2']);
  await shot(page, 'share-squares');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the central squares: three boards, a move through the shared centre', async () => {
  const page = await open('central-squares.var');
  // The shared centre is drawn on each of the three boards.
  assert.equal(await page.locator('[data-cell="d3"]').count(), 3);
  assert.equal(await page.locator('[data-cell="d3"] .shared-mark').count(), 3);
  // The bishop on Ab1 goes up to board B and on through the shared d3 to Be4.
  await move(page, 'Ab1', 'Be4');
  assert.equal((await played(page))[0], 'BAb1-Be4');
  assert.match(await page.textContent('[data-cell="Be4"] title'), /white Bishop/);
  // A pawn steps into the centre: it stands on all three boards at once.
  await move(page, 'Cc5', 'c4');
  await move(page, 'Ac2', 'c3');
  const titles = await page.$$eval('[data-cell="c3"] title', (els) => els.map((e) => e.textContent));
  assert.deepEqual(titles, ['c3: white Pawn', 'c3: white Pawn', 'c3: white Pawn']);
  await shot(page, 'central-squares');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('crazyhouse: captures fill the hands, a piece chosen in the hand drops on a cell', async () => {
  const page = await open('crazyhouse.var');
  assert.match(await page.textContent('#hands'), /White: \u2014 · Black: \u2014/);
  await move(page, 'e2', 'e4');
  await move(page, 'd7', 'd5');
  await move(page, 'e4', 'd5');
  assert.match(await page.textContent('#hands'), /White: Pawn · Black: \u2014/);
  await move(page, 'd8', 'd5');
  assert.match(await page.textContent('#hands'), /White: Pawn · Black: Pawn/);
  // e6 is empty and no piece can reach it: a stray click there drops nothing.
  await clickCell(page, 'e6');
  await page.waitForTimeout(300);
  assert.equal((await played(page)).length, 4);
  assert.equal(await page.locator('[data-target]').count(), 0);
  // Black's pawn in hand is no button on White's turn; White's is: chosen, it shows where it
  // may drop, and the click on e6 drops it.
  assert.equal(await page.locator('.hand-piece').count(), 1);
  await page.click('.hand-piece[data-piece="Pawn"]');
  assert.ok((await page.locator('[data-target]').count()) > 30);
  await clickCell(page, 'e6');
  await waitMoves(page, 5);
  assert.deepEqual(await played(page), ['e2-e4', 'd7-d5', 'e4xd5', 'Qd8xd5', 'P@e6']);
  assert.match(await page.textContent('#hands'), /White: \u2014 · Black: Pawn/);
  assert.equal(await page.inputValue('#position'), 'rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3');
  await shot(page, 'crazyhouse');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('hans38: a square placed from reserve', async () => {
  const page = await open('hans38.var');
  assert.match(await page.textContent('#reserves'), /White: 3 · Black: 3/);
  assert.equal(await page.locator('[data-cell="e3"] .hole').count(), 1);
  // e3 has no square: clicking it places one, the only action on it.
  await clickCell(page, 'e3');
  await waitMoves(page, 1);
  assert.equal((await played(page))[0], '@@e3');
  assert.equal(await page.locator('[data-cell="e3"] .hole').count(), 0);
  assert.equal(await page.locator('[data-cell="e3"] .owner0').count(), 1);
  assert.match(await page.textContent('#reserves'), /White: 2 · Black: 3/);
  // Black answers; then White's pawn can step onto the new square.
  await clickCell(page, 'd6');
  await waitMoves(page, 2);
  await move(page, 'e2', 'e3');
  assert.deepEqual(await played(page), ['@@e3', '@@d6', 'e2-e3']);
  await shot(page, 'hans38');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('edit: a broken rule shows its diagnostic, a changed rule takes effect', async () => {
  const page = await open('chess.var');
  const text = await page.inputValue('#source');
  await page.fill('#source', text.replace('leap 2 1', 'leap 2'));
  await page.click('#apply');
  await page.waitForSelector('#diagnostics li');
  const diag = await page.textContent('#diagnostics li');
  assert.match(diag, /^line 50, column 1: expected a whole number, found `}`/);
  await shot(page, 'edit-diagnostic', '#editor');
  // Knights that leap (3,1), like the camel: g1 reaches f4 and h4, no longer f3.
  await page.fill('#source', text.replace('leap 2 1', 'leap 3 1'));
  await page.click('#apply');
  await page.waitForFunction(() => document.querySelector('#diagnostics').children.length === 0);
  await clickCell(page, 'g1');
  const targets = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target).sort());
  assert.deepEqual(targets, ['f4', 'h4']);
  await clickCell(page, 'h4');
  await waitMoves(page, 1);
  assert.deepEqual(await played(page), ['Ng1-h4']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('occupying multiple squares: a rook stops between two squares', async () => {
  const page = await open('multiple-squares.var');
  await page.fill('#position', '4k3/8/8/8/8/8/8/R3K3 w - - 0 1');
  await page.click('#set-position');
  await page.waitForFunction(() => window.varia.start && window.varia.view.stacks.length === 3);
  await clickCell(page, 'a1');
  // Between locations the rook can reach are drawn as targets at their centres.
  const targets = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target));
  for (const t of ['a1.5', 'a2.5', 'ab1', 'a2']) assert.ok(targets.includes(t), `${t} in ${targets}`);
  await clickCell(page, 'a2.5');
  await waitMoves(page, 1);
  assert.deepEqual(await played(page), ['Ra1-a2.5']);
  assert.equal(await page.textContent('[data-cell="a2.5"] title'), 'a2.5: white Rook (between a2 a3)');
  assert.match(await page.inputValue('#position'), /\{Ra2\.5\}/);
  assert.equal(await page.textContent('[data-cell="a3"] title'), 'a3: covered by the piece on a2.5');
  // Black moves; then a click on a covered square picks up the rook standing over it.
  await move(page, 'e8', 'd8');
  await clickCell(page, 'a3');
  const from = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target));
  assert.ok(from.includes('a8') && from.includes('a1'), `${from}`);
  await shot(page, 'multiple-squares');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Drags the piece on `from` to `to` with the mouse, as a player does.
async function drag(page, from, to) {
  const box = async (name) => page.locator(`[data-cell="${name}"] rect.sq`).first().boundingBox();
  const a = await box(from);
  const b = await box(to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

test('chess: drag and drop, the checked king marked, looking back through the moves', async () => {
  const page = await open('chess.var');
  await drag(page, 'e2', 'e4');
  await waitMoves(page, 1);
  // A drop on a square the piece cannot reach plays nothing.
  await drag(page, 'e7', 'e4');
  await drag(page, 'f7', 'f5');
  await waitMoves(page, 2);
  assert.equal(await page.locator('.check-mark').count(), 0);
  await drag(page, 'd1', 'h5');
  await waitMoves(page, 3);
  assert.deepEqual(await played(page), ['e2-e4', 'f7-f5', 'Qd1-h5']);
  // Black is in check: its king's square glows, and only there.
  assert.deepEqual(await page.$$eval('.check-mark', (els) => els.map((e) => e.dataset.check)), ['e8']);
  assert.equal(await page.textContent('#status'), 'Black to move \u2014 check!');
  await shot(page, 'chess-check');
  // Clicking the first move shows the position after it; the game itself is unchanged.
  await page.click('#moves a.move[data-ply="1"]');
  await page.waitForSelector('#browse:not([hidden])');
  assert.equal(await page.inputValue('#position'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
  assert.equal(await page.locator('.check-mark').count(), 0);
  assert.match(await page.textContent('#browse'), /after move 1 of 3/);
  assert.equal(await page.textContent('#moves a.move.current'), 'e4');
  // Clicks on the board do nothing while looking back.
  await clickCell(page, 'd7');
  assert.equal(await page.locator('[data-target]').count(), 0);
  // Arrow keys step through the game; the last move returns to it.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.varia.shownPly === 2);
  await page.click('#nav-start');
  await page.waitForFunction(() => window.varia.shownPly === 0);
  assert.equal(await page.inputValue('#position'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.click('#moves a.move[data-ply="3"]');
  await page.waitForSelector('#browse', { state: 'hidden' });
  assert.equal(await page.locator('.check-mark').count(), 1);
  await drag(page, 'g7', 'g6');
  await waitMoves(page, 4);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('pgn: export the game, import it into a fresh page', async () => {
  const page = await open('chess.var');
  for (const [a, b] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) await move(page, a, b);
  const pgn = await page.evaluate(() => window.varia.view.pgn);
  assert.match(pgn, /\[Result "0-1"\]/);
  assert.match(pgn, /1\. f3 e5 2\. g4 Qh4# \{checkmate\} 0-1/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-pgn')]);
  assert.equal(download.suggestedFilename(), 'chess.pgn');
  const other = await open('chess.var');
  await other.setInputFiles('#open-pgn', { name: 'game.pgn', mimeType: 'text/plain', buffer: Buffer.from(pgn) });
  await waitMoves(other, 4);
  assert.deepEqual(await played(other), ['f2-f3', 'e7-e5', 'g2-g4', 'Qd8-h4']);
  await other.waitForSelector('#banner:not([hidden])');
  // A game from a position keeps its start.
  await other.setInputFiles('#open-pgn', {
    name: 'mate.pgn', mimeType: 'text/plain',
    buffer: Buffer.from('[FEN "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"]\n\n1. Rd8# 1-0\n'),
  });
  await waitMoves(other, 1);
  assert.equal(await other.evaluate(() => window.varia.start), '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
  await page.close();
  await other.close();
});

test('capablanca: fairy pieces drawn as pieces, the selector says what is loaded', async () => {
  const page = await open('capablanca.var');
  const drawn = await page.$$eval('.pieces [data-piece]', (els) => [...new Set(els.map((e) => e.dataset.piece))].sort());
  assert.deepEqual(drawn, ['archbishop', 'bishop', 'chancellor', 'king', 'knight', 'pawn', 'queen', 'rook']);
  await shot(page, 'capablanca', '#board-wrap');
  assert.equal(await page.$eval('#variant', (s) => s.selectedOptions[0].textContent), 'Capablanca Chess');
  // A file opened from disk: the selector names it.
  const text = await page.inputValue('#source');
  await page.setInputFiles('#open', {
    name: 'my-capablanca.var', mimeType: 'text/plain',
    buffer: Buffer.from(text.replace('variant "Capablanca Chess"', 'variant "My Capablanca"')),
  });
  await page.waitForFunction(() => window.varia.view.title === 'My Capablanca');
  assert.equal(await page.$eval('#variant', (s) => s.selectedOptions[0].textContent), 'my-capablanca.var (My Capablanca)');
  // Edited rules: the selector says so; choosing a bundled variant again replaces the entry.
  await page.fill('#source', text.replace('variant "Capablanca Chess"', 'variant "Capa 2"'));
  await page.click('#apply');
  await page.waitForFunction(() => window.varia.view.title === 'Capa 2');
  assert.equal(await page.$eval('#variant', (s) => s.selectedOptions[0].textContent), 'Capa 2 (edited)');
  await page.selectOption('#variant', 'chess.var');
  await page.waitForFunction(() => window.varia.view.title === 'Chess');
  assert.equal(await page.locator('#variant option[value="__loaded"]').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the central squares: boards labelled A, B, C with coordinates at their edges', async () => {
  const page = await open('central-squares.var');
  const labels = await page.$$eval('.board-label', (els) => els.map((e) => e.textContent));
  assert.deepEqual(labels, ['board A', 'board B', 'board C']);
  const files = await page.$$eval('.coord.file', (els) => els.map((e) => e.textContent));
  assert.deepEqual(files, ['a', 'b', 'c', 'd', 'e', 'f', 'a', 'b', 'c', 'd', 'e', 'f', 'a', 'b', 'c', 'd', 'e', 'f']);
  // Coordinates and the shared squares' names are legible: at least 11 px tall on the screen.
  const sizes = await page.$$eval('.coord, .cell-name', (els) => els.map((e) => e.getBoundingClientRect().height));
  assert.ok(Math.min(...sizes) >= 11, `${Math.min(...sizes)}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('different armies: each side chooses an army with a button, then plays', async () => {
  const page = await open('different-armies.var');
  const options = await page.$$eval('#choice-options button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(options, ['Fabulous FIDEs (army)', 'Colorbound Clobberers (army)', 'Remarkable Rookies (army)',
    'Nutty Knights (army)']);
  await page.click('#choice-options button[data-move="army=nutty"]');
  await waitMoves(page, 1);
  await page.click('#choice-options button[data-move="army=clobberers"]');
  await waitMoves(page, 2);
  assert.equal(await page.isHidden('#choice-options'), true);
  // A choice has no cells: nothing is marked as the last move.
  assert.equal(await page.$$eval('.last-move', (els) => els.length), 0);
  assert.equal(await page.inputValue('#position'),
    'dwackawd/pppppppp/8/8/8/8/PPPPPPPP/GIHOKHIG w KQkl - 0 1 choices=army:nutty,clobberers');
  // The fibnif's narrow leap from b1.
  await move(page, 'b1', 'c3');
  assert.deepEqual(await played(page), ['army=nutty', 'army=clobberers', 'Ib1-c3']);
  await shot(page, 'different-armies');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('chaturaji from the Zillions corpus: four players in four colours, three of them the computer', async (t) => {
  const file = resolve(here, '../../../shared/zrf-corpus/chess/chaturaji.zrf');
  if (!existsSync(file)) {
    t.skip('no ../shared/zrf-corpus beside the repository');
    return;
  }
  const [own, url] = await serve([file]);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}?variant=${encodeURIComponent(file)}`);
    await page.waitForFunction(() => window.varia && window.varia.view);
    assert.deepEqual(await page.evaluate(() => window.varia.view.players), ['South', 'West', 'North', 'East']);
    // A seat for each of the four players; the first is played by hand.
    assert.deepEqual(await page.$$eval('.player-name', (s) => s.map((x) => x.textContent)),
      ['South', 'West', 'North', 'East']);
    await page.selectOption('#who0', 'human');
    await page.selectOption('#who1', 'ai');
    await page.selectOption('#who2', 'ai');
    await page.selectOption('#who3', 'ai');
    await page.fill('#ai-time', '0.2');
    // Each player's pieces in a colour of their own.
    const fills = await page.$$eval('g.piece', (gs) => {
      const by = {};
      for (const g of gs) {
        const body = g.querySelector('[fill]:not([fill="none"]):not([fill="#000"])');
        by[g.dataset.player] = body ? body.getAttribute('fill') : null;
      }
      return by;
    });
    assert.equal(new Set(Object.values(fills)).size, 4, JSON.stringify(fills));
    // South moves a pawn; the three others answer.
    await move(page, 'a2', 'a3');
    await waitMoves(page, 4, true);
    const moves = await played(page);
    assert.equal(moves[0], 'Ba2-a3');
    assert.equal(await page.evaluate(() => window.varia.view.turn.side), 0);
    await shot(page, 'chaturaji');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    own.kill();
  }
});
