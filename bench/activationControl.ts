/**
 * The activation bench's control (issue 34 item 1): a do-nothing extension installed beside ours in
 * the same windows, so that what of an activation figure is VS Code's own and what is ours can be
 * read apart. Its package is built here, in a temp folder, each run (never shipped in our .vsix): the
 * same activation events as ours on the paths measured (a query file's language, the Account view
 * opened), no bundle, and an activate() that registers one command and returns. It writes the time
 * its command was registered to a file in its log folder (context.logUri, under the window's logs,
 * where the bench reads ours), after activate() has returned, so the write is not in what VS Code
 * times. VS Code's figure for it is the floor of ours: the host's `vscode` object for an extension,
 * its context (the stored state it waits for before it calls activate()), the call.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../test/e2e/workbench';

/** Its id (publisher.name), as the extension host's log names it. */
export const CONTROL_ID = 'wallet-analytics-bench.activation-control';
/** Its display name: its Running Extensions row. */
export const CONTROL_NAME = 'Activation Control';
/** The line it writes once its command is registered ("Control ready at <ISO>"). */
export const CONTROL_READY = /Control ready at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)/u;

const MANIFEST = {
  name: 'activation-control',
  displayName: CONTROL_NAME,
  description: 'A do-nothing extension: the activation bench measures VS Code\'s own part of an activation by it.',
  version: '0.0.1',
  publisher: 'wallet-analytics-bench',
  engines: { vscode: '^1.100.0' },
  main: './extension.js',
  // Ours is activated by its language (a .waquery.json opened) and by its views (onView, implicit from
  // contributes.views); the control listens for the same events. The language is ours: VS Code fires
  // onLanguage:waquery for every extension that asks for it once a document of it is opened.
  activationEvents: ['onLanguage:waquery', 'onView:walletAnalyticsAccount', 'onView:walletAnalyticsRequests'],
  contributes: { commands: [{ command: 'activationControl.ping', title: 'Activation Control: Ping' }] },
};

/** Plain JavaScript: nothing to load but this file and VS Code's `vscode` object for it. */
const EXTENSION_JS = `const vscode = require('vscode');
exports.activate = function (context) {
  context.subscriptions.push(vscode.commands.registerCommand('activationControl.ping', () => undefined));
  const at = new Date().toISOString();
  // After the call VS Code times: the write is not the control's activation.
  setTimeout(() => {
    const fs = require('fs');
    fs.mkdirSync(context.logUri.fsPath, { recursive: true });
    fs.writeFileSync(require('path').join(context.logUri.fsPath, 'ready.log'), 'Control ready at ' + at + '\\n');
  }, 0);
};
exports.deactivate = function () {};
`;

/** Builds the control's .vsix with vsce (the tool our own package is made with) in a fresh temp folder; returns its path. */
export function buildControlVsix(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wa-activation-control-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(MANIFEST, null, 2));
  writeFileSync(join(dir, 'extension.js'), EXTENSION_JS);
  writeFileSync(join(dir, 'README.md'), `# ${CONTROL_NAME}\n\nThe activation bench's control extension (bench/activationControl.ts).\n`);
  const vsix = join(dir, 'activation-control.vsix');
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`The control extension was not packaged: ${r.stdout}${r.stderr}`);
  return vsix;
}
