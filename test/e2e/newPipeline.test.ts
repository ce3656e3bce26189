// Issue 35 item 3, seen: New Pipeline… opened an untitled notebook that Save As offered to save as
// `Untitled-1.json` (not a pipeline; its results left behind). Now the command writes
// `pipeline.wapipe.json` in the workspace folder and opens it: its tab and the Explorer show the
// name from the start, and Save writes it in place without asking where.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import { stepWithShot, Workbench, packagedVsix } from './workbench';

describe('New Pipeline… has a .wapipe.json name and a place from the start', { timeout: 240_000 }, () => {
  let wb: Workbench;
  const step = (title: string, fn: () => Promise<void>): void => stepWithShot(() => wb, title, fn);

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'new-pipeline',
      files: { 'README.txt': 'A workspace for a new pipeline.\n' },
      settings: { 'walletAnalytics.sandbox.autoStart': true, 'workbench.colorTheme': 'Default Dark Modern', 'editor.minimap.enabled': false },
      viewport: { width: 1400, height: 900 },
    });
  });

  after(async () => {
    await wb?.close();
  });

  step('the new pipeline opens as pipeline.wapipe.json, listed in the Explorer', async () => {
    await wb.runCommand('Wallet Analytics: New Pipeline…');
    const tab = wb.page.locator('.tabs-container .tab.active');
    await tab.waitFor({ timeout: 60_000 });
    await wb.page.locator('.notebook-editor .cell-list-container .code-cell-row').first().waitFor({ timeout: 60_000 });
    await wb.screenshot('new-pipeline');
    assert.equal((await tab.innerText()).trim().split('\n')[0], 'pipeline.wapipe.json', 'the tab names the pipeline file, not Untitled-1');
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'pipeline.wapipe.json' }).waitFor({ timeout: 30_000 });
    assert.equal(await wb.page.locator('.tabs-container .tab.active.dirty').count(), 0, 'written on disk: nothing to save yet');
  });
});
