import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, extension } from './support';

const PREFIX = 'walletAnalytics.';

describe('commands: package.json and the registry agree', () => {
  let declared: string[];
  let registered: string[];

  before(async () => {
    await api();
    const manifest = extension().packageJSON as { contributes: { commands: { command: string }[] } };
    declared = manifest.contributes.commands.map((c) => c.command);
    registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith(PREFIX));
  });

  it('declares at least the API key commands', () => {
    assert.ok(declared.includes('walletAnalytics.setApiKey') && declared.includes('walletAnalytics.clearApiKey'), declared.join(', '));
  });

  it('registers every command package.json declares', () => {
    assert.deepEqual(declared.filter((c) => !registered.includes(c)), [], 'declared in package.json but not registered');
  });

  it(`declares every ${PREFIX}* command it registers`, () => {
    assert.deepEqual(registered.filter((c) => !declared.includes(c)), [], 'registered but missing from package.json');
  });
});
