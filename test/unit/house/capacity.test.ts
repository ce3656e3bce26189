// `npm test` sizes what runs side by side from the machine (scripts/capacity.mjs, issue 31.7): a
// 2-core machine at half speed failed 16 tests when every tier ran at full width beside the others.
// These drive the pure sizing through an idle and a busy machine of each size.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { busyCores, cpuTicks, lanesToAdd, longestFirst, otherWork, planCapacity, readFigures, runnerOrder, treeCpuSeconds } from '../../../scripts/capacity.mjs';

describe('npm test: what runs side by side', () => {
  it('an idle 2-core machine: four unit files, four e2e lanes (two while the integration tier runs), integration after the unit tier and the checks', () => {
    const c = planCapacity({ cores: 2, load1: 0.4 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.integrationBesideChecks, c.loaded], [4, 4, false, false]);
    assert.match(c.why, /the integration tier after the unit tier and the checks/u);
    assert.equal(planCapacity({ cores: 2, load1: 0.4, integrationRunning: true }).e2eLanes, 2);
  });

  it('a machine whose cores other work already fills gets one slot a core, and e2e two lanes at least', () => {
    const c = planCapacity({ cores: 2, load1: 19 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.loaded], [2, 2, true]);
    assert.equal(planCapacity({ cores: 2, load1: 19, integrationRunning: true }).e2eLanes, 2);
    assert.equal(c.integrationBesideChecks, false, 'the integration tier waits for the unit tier and the checks');
    assert.match(c.why, /2 cores, load 19\.0 \(other work fills its cores/u);
  });

  it('a load average left by work that has ended (CI\'s npm ci) is not other work: the cores busy now bound it', () => {
    // /proc/stat's first line, one second apart, on 2 cores: 190 of 200 ticks idle (or waiting on the disk).
    const before = cpuTicks('cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 500 0 250 4000 50 0 0 0 0 0\n');
    const after = cpuTicks('cpu  1008 0 502 8180 110 0 0 0 0 0\ncpu0 504 0 251 4090 55 0 0 0 0 0\n');
    assert.deepEqual([before, after], [[1500, 9600], [1510, 9800]]);
    const busy = busyCores(before, after, 2);
    assert.ok(busy !== undefined && Math.abs(busy - 0.1) < 1e-9, String(busy));
    // The load 3.8 of the run that took the loaded plan on idle cores (two unit files, two lanes, integration last).
    const idleNow = planCapacity({ cores: 2, load1: otherWork({ load1: 3.8, busyNow: busy }) });
    assert.deepEqual([idleNow.unitFiles, idleNow.e2eLanes, idleNow.loaded], [4, 4, false]);
    // Cores busy now and a load that says the same: loaded. No reading of the cores: the load alone.
    assert.equal(planCapacity({ cores: 2, load1: otherWork({ load1: 3.8, busyNow: 1.9 }) }).loaded, false, 'busy 1.9 of 2 is not full');
    assert.equal(planCapacity({ cores: 2, load1: otherWork({ load1: 3.8, busyNow: 2 }) }).loaded, true);
    assert.equal(otherWork({ load1: 3.8, busyNow: undefined }), 3.8);
    assert.equal(cpuTicks('no such line'), undefined);
    assert.equal(busyCores(before, undefined, 2), undefined);
  });

  it('one core: never none, and never more than two', () => {
    assert.deepEqual([planCapacity({ cores: 1, load1: 0 }).unitFiles, planCapacity({ cores: 1, load1: 0 }).e2eLanes], [2, 2]);
    assert.deepEqual([planCapacity({ cores: 1, load1: 8, integrationRunning: true }).e2eLanes, planCapacity({ cores: 0, load1: NaN }).unitFiles], [1, 2]);
    assert.equal(planCapacity({ cores: 1, load1: 0, integrationRunning: true }).e2eLanes, 2);
    assert.equal(planCapacity({ cores: 1, load1: 0 }).integrationBesideChecks, false, 'one core: the integration tier after the checks');
  });

  it('a big idle machine runs integration beside the checks and caps the lanes at four', () => {
    const c = planCapacity({ cores: 16, load1: 1 });
    assert.deepEqual([c.unitFiles, c.e2eLanes, c.integrationBesideChecks], [4, 4, true]);
    assert.equal(planCapacity({ cores: 16, load1: 30 }).integrationBesideChecks, false, 'not when loaded');
  });

  it('WA_E2E_JOBS and WA_UNIT_JOBS fix the counts, WA_INTEGRATION_BESIDE the integration tier\'s place; a value that is not one is ignored', () => {
    assert.equal(planCapacity({ cores: 2, load1: 19, env: { WA_E2E_JOBS: '4' } }).e2eLanes, 4);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: '1', WA_UNIT_JOBS: '1' } }).unitFiles, 1);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: 'x' } }).e2eLanes, 4);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_E2E_JOBS: '0' } }).e2eLanes, 4);
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_INTEGRATION_BESIDE: '0' } }).integrationBesideChecks, false, 'WA_INTEGRATION_BESIDE=0: after the checks');
    assert.equal(planCapacity({ cores: 1, load1: 8, env: { WA_INTEGRATION_BESIDE: '1' } }).integrationBesideChecks, true, 'WA_INTEGRATION_BESIDE=1: beside them');
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_INTEGRATION_BESIDE: 'x' } }).integrationBesideChecks, false, 'anything else: the rule');
    assert.equal(planCapacity({ cores: 2, load1: 0, env: { WA_INTEGRATION_BESIDE: '1' } }).integrationBesideChecks, true, 'WA_INTEGRATION_BESIDE=1 on 2 cores: beside them');
  });

  it('when the integration tier ends, e2e takes its lanes back, only for files still queued (two a new lane), never past four', () => {
    const after = planCapacity({ cores: 2, load1: 0.4 }).e2eLanes;
    assert.equal(lanesToAdd({ lanes: after, running: 2, queued: 11 }), 2, 'two lanes back for eleven files');
    assert.equal(lanesToAdd({ lanes: after, running: 2, queued: 3 }), 1, 'one lane for three files');
    assert.equal(lanesToAdd({ lanes: after, running: 2, queued: 1 }), 0, 'a lane start is not worth one file');
    assert.equal(lanesToAdd({ lanes: after, running: 4, queued: 10 }), 0, 'already at the width');
    assert.equal(lanesToAdd({ lanes: planCapacity({ cores: 2, load1: 19 }).e2eLanes, running: 2, queued: 10 }), 0, 'a loaded machine keeps two');
    assert.equal(lanesToAdd({ lanes: 9, running: 1, queued: 40 }), 3, 'never past four');
  });

  it('the e2e runner hears `go` (its held lanes may run files) and `lanes N` on its stdin, and nothing else', () => {
    assert.deepEqual(runnerOrder('go'), { go: true });
    assert.deepEqual(runnerOrder(' go \r'), { go: true });
    assert.deepEqual(runnerOrder('lanes 4'), { lanes: 4 });
    assert.equal(runnerOrder('gone'), undefined);
    assert.equal(runnerOrder('lanes four'), undefined);
    assert.equal(runnerOrder(''), undefined);
  });

  it('files start longest first: this machine\'s last run, else the committed figures, else the guess; equal ones keep their order', () => {
    const files = ['a.test.js', 'b.test.js', 'c.test.js', 'd.test.js'];
    assert.deepEqual(longestFirst(files, [undefined, { 'c.test.js': 400, 'a.test.js': 50 }]), ['c.test.js', 'a.test.js', 'b.test.js', 'd.test.js'], 'a fresh clone: the committed figures');
    assert.deepEqual(longestFirst(files, [{ 'a.test.js': 500 }, { 'c.test.js': 400, 'a.test.js': 50 }]), ['a.test.js', 'c.test.js', 'b.test.js', 'd.test.js'], 'the last run first');
    assert.deepEqual(longestFirst(['x/b.js', 'y/a.js'], [{ 'a.js': 2, 'b.js': 1 }], () => 0, (f) => f.slice(2)), ['y/a.js', 'x/b.js'], 'by key');
    assert.deepEqual(longestFirst(files, [], (f) => (f === 'd.test.js' ? 9 : 0)), ['d.test.js', 'a.test.js', 'b.test.js', 'c.test.js'], 'the guess');
  });

  it('the committed figures hold both tiers (a stale name is harmless: its file starts where a new one would)', () => {
    const root = join(__dirname, '..', '..', '..', '..');
    const figures = join(root, 'test', 'durations.json');
    const unit = readFigures(figures, 'unit') ?? {};
    const e2e = readFigures(figures, 'e2e') ?? {};
    assert.ok(Object.keys(unit).length > 20 && Object.keys(e2e).length > 10, 'both tiers have figures');
    assert.equal(longestFirst(Object.keys(e2e), [e2e])[0], 'a11y.test.js');
    for (const f of Object.keys(unit)) assert.ok(f.startsWith('out/test/unit/') && f.endsWith('.test.js'), f);
    assert.equal(readFigures(join(root, 'no-such-file.json')), undefined);
  });

  it('the unit tier runs its files in the order given (node --test sorts them by name), fails on a failure, and keeps each file\'s seconds', () => {
    const root = join(__dirname, '..', '..', '..', '..');
    const dir = mkdtempSync(join(tmpdir(), 'wa-unit-order-'));
    try {
      writeFileSync(join(dir, 'z.test.js'), "require('node:test').it('z, given first', () => { throw new Error('z fails'); });\n");
      writeFileSync(join(dir, 'a.test.js'), "require('node:test').it('a, given second', () => {});\n");
      const figures = join(dir, 'durations.json');
      // As npm test runs it: not inside this test's runner (whose NODE_TEST_CONTEXT makes a run report to it).
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT'));
      const r = spawnSync(process.execPath, [join(root, 'scripts', 'test-unit.mjs'), '--concurrency=1', `--durations=${figures}`, join(dir, 'z.test.js'), join(dir, 'a.test.js')], { cwd: dir, encoding: 'utf8', env });
      // The report before its closing list of failures, which names z again.
      const ran = r.stdout.split('✖ failing tests')[0]?.split('\n').filter((l) => /^(✔|✖) [az], given/u.test(l)) ?? [];
      assert.deepEqual(ran.map((l) => l.slice(2, 3)), ['z', 'a'], r.stdout);
      assert.match(r.stdout, /^ℹ pass 1$/mu);
      assert.match(r.stdout, /^ℹ fail 1$/mu);
      assert.equal(r.status, 1, 'a failure fails the tier');
      assert.deepEqual(Object.keys(JSON.parse(readFileSync(figures, 'utf8')) as Record<string, number>).sort(), ['a.test.js', 'z.test.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an e2e lane's CPU-seconds: its processes and all they started, those ended and reaped included", () => {
    // /proc/<pid>/stat: the name in parentheses may hold spaces and ')'; utime, stime, cutime, cstime are fields 14–17 (ticks).
    const stat = (pid: number, ppid: number, name: string, ticks: [number, number, number, number]): string =>
      `${pid} (${name}) S ${ppid} 1 1 0 -1 4194304 97 0 0 0 ${ticks.join(' ')} 20 0 1 0 5617981 3133440 393`;
    const procs = [
      stat(10, 1, 'node', [100, 50, 300, 20]), // code-server: its reaped extension hosts are in cutime/cstime
      stat(11, 10, 'node) (ext host', [200, 0, 0, 0]),
      stat(12, 11, 'rg', [5, 5, 0, 0]),
      stat(20, 1, 'chromium', [400, 100, 0, 0]),
      stat(21, 20, 'chromium', [1000, 0, 0, 0]),
      stat(30, 1, 'elsewhere', [9999, 0, 0, 0]),
    ];
    assert.equal(treeCpuSeconds([10], procs, 100), (100 + 50 + 300 + 20 + 200 + 10) / 100);
    assert.equal(treeCpuSeconds([10, 20], procs, 100), (680 + 1500) / 100);
    assert.equal(treeCpuSeconds([99], procs, 100), 0, 'a process gone counts nothing');
    assert.equal(treeCpuSeconds([10], null, 100), undefined, 'no /proc (not Linux): no figure');
  });
});
