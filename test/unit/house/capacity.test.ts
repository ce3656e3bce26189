// `npm test` sizes what runs side by side from the machine (scripts/capacity.mjs, issue 31.7): a
// 2-core machine at half speed failed 16 tests when every tier ran at full width beside the others.
// These drive the pure sizing through an idle and a busy machine of each size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCapacity } from '../../../scripts/capacity.mjs';

describe('npm test: what runs side by side', () => {
  it('an idle 2-core machine: four unit files, four e2e lanes (three while the integration tier runs), integration after the checks', () => {
    const c = planCapacity({ cores: 2, load1: 0.4 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.integrationBesideChecks, c.loaded], [4, 4, false, false]);
    assert.equal(planCapacity({ cores: 2, load1: 0.4, integrationRunning: true }).e2eLanes, 2);
  });

  it('a machine whose cores other work already fills gets one slot a core, and e2e two lanes at least', () => {
    const c = planCapacity({ cores: 2, load1: 19 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.loaded], [2, 2, true]);
    assert.equal(planCapacity({ cores: 2, load1: 19, integrationRunning: true }).e2eLanes, 2);
    assert.match(c.why, /2 cores, load 19\.0 \(other work fills its cores/u);
  });

  it('one core: never none, and never more than two', () => {
    assert.deepEqual([planCapacity({ cores: 1, load1: 0 }).unitFiles, planCapacity({ cores: 1, load1: 0 }).e2eLanes], [2, 2]);
    assert.deepEqual([planCapacity({ cores: 1, load1: 8, integrationRunning: true }).e2eLanes, planCapacity({ cores: 0, load1: NaN }).unitFiles], [1, 2]);
    assert.equal(planCapacity({ cores: 1, load1: 0, integrationRunning: true }).e2eLanes, 2);
  });

  it('a big idle machine runs integration beside the checks and caps the lanes at four', () => {
    const c = planCapacity({ cores: 16, load1: 1 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.integrationBesideChecks], [4, 4, true]);
    assert.equal(planCapacity({ cores: 16, load1: 30 }).integrationBesideChecks, false, 'not when loaded');
  });

  it('WA_E2E_JOBS and WA_UNIT_JOBS fix the counts; a value that is not a count is ignored', () => {
    assert.equal(planCapacity({ cores: 2, load1: 19, env: { WA_E2E_JOBS: '4' } }).e2eLanes, 4);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: '1', WA_UNIT_JOBS: '1' } }).unitFiles, 1);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: 'x' } }).e2eLanes, 4);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: '0' } }).e2eLanes, 4);
  });
});
