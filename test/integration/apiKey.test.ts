import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { CommandIds, ContextKeys } from '../../src/vscode/base/ids';
import { API_KEY_SECRET } from '../../src/vscode/base/secrets';
import { endpoint, commandIdOf } from '../../src/core/spec/catalog';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import { WHERE_IS_THE_API } from '../../src/vscode/commands/apiKey';
import type { PersonQuestion } from '../../src/vscode/base/personQuestions';
import { answerQuestions, answering, api as getApi, filesUnder, setApiKey, testingContext, waitFor, clearApiKey } from './support';

/** A fresh key per test, so a hit in a file can only come from that test. */
const newKey = (): string => `wa-test-${randomUUID()}`;

/** The session folder of the logs (logs/<yyyymmddThhmmss>), found upwards from the extension's logUri. */
function logsSessionDir(logUri: vscode.Uri): string {
  for (let d = logUri.fsPath; path.dirname(d) !== d; d = path.dirname(d)) {
    if (/^\d{8}T\d{6}$/.test(path.basename(d))) return d;
  }
  return path.resolve(logUri.fsPath, '..', '..');
}

describe('API key: Set / Clear API Key', () => {
  let api: ExtensionApi;
  let ctx: vscode.ExtensionContext;
  const hasKey = (): unknown => api.services.contextKeys.get(ContextKeys.hasKey);

  before(async () => {
    api = await getApi();
    ctx = await testingContext();
  });

  beforeEach(async () => {
    await clearApiKey();
  });

  it('round-trips the key through SecretStorage', async () => {
    const key = newKey();
    assert.equal(await setApiKey(key), true);
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), key, 'SecretStorage does not hold the key');
    assert.equal(await api.services.keys.get(), key);

    // Asked first (issue 30 item 6), from an argument too: Cancel (or any other answer) keeps the key.
    const asked = (await answerQuestions(() => undefined)).length;
    assert.equal(await vscode.commands.executeCommand(CommandIds.clearApiKey, { confirm: true, yes: true }), false);
    const q = (await answerQuestions(undefined)).slice(asked);
    assert.ok(q.length === 1 && q[0]?.kind === 'confirm' && q[0].safe === 'Keep the Key', JSON.stringify(q));
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), key, 'an unanswered Clear API Key deleted the key');
    assert.equal(await clearApiKey(), true);
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), undefined, 'Clear API Key left the key in SecretStorage');
    assert.equal(await api.services.keys.get(), undefined);
  });

  it('trims a pasted key and refuses one with a space, keeping the stored key', async () => {
    const key = newKey();
    assert.equal(await setApiKey(`  ${key}\n`), true);
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), key);
    assert.equal(await setApiKey('two words'), false);
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), key, 'a refused key replaced the stored one');
  });

  it('stores only the key the person enters: a key passed as argument neither stores nor pre-fills (issue 21)', async () => {
    const stored = newKey();
    assert.equal(await setApiKey(stored), true);
    const offered = newKey();
    // The person presses Escape: the argument alone changes nothing.
    const asked = await answerQuestions(() => undefined);
    const before = asked.length;
    try {
      assert.equal(await vscode.commands.executeCommand(CommandIds.setApiKey, offered), false);
    } finally {
      await answerQuestions(undefined);
    }
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), stored, 'a key from the arguments replaced the stored one without the person');
    const box = asked.slice(before);
    assert.equal(box.length, 1, 'the password box was shown');
    assert.ok(box[0]?.kind === 'input' && box[0].options.password === true && box[0].options.value === undefined, 'the box is a password box, not pre-filled with the offered key');
    // What the person types wins over the argument.
    const typed = newKey();
    assert.equal(await answering<boolean>((q) => (q.kind === 'input' ? typed : undefined), CommandIds.setApiKey, offered), true);
    assert.equal(await ctx.secrets.get(API_KEY_SECRET), typed);
  });

  it('flips walletAnalytics.hasKey with Set and Clear', async () => {
    assert.equal(hasKey(), false);
    await setApiKey(newKey());
    assert.equal(hasKey(), true);
    await clearApiKey();
    assert.equal(hasKey(), false);
  });

  it('follows a change made directly in SecretStorage, as another window would', async () => {
    const events: boolean[] = [];
    const sub = api.services.keys.onDidChange((has) => events.push(has));
    try {
      const key = newKey();
      await ctx.secrets.store(API_KEY_SECRET, key);
      await waitFor('hasKey to become true', () => hasKey() === true);
      assert.equal(await api.services.keys.get(), key, 'the store still serves the old value');
      await ctx.secrets.delete(API_KEY_SECRET);
      await waitFor('hasKey to become false', () => hasKey() === false);
      assert.equal(await api.services.keys.get(), undefined);
      assert.deepEqual(events, [true, false]);
    } finally {
      sub.dispose();
    }
  });

  it('never writes the key to settings.json', async () => {
    // User settings live next to globalStorage: <user data>/User/settings.json (desktop and code-server).
    const userSettings = path.resolve(ctx.globalStorageUri.fsPath, '..', '..', 'settings.json');
    // Write a harmless setting first, to prove this is the file VS Code really uses.
    const marker = 13 + Math.floor(Math.random() * 10);
    await vscode.workspace.getConfiguration('editor').update('fontSize', marker, vscode.ConfigurationTarget.Global);
    await waitFor('the user settings file to hold editor.fontSize', () =>
      fs.existsSync(userSettings) && fs.readFileSync(userSettings, 'utf8').includes(`"editor.fontSize": ${marker}`),
    );

    const key = newKey();
    await setApiKey(key);
    const candidates = [
      userSettings,
      path.resolve(ctx.globalStorageUri.fsPath, '..', '..', '..', 'Machine', 'settings.json'),
      ...(vscode.workspace.workspaceFolders ?? []).map((f) => path.join(f.uri.fsPath, '.vscode', 'settings.json')),
    ].filter((f) => fs.existsSync(f));
    for (const f of candidates) assert.ok(!fs.readFileSync(f, 'utf8').includes(key), `the key is in ${f}`);
    assert.equal(vscode.workspace.getConfiguration('walletAnalytics').get('apiKey'), undefined, 'an apiKey setting has a value');
    await vscode.workspace.getConfiguration('editor').update('fontSize', undefined, vscode.ConfigurationTarget.Global);
  });

  describe('the first key asks where the API is (issue 23 item 7)', () => {
    const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('walletAnalytics');
    const userBaseUrl = (): unknown => cfg().inspect('baseUrl')?.globalValue;
    let before: unknown;
    beforeEach(async () => {
      before = userBaseUrl();
      await cfg().update('baseUrl', undefined, vscode.ConfigurationTarget.Global); // the placeholder default
    });
    afterEach(async () => {
      await vscode.commands.executeCommand(CommandIds.stopSandbox);
      await cfg().update('baseUrl', before, vscode.ConfigurationTarget.Global);
    });

    /** Set API Key with `key` typed, then `way` chosen and `url` typed; the questions asked. */
    async function setKeyThen(key: string, way: string | undefined, url?: string): Promise<{ ok: boolean | undefined; asked: PersonQuestion[] }> {
      const asked: PersonQuestion[] = [];
      const ok = await answering<boolean>(
        (q) => {
          asked.push(q);
          if (q.kind === 'input') return q.id === 'apiKey' ? key : q.id === 'baseUrl' ? url : undefined;
          return q.kind === 'choose' ? way : undefined;
        },
        CommandIds.setApiKey,
      );
      return { ok, asked };
    }

    it('asks for the base URL, offering the sandbox instead, and saves the address typed in the user settings', async () => {
      const key = newKey();
      const { ok, asked } = await setKeyThen(key, WHERE_IS_THE_API.enter, 'https://api.example.com/');
      assert.equal(ok, true);
      assert.equal(await ctx.secrets.get(API_KEY_SECRET), key);
      const pick = asked.find((q) => q.kind === 'choose');
      assert.ok(pick?.kind === 'choose', `a choice was offered: ${JSON.stringify(asked.map((q) => q.kind))}`);
      assert.deepEqual(pick.items.map((i) => i.label), [WHERE_IS_THE_API.enter, WHERE_IS_THE_API.sandbox, WHERE_IS_THE_API.later]);
      assert.ok(asked.some((q) => q.kind === 'input' && q.id === 'baseUrl'), 'the address was asked');
      assert.equal(userBaseUrl(), 'https://api.example.com', 'saved in the user settings, normalised');
    });

    it('refuses a .invalid address, starts the sandbox when chosen, and asks nothing once an address is set', async () => {
      await setKeyThen(newKey(), WHERE_IS_THE_API.enter, 'https://api.wallet-analytics.invalid');
      assert.equal(userBaseUrl(), undefined, 'the placeholder is not an answer');

      await setKeyThen(newKey(), WHERE_IS_THE_API.sandbox);
      assert.equal(api.services.connection.mode, 'sandbox', 'the sandbox was started');
      await vscode.commands.executeCommand(CommandIds.stopSandbox);

      await cfg().update('baseUrl', 'https://api.example.com', vscode.ConfigurationTarget.Global);
      const { asked } = await setKeyThen(newKey(), WHERE_IS_THE_API.enter, 'https://other.example.com');
      assert.deepEqual(asked.map((q) => q.kind), ['input'], 'only the key is asked');
      assert.equal(userBaseUrl(), 'https://api.example.com');
    });

    it('"Check It (Free)" with the placeholder sends nothing and says which setting to change', async () => {
      await setKeyThen(newKey(), WHERE_IS_THE_API.later);
      const out = await vscode.commands.executeCommand<RunOutcome>(commandIdOf(endpoint('credits')));
      assert.equal(out?.status, 'refused', JSON.stringify(out));
      assert.match(out.status === 'refused' ? out.message : '', /nothing was sent\. The API’s address is still the placeholder https:\/\/api\.wallet-analytics\.invalid, which exists nowhere\. Set walletAnalytics\.baseUrl \(user settings\)/u);
    });
  });

  it('never writes the key to the logs, even when a caller logs it', async () => {
    const key = newKey();
    await setApiKey(key);
    api.services.log.info(`A careless line holding the key: ${key}`);
    const ownLog = path.join(ctx.logUri.fsPath, 'Wallet Analytics.log');
    const read = (): string => (fs.existsSync(ownLog) ? fs.readFileSync(ownLog, 'utf8') : '');
    // The log is written asynchronously; wait until both lines are on disk.
    await waitFor(`${ownLog} to hold the lines just logged`, () => {
      const text = read();
      return text.includes('API key stored in SecretStorage.') && text.includes('A careless line holding the key: ');
    }, 10_000);

    const logFiles = filesUnder(logsSessionDir(ctx.logUri));
    assert.ok(logFiles.includes(ownLog), `the extension's log is not under ${logsSessionDir(ctx.logUri)}`);
    const leaks = logFiles.filter((f) => fs.readFileSync(f, 'utf8').includes(key));
    assert.deepEqual(leaks, [], 'log files holding the key');
    assert.ok(read().includes('A careless line holding the key: ‹redacted›'), 'the line was not redacted');
  });
});
