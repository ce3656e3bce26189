// Connection profiles (src/core/transport/profiles.ts): the list's checks, the scope that keys per-profile
// records (and migrates old ones to Default), and jobs polled and downloaded under their own profile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeHistory } from '../../../../src/core/history/merge';
import { jobScope, type JobRecord } from '../../../../src/core/jobs/job';
import { Poller, type PollApi } from '../../../../src/core/jobs/poller';
import { JobStore, MemoryPersistence } from '../../../../src/core/jobs/store';
import {
  addProfile,
  checkProfileBaseUrl,
  DEFAULT_PROFILE_ID,
  newProfileId,
  parseProfiles,
  parseScope,
  renameProfile,
  SANDBOX_PROFILE_ID,
  scopeKey,
  secretNameFor,
} from '../../../../src/core/transport/profiles';
import type { RequestRecord } from '../../../../src/core/spec/wire';

const BASE = 'https://api.example.com';

function job(id: string, profileId: string = DEFAULT_PROFILE_ID): JobRecord {
  return { requestId: id, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: BASE, submittedAt: '2026-11-21T10:00:00.000Z', state: 'pending', profileId };
}

describe('profiles: the list and its checks', () => {
  it('keeps the Default key under the secret name it always had; others under walletAnalytics.apiKey.<id>', () => {
    assert.equal(secretNameFor(DEFAULT_PROFILE_ID), 'walletAnalytics.apiKey');
    assert.equal(secretNameFor('p1'), 'walletAnalytics.apiKey.p1');
  });

  it('checks a base URL as walletAnalytics.baseUrl is checked: https, http only for loopback, no credentials, no query or fragment', () => {
    assert.equal(checkProfileBaseUrl('https://api.example.com/'), undefined);
    assert.equal(checkProfileBaseUrl('http://127.0.0.1:8080'), undefined);
    assert.match(checkProfileBaseUrl('http://api.example.com') ?? '', /loopback/u);
    assert.match(checkProfileBaseUrl('ftp://api.example.com') ?? '', /https/u);
    assert.match(checkProfileBaseUrl('https://user:pw@api.example.com') ?? '', /user name or password/u);
    assert.doesNotMatch(checkProfileBaseUrl('http://api.example.com') ?? '', /Nothing was sent/u, 'nothing is being sent at this step');
    assert.match(checkProfileBaseUrl('https://api.example.com/#profile=x') ?? '', /fragment/u);
    assert.match(checkProfileBaseUrl('https://api.example.com/?a=1') ?? '', /query/u);
    assert.match(checkProfileBaseUrl('not a url') ?? '', /not a valid URL/u);
    assert.ok(checkProfileBaseUrl('   '));
  });

  it('adds, renames and removes; refuses an empty, duplicate or built-in name and an unchecked URL', () => {
    let list = addProfile([], { name: ' Work ', baseUrl: 'https://api.example.com///' }, 'p1');
    assert.deepEqual(list, [{ id: 'p1', name: 'Work', baseUrl: 'https://api.example.com' }]);
    assert.throws(() => addProfile(list, { name: 'work', baseUrl: BASE }, 'p2'), /exists already/u);
    assert.throws(() => addProfile(list, { name: 'Sandbox', baseUrl: BASE }, 'p2'), /built-in/u);
    assert.throws(() => addProfile(list, { name: 'Default', baseUrl: BASE }, 'p2'), /built-in/u);
    assert.throws(() => addProfile(list, { name: '', baseUrl: BASE }, 'p2'), /name/u);
    assert.throws(() => addProfile(list, { name: 'Other', baseUrl: 'http://evil.example.com' }, 'p2'), /loopback/u);
    list = addProfile(list, { name: 'Second account', baseUrl: BASE }, 'p2');
    assert.equal(list.length, 2, 'two profiles may share a base URL (two accounts)');
    list = renameProfile(list, 'p2', 'Personal');
    assert.equal(list[1]?.name, 'Personal');
    assert.throws(() => renameProfile(list, 'p2', 'work'), /exists already/u);
    assert.equal(renameProfile(list, 'p1', 'WORK')[0]?.name, 'WORK', 'a profile may change the case of its own name');
  });

  it('reads a stored list defensively: malformed entries, built-in or repeated ids and unchecked URLs are dropped', () => {
    const parsed = parseProfiles([
      { id: 'p1', name: 'Work', baseUrl: 'https://a.example.com/' },
      { id: 'p1', name: 'Again', baseUrl: 'https://b.example.com' },
      { id: 'default', name: 'X', baseUrl: 'https://c.example.com' },
      { id: SANDBOX_PROFILE_ID, name: 'X', baseUrl: 'https://c.example.com' },
      { id: 'p2', name: 'Plain http', baseUrl: 'http://d.example.com' },
      { id: 'P3!', name: 'Bad id', baseUrl: 'https://e.example.com' },
      { id: 'p4', name: 7, baseUrl: 'https://f.example.com' },
      'nonsense',
      null,
    ]);
    assert.deepEqual(parsed, [{ id: 'p1', name: 'Work', baseUrl: 'https://a.example.com' }]);
    assert.deepEqual(parseProfiles(undefined), []);
    assert.deepEqual(parseProfiles({ p1: 1 }), []);
  });

  it('makes fresh ids that are never a built-in or taken one', () => {
    let n = 0;
    const seq = [0, 0, 0.5];
    const id = newProfileId([newProfileId([], () => 0)], () => seq[n++] ?? 0.7);
    assert.notEqual(id, newProfileId([], () => 0));
    assert.match(id, /^p[0-9a-z]{8}$/u);
  });
});

