/**
 * A workspace can never choose where the key goes or how much may be spent (issue 12): the
 * user-only settings are declared `application`, the extension declares how it behaves in
 * Restricted Mode and virtual folders, and a settings file that sets a user-only key is found.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { USER_ONLY_KEYS, userOnlyKeysIn } from '../../../src/core/manifest/userOnlySettings';
import { localizedManifest } from '../localizedManifest';

interface Prop {
  scope?: string;
  description?: string;
  markdownDescription?: string;
}
interface Manifest {
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: { configuration: { properties: Record<string, Prop> }; viewsWelcome: { view: string; when: string; contents: string }[] };
}

/** The repository root: the nearest folder up from this file holding package.json. */
function root(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const manifest = localizedManifest(root()) as Manifest;
const props = manifest.contributes.configuration.properties;

describe('workspace trust: the manifest', () => {
  it('declares every user-only setting with scope application, saying a workspace cannot change it', () => {
    // Taken from package.json's scopes; these must be among them (issue 12: key and money; issue 21: traffic).
    for (const k of ['baseUrl', 'confirmAbove', 'maxCreditsPerCall', 'activityPageBudget', 'maxDownloadMB', 'pollIntervalSeconds', 'jobs.stalledAfterHours', 'credits.refreshMinutes', 'history.idleRefreshSeconds', 'unfocusedSlowdown']) {
      assert.ok(USER_ONLY_KEYS.includes(k), `walletAnalytics.${k} is user-only`);
    }
    for (const k of USER_ONLY_KEYS) {
      const p = props[`walletAnalytics.${k}`];
      assert.ok(p, `walletAnalytics.${k} declared`);
      assert.equal(p.scope, 'application', `walletAnalytics.${k} is a user setting only`);
      assert.match(`${p.description ?? ''}${p.markdownDescription ?? ''}`, /a workspace cannot change it/u);
    }
  });

  it('works limited in Restricted Mode, with the workspace-steerable settings restricted, and says so', () => {
    const u = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(u?.supported, 'limited');
    assert.match(u?.description ?? '', /nothing is sent with your API key/u);
    for (const k of ['walletAnalytics.resultsFolder', 'walletAnalytics.sandbox.autoStart']) assert.ok(u?.restrictedConfigurations?.includes(k), k);
    const v = manifest.capabilities?.virtualWorkspaces;
    assert.ok(typeof v === 'object' && v.supported === 'limited' && (v.description ?? '').length > 20, 'virtual workspaces declared with what works');
    const welcome = manifest.contributes.viewsWelcome.find((w) => w.when === 'walletAnalytics.status == untrusted');
    assert.match(welcome?.contents ?? '', /Restricted Mode.*\[Manage Workspace Trust\]\(command:workbench\.trust\.manage\)/su);
  });
});

describe('workspace trust: user-only keys in a settings file', () => {
  it('finds the dotted and the nested forms, with comments and trailing commas', () => {
    const text = `{
      // a hostile repository
      "walletAnalytics.baseUrl": "https://attacker.example",
      "walletAnalytics": { "maxCreditsPerCall": 1e12, "pollIntervalSeconds": 1 },
      "walletAnalytics.resultsFolder": "x",
    }`;
    // pollIntervalSeconds is user-only since issue 21: a workspace cannot set the pace of requests.
    assert.deepEqual(userOnlyKeysIn(text), ['baseUrl', 'maxCreditsPerCall', 'pollIntervalSeconds']);
  });
  it('reads a .code-workspace file’s settings, and nothing from other files', () => {
    const ws = JSON.stringify({ folders: [{ path: '.' }], settings: { 'walletAnalytics.confirmAbove': 1e15 } });
    assert.deepEqual(userOnlyKeysIn(ws, { workspaceFile: true }), ['confirmAbove']);
    assert.deepEqual(userOnlyKeysIn(ws), [], 'a top-level "settings" of a folder file is not a setting');
    assert.deepEqual(userOnlyKeysIn('not json'), []);
    assert.deepEqual(userOnlyKeysIn('{"walletAnalytics.resultsFolder": "r"}'), []);
  });
});
