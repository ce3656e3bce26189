// Renders scripts/icon.svg to media/icon.png (128×128, transparent corners), the extension icon
// the Marketplace and the Extensions view show. They take no SVG, so the PNG is committed; run
// this after editing the SVG. It uses the headless Chromium the e2e tests already need.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import cs from './code-server.js';

const svg = readFileSync(join(cs.repoRoot, 'scripts', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true, type: 'png' });
  writeFileSync(join(cs.repoRoot, 'media', 'icon.png'), png);
  console.log(`media/icon.png: ${png.length} bytes`);
} finally {
  await browser.close();
}