describe('profiles: the scope that keys per-profile records, and the migration', () => {
  it('the Default scope is the bare base URL, so records saved before profiles (keyed by base URL) are Default’s', () => {
    assert.equal(scopeKey(DEFAULT_PROFILE_ID, BASE), BASE);
    assert.deepEqual(parseScope(BASE), { profileId: DEFAULT_PROFILE_ID, baseUrl: BASE });
    assert.equal(jobScope(job('d', DEFAULT_PROFILE_ID)), BASE);
  });

  it('two profiles on one base URL have two scopes, and each round-trips', () => {
    const a = scopeKey('pa', BASE);
    const b = scopeKey('pb', BASE);
    assert.notEqual(a, b);
    assert.notEqual(a, BASE);
    assert.deepEqual(parseScope(a), { profileId: 'pa', baseUrl: BASE });
    assert.deepEqual(parseScope(scopeKey(SANDBOX_PROFILE_ID, 'http://127.0.0.1:4000')), { profileId: SANDBOX_PROFILE_ID, baseUrl: 'http://127.0.0.1:4000' });
  });

  it('the Requests view of a profile lists its own jobs only (old jobs under Default)', () => {
    const local = [job('old'), job('a1', 'pa'), job('b1', 'pb')];
    assert.deepEqual(mergeHistory(undefined, local, BASE).map((i) => i.requestId), ['old']);
    assert.deepEqual(mergeHistory(undefined, local, scopeKey('pa', BASE)).map((i) => i.requestId), ['a1']);
    assert.deepEqual(mergeHistory(undefined, local, scopeKey('pb', BASE)).map((i) => i.requestId), ['b1']);
  });
});

/** One account's view of the service: its own jobs only; every call recorded. */
class AccountApi implements PollApi {
  calls: string[] = [];
  done = new Set<string>();
  constructor(private readonly mine: string[]) {}
  private rec(id: string): RequestRecord {
    if (!this.mine.includes(id)) throw Object.assign(new Error('not this account’s job'), { kind: 'notFound' });
    return { requestId: id, url: this.done.has(id) ? `${BASE}/files/${id}.txt` : '', status: this.done.has(id) ? 'done' : 'queued' };
  }
  async request(id: string): Promise<RequestRecord> {
    this.calls.push(`request ${id}`);
    return this.rec(id);
  }
  async requests(): Promise<RequestRecord[]> {
    this.calls.push('requests');
    return this.mine.map((id) => this.rec(id));
  }
}

describe('profiles: a job is polled and downloaded under the profile it was sent under', () => {
  it('two profiles on one base URL: each job is polled with its own profile’s client, and downloaded under it', { timeout: 3_000 }, async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('a1', 'pa'));
    await store.put(job('b1', 'pb'));
    const apis = new Map([
      [scopeKey('pa', BASE), new AccountApi(['a1'])],
      [scopeKey('pb', BASE), new AccountApi(['b1'])],
    ]);
    const asked: string[] = [];
    const downloadedUnder: string[] = [];
    const poller = new Poller(store, {
      apiFor: (scope) => {
        asked.push(scope);
        return apis.get(scope);
      },
      download: async (j) => {
        downloadedUnder.push(`${j.requestId}@${jobScope(j)}`);
        return { resultPath: `/tmp/${j.requestId}` };
      },
      intervalMs: 10,
    });
    poller.start();
    for (const a of apis.values()) a.done = new Set(['a1', 'b1']);
    const settled = await Promise.all([poller.whenSettled('a1'), poller.whenSettled('b1')]);
    poller.dispose();
    assert.deepEqual(settled.map((j) => j.state), ['done', 'done']);
    assert.ok(!asked.includes(BASE), `never asked for the bare base URL (Default’s key): ${asked.join(', ')}`);
    assert.deepEqual(apis.get(scopeKey('pa', BASE))?.calls, ['request a1']);
    assert.deepEqual(apis.get(scopeKey('pb', BASE))?.calls, ['request b1']);
    assert.deepEqual(downloadedUnder.sort(), [`a1@${scopeKey('pa', BASE)}`, `b1@${scopeKey('pb', BASE)}`]);
  });

  it('a job whose profile has no client (removed) is never polled with another one, and stays pending', async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('gone1', 'gone'));
    const other = new AccountApi([]);
    const poller = new Poller(store, { apiFor: (scope) => (scope === BASE ? other : undefined), download: async () => ({ resultPath: '/tmp/x' }), intervalMs: 5 });
    poller.start();
    await new Promise((r) => setTimeout(r, 60));
    poller.dispose();
    assert.deepEqual(other.calls, [], 'the Default client was never used for the removed profile’s job');
    assert.equal(store.get('gone1')?.state, 'pending');
  });
});
