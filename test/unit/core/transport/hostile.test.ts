/**
 * The real client against the hostile server (issue 12, "Done when"): each attack is played by
 * test/unit/fixtures/hostileServer.ts and met by WalletAnalyticsApi, downloadFile and extractZip
 * as the extension uses them. Each test asserts the outcome and records one line; the lines are
 * printed at the end ("hostile: <attack> → <outcome>") for the closing note.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { downloadFile, downloadFrom } from '../../../../src/core/results/download';
import { DownloadError, KeyRefusedError, MalformedResponseError, UnzipError } from '../../../../src/core/errors';
import { extractZip, shownEntryName } from '../../../../src/core/results/unzip';
import { BAD_NAMES, startHostileServer, type HostileServer } from '../../fixtures/hostileServer';

const KEY = 'wa_test_KEY_hostile_0123456789';
let srv: HostileServer;
let root: string;
const outcomes: string[] = [];

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'wa-hostile-'));
  srv = await startHostileServer();
});
after(async () => {
  await srv.close();
  await rm(root, { recursive: true, force: true });
  console.log(['', ...outcomes.map((o) => `hostile: ${o}`)].join('\n'));
});

function api(base = srv.url): WalletAnalyticsApi {
  return new WalletAnalyticsApi({ baseUrl: base, apiKey: () => Promise.resolve(KEY), retry: { attempts: 1, baseDelayMs: 1 } });
}

async function failure<T extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${type.name}, but it succeeded`);
}

describe('hostile server: cut-off bodies with no length (close-delimited)', () => {
  const cases: [string, string, string][] = [
    ['/cut/r.csv', 'half a CSV, no length, then the connection closed (FIN)', 'api.download'],
    ['/reset/r.zip', 'half a zip, no length, then a TCP reset', 'api.download'],
    ['/midline/r.csv', 'half a CSV, no length, closed cleanly mid-line', 'downloadFile'],
    ['/midline/r.txt', 'half a TXT address list, no length, closed cleanly mid-line', 'downloadFile'],
  ];
  for (const [path, how, via] of cases) {
    it(`${how}: refused as truncated, nothing kept`, async () => {
      const dir = await mkdtemp(join(root, 'dl-'));
      const url = `${srv.url}${path}`;
      const e = await failure(via === 'downloadFile' ? downloadFile(url, { destDir: dir }) : downloadFrom(api(), url, dir), DownloadError);
      assert.equal(e.problem, 'truncated');
      assert.deepEqual(await readdir(dir), []);
      outcomes.push(`${how} → refused (${e.problem}): “${e.message}” Folder left empty.`);
    });
  }
});

describe('hostile server: zips', () => {
  it('400 entries of 1 MiB from a ~450 KB archive: downloaded, then refused before anything is extracted', async () => {
    const dir = await mkdtemp(join(root, 'bomb-'));
    const got = await downloadFrom(api(), `${srv.url}/bomb/r.zip`, dir);
    assert.ok(got.bytes < 1024 ** 2, `the bomb is small: ${got.bytes}`);
    const e = await failure(extractZip(got.path), UnzipError);
    assert.equal(e.problem, 'ratio');
    assert.match(e.message, /its 400 files would inflate to 400\.0 MiB/u);
    assert.deepEqual(await readdir(dir), ['r.zip']);
    outcomes.push(`zip bomb, 400 × 1 MiB zeros in ${(got.bytes / 1024).toFixed(0)} KB → refused (${e.problem}): “${e.message}” Nothing written.`);
  });

  for (const [kind, name] of Object.entries(BAD_NAMES)) {
    it(`an entry named with ${kind === 'dot' ? 'a leading dot' : kind === 'bidi' ? 'a right-to-left override' : 'control characters'}: refused, named escaped`, async () => {
      const dir = await mkdtemp(join(root, 'name-'));
      const got = await downloadFrom(api(), `${srv.url}/name/${kind}.zip`, dir);
      const e = await failure(extractZip(got.path), UnzipError);
      assert.equal(e.problem, 'badName');
      if (kind !== 'dot') assert.ok(!e.message.includes(name), 'the raw name is never shown, only its escaped form');
      assert.deepEqual(await readdir(dir), [`${kind}.zip`]);
      outcomes.push(`zip entry “${shownEntryName(name)}” → refused (${e.problem}): “${e.message}”`);
    });
  }
});

describe('hostile server: /credits read strictly', () => {
  for (const v of ['0x10', '0b11', '-5', '1e3', ' 5', '', '1,234']) {
    it(`"${v}" is malformed, not a balance`, async () => {
      const e = await failure(api(`${srv.url}/credits/_${encodeURIComponent(v)}`).credits(), MalformedResponseError);
      assert.equal(e.charged, 'no');
      outcomes.push(`/credits answers ${JSON.stringify(v)} → refused (malformed): “${e.message}”`);
    });
  }

  it('"12345" is the balance 12345', async () => {
    assert.equal(await api(`${srv.url}/credits/_12345`).credits(), 12345);
    outcomes.push('/credits answers "12345" → 12345 (accepted)');
  });
});

describe('hostile server: the key stays home', () => {
  it('a result file that redirects to another origin is fetched there without the key', async () => {
    const dir = await mkdtemp(join(root, 'redir-'));
    const before = srv.hits.filter((h) => h.server === 'elsewhere').length;
    await downloadFrom(api(), `${srv.url}/redirect/r.csv`, dir);
    const there = srv.hits.filter((h) => h.server === 'elsewhere');
    assert.equal(there.length, before + 1);
    assert.equal(there.at(-1)?.headers.api_key, undefined);
    assert.ok(!JSON.stringify(there.at(-1)?.headers).includes(KEY));
    assert.equal(srv.hits.filter((h) => h.server === 'hostile').at(-1)?.headers.api_key, KEY);
    outcomes.push('302 from the base origin to another origin → followed; the key was sent to the base origin only, not to the other one.');
  });

  it('an error that echoes the key back shows it redacted', async () => {
    const e = await failure(api(`${srv.url}/echo`).credits(), KeyRefusedError);
    for (const text of [e.message, e.stack ?? '', e.serverMessage ?? '', JSON.stringify(e)]) assert.ok(!text.includes(KEY), text);
    assert.match(e.message, /‹redacted›/u);
    outcomes.push(`401 whose message echoes the key → “${e.message}”`);
  });
});
