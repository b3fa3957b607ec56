// The harness of the end-to-end tests: starts `varia serve` (VARIA_BIN, default
// ../../target/debug/varia) on a free port and Debian's headless Chromium, and gives the tests
// pages with a variant loaded, clicks, and screenshots saved in SCREENSHOTS (default ./screenshots).

import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.VARIA_BIN || resolve(here, '../../target/debug/varia');
const shots = process.env.SCREENSHOTS || join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

let server;
export let base;
export let browser;

// Starts `varia serve` on a free port with these files offered; resolves to [process, address].
export async function serve(files = []) {
  const proc = spawn(bin, ['serve', '--port', '0', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) ok(m[0]);
    });
    proc.on('exit', (code) => fail(new Error(`varia serve exited with ${code}: ${out}`)));
  });
  return [proc, url];
}

before(async () => {
  [server, base] = await serve();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

// A page with the variant loaded, both sides played by hand, failing on any script error.
export async function open(variant) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Refused requests (a 422 for a broken rule) are logged by the browser; they are expected.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.errors = errors;
  await page.goto(`${base}?variant=${variant}`);
  await page.waitForFunction(() => window.varia && window.varia.view);
  await page.selectOption('#who1', 'human');
  return page;
}

export const played = (page) => page.evaluate(() => window.varia.moves.slice());

// Waits until `n` moves are played (at least `n`, when the computer may answer at once).
export async function waitMoves(page, n, atLeast = false) {
  await page.waitForFunction(([n, atLeast]) => {
    const k = window.varia.moves.length;
    return (atLeast ? k >= n : k === n) && !window.varia.thinking;
  }, [n, atLeast]);
}

export async function clickCell(page, name) {
  await page.locator(`[data-cell="${name}"]`).first().click();
}

export async function move(page, from, to) {
  const n = (await played(page)).length;
  await clickCell(page, from);
  await clickCell(page, to);
  await waitMoves(page, n + 1, true);
}

// The window as the user sees it, or one element of the page.
export async function shot(page, name, selector = null) {
  const path = join(shots, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path });
  else await page.screenshot({ path });
}
