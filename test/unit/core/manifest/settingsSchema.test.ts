/**
 * Every number setting is read within package.json's bounds (issue 21 item 6): a workspace's poll
 * interval of 0, NaN or -5 made the poller send hundreds of `GET /requests` a second with the
 * person's key, and a stalled-after of 0.0001 hours stalled a job 1.5 s old. The bounds are the
 * manifest's own; the settings that decide how many requests are sent are user-only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { booleanSetting, declaredSettings, numberSetting, SETTINGS, stringSetting, isUserOnly } from '../../../../src/core/manifest/settingsSchema';
import { userOnlyKeysIn } from '../../../../src/core/manifest/userOnlySettings';

const numbers = [...SETTINGS.values()].filter((s) => s.type === 'number' || s.type === 'integer');

describe('settings: bounds from package.json', () => {
  it('reads every walletAnalytics setting of package.json, and every number one has a minimum and a maximum around its default', () => {
    assert.ok(SETTINGS.size >= 17, `${SETTINGS.size} settings read`);
    assert.ok(numbers.length >= 11);
    for (const s of numbers) {
      assert.ok(s.minimum !== undefined && s.maximum !== undefined, `walletAnalytics.${s.key} declares both bounds`);
      assert.ok(s.minimum <= (s.default as number) && (s.default as number) <= s.maximum, `walletAnalytics.${s.key}: the default is within them`);
    }
  });

  it('clamps every number setting: 0, -5 and a huge value to the bounds; NaN, Infinity, a string or nothing to the default', () => {
    for (const s of numbers) {
      const min = s.minimum ?? -Infinity;
      const max = s.maximum ?? Infinity;
      const d = s.default as number;
      assert.equal(numberSetting(s.key, 0), Math.max(min, 0), `${s.key} = 0`);
      assert.equal(numberSetting(s.key, -5), Math.max(min, -5), `${s.key} = -5`);
      assert.equal(numberSetting(s.key, 1e300), max, `${s.key} = 1e300`);
      for (const bad of [NaN, Infinity, -Infinity, '5', null, undefined, {}, true]) assert.equal(numberSetting(s.key, bad), d, `${s.key} = ${String(bad)}`);
      assert.equal(numberSetting(s.key, d), d, `${s.key}: the default passes unchanged`);
    }
  });

  it('keeps the poll interval at 1 s or more and a job pending for an hour at least before it stalls', () => {
    for (const v of [0, NaN, -5, 0.001, '0']) assert.ok(numberSetting('pollIntervalSeconds', v) >= 1, `pollIntervalSeconds ${String(v)}`);
    assert.equal(numberSetting('pollIntervalSeconds', 1e9), 300);
    assert.equal(numberSetting('jobs.stalledAfterHours', 0.0001), 1);
    assert.equal(numberSetting('history.idleRefreshSeconds', 0), 1);
    assert.equal(numberSetting('credits.refreshMinutes', -1), 1);
    assert.equal(numberSetting('unfocusedSlowdown', 0), 1);
  });

  it('rounds an integer setting, and reads strings and booleans of the right type only', () => {
    assert.equal(numberSetting('activityPageBudget', 2.6), 3);
    assert.equal(numberSetting('activityPageBudget', 0.2), 1);
    assert.equal(stringSetting('quotaPeriodStart', 7), '');
    assert.equal(stringSetting('resultsFolder', 'r'), 'r');
    assert.equal(booleanSetting('table.neutralizeFormulas', 'false'), true, 'a string is not a boolean: the default (on) holds');
    assert.equal(booleanSetting('openResultOnCompletion', true), true);
    assert.throws(() => numberSetting('noSuchSetting', 1), /not a declared/u);
    assert.throws(() => numberSetting('baseUrl', 1), /not a declared number or integer/u);
  });

  it('takes bounds and scope from a manifest fragment, and skips what is not a walletAnalytics setting', () => {
    const m = declaredSettings({
      'walletAnalytics.a': { type: 'number', default: 2, minimum: 1, maximum: 3, scope: 'application' },
      'walletAnalytics.b': { type: 'array', default: [] },
      'other.c': { type: 'number', default: 1 },
    });
    assert.deepEqual([...m.keys()], ['a']);
    assert.ok(isUserOnly(m.get('a')!));
  });
});

describe('settings: what decides traffic is the user’s alone', () => {
  it('declares every setting that paces requests with scope application', () => {
    const pacing = [...SETTINGS.values()].filter((s) => /poll|interval|refresh|stalled|slowdown|budget/iu.test(s.key));
    assert.ok(pacing.length >= 6, pacing.map((s) => s.key).join(', '));
    for (const s of pacing) assert.equal(s.scope, 'application', `walletAnalytics.${s.key} is a user setting only`);
    for (const k of ['pollIntervalSeconds', 'jobs.stalledAfterHours']) assert.ok(isUserOnly(SETTINGS.get(k)!), k);
  });

  it('finds a workspace file’s nested `jobs.stalledAfterHours` as well as the dotted one', () => {
    assert.deepEqual(userOnlyKeysIn('{ "walletAnalytics": { "jobs": { "stalledAfterHours": 0.0001 }, "pollIntervalSeconds": 0 } }'), ['pollIntervalSeconds', 'jobs.stalledAfterHours']);
    assert.deepEqual(userOnlyKeysIn('{ "walletAnalytics.jobs.stalledAfterHours": 0.0001 }'), ['jobs.stalledAfterHours']);
  });
});
