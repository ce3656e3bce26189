// `npm ci && npm test` and `npm ci && npm run dev` must be the whole set-up on a fresh Debian/Ubuntu
// machine: these tests drive scripts/system-deps.js's pure planner through each case (root, sudo,
// neither, nothing missing, no apt, not Linux, Ubuntu's Chromium) and what each task needs; and its
// wait for the package lock another apt holds (a new machine's unattended upgrades), on a fake
// clock with the lock check given, so no apt runs and no time passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  PACKAGES,
  UNIT_FILES_NEEDING_PACKAGES,
  unitFileNeedsPackages,
  gatherFacts,
  needsFor,
  packageLockHolder,
  planSystemDeps,
  runAptCommands,
  waitForPackageLock,
  type Facts,
  type LockHolder,
  type Need,
} from '../../../scripts/system-deps.js';
import { nativeBuilds, repoRoot } from '../../../scripts/code-server.js';

const all = PACKAGES.map((p) => p.name);
const both: Need = { codeServer: true, browser: true, snippets: false, why: ['e2e: the .vsix is tested in code-server, driven from Chromium'] };

function facts(over: Partial<Facts>): Facts {
  return {
    platform: 'linux',
    distro: { id: 'debian', idLike: '' },
    need: both,
    codeServerInstalled: false,
    present: all,
    uid: 0,
    sudo: false,
    apt: true,
    ...over,
  };
}
const without = (...names: string[]): string[] => all.filter((n) => !names.includes(n));

describe('system packages: the plan', () => {
  it('installs a missing package with apt-get as root: update first, no recommends, no prompt, and says why', () => {
    const plan = planSystemDeps(facts({ present: without('ripgrep') }));
    assert.equal(plan.action, 'install');
    if (plan.action !== 'install') return;
    assert.deepEqual(plan.packages, ['ripgrep']);
    assert.deepEqual(plan.commands, [
      ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-q'],
      ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', 'ripgrep'],
    ]);
    assert.match(plan.message, /installing 1 with apt-get:\n {2}ripgrep +code-server's search/);
  });

  it('uses sudo -n when not root but sudo needs no password', () => {
    const plan = planSystemDeps(facts({ uid: 1000, sudo: true, present: without('chromium-headless-shell', 'fonts-liberation') }));
    assert.equal(plan.action, 'install');
    if (plan.action !== 'install') return;
    assert.deepEqual(plan.commands[1], [
      'sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', 'chromium-headless-shell', 'fonts-liberation',
    ]);
    assert.ok(plan.commands.every((c) => c[0] === 'sudo'));
  });

  it('without root or passwordless sudo, prints the one line to run and fails', () => {
    const plan = planSystemDeps(facts({ uid: 1000, sudo: false, present: without('ripgrep', 'chromium-headless-shell') }));
    assert.equal(plan.action, 'fail');
    if (plan.action !== 'fail') return;
    assert.equal(plan.line, 'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium-headless-shell ripgrep');
    assert.ok(plan.message.includes(`\n  ${plan.line}\n`), plan.message);
    assert.match(plan.message, /not root, and sudo asks for a password/);
    assert.match(plan.message, /Run this once, then the same npm command again/);
    assert.match(plan.message, /chromium-headless-shell +the headless browser/);
  });

  it('does nothing when every needed package is there', () => {
    const plan = planSystemDeps(facts({}));
    assert.equal(plan.action, 'none');
    assert.match(plan.message, /all present/);
  });

  it('needs nothing for the checks, and for the unit tier only what the notebook tests run with (the snippets run the runner: no curl, no requests)', () => {
    const opts = { ci: true, platform: 'linux', display: false, desktopCode: false, devBrowser: false };
    assert.equal(planSystemDeps(facts({ need: needsFor(['checks'], opts), present: [], uid: 1000 })).action, 'none');
    const need = needsFor(['checks', 'unit'], opts);
    assert.equal(need.codeServer, false);
    assert.equal(need.browser, false);
    const plan = planSystemDeps(facts({ need, present: without('python3-pandas', 'python3-nbformat') }));
    assert.equal(plan.action, 'install');
    assert.deepEqual(plan.packages, ['python3-pandas', 'python3-nbformat'], 'no Chromium, code-server or compilers for the unit tier');
    assert.ok(!PACKAGES.some((p) => p.name === 'curl' || p.name === 'python3-requests'), 'no snippet sends a request itself, so neither curl nor requests is installed');
    assert.match(plan.message, /python3-pandas\s+the unit tier runs an Open in Notebook notebook's pandas code/);
    assert.match(plan.message, /python3-nbformat\s+the unit tier validates an Open in Notebook file/);
    assert.equal(planSystemDeps(facts({ need, present: all })).action, 'none');
  });

  it('asks for the build packages only until code-server is built', () => {
    const before = planSystemDeps(facts({ present: [] }));
    const after = planSystemDeps(facts({ present: [], codeServerInstalled: true }));
    assert.deepEqual(before.packages, ['chromium-headless-shell', 'fonts-liberation', 'ripgrep', 'build-essential', 'python3', 'libkrb5-dev']);
    assert.deepEqual(after.packages, ['chromium-headless-shell', 'fonts-liberation', 'ripgrep']);
  });

  it("compiles, for code-server on Linux, only the native modules VS Code loads there: not the Windows-only ones, never node-pty's terminal left out", () => {
    // `npm rebuild` of all of VS Code's modules also ran node-gyp on three whose sources are for
    // Windows only, one after another (scripts/install-code-server.mjs builds this list instead).
    const where = (platform: NodeJS.Platform): string[] => nativeBuilds(platform).map((m) => `${m.dir} ${m.name}`);
    assert.deepEqual(where('linux'), ['. argon2', 'lib/vscode node-pty', 'lib/vscode @vscode/spdlog', 'lib/vscode kerberos', 'lib/vscode native-watchdog']);
    assert.ok(!where('linux').some((m) => /windows|deviceid/u.test(m)), 'no Windows-only module on Linux');
    for (const m of ['@vscode/windows-process-tree', '@vscode/windows-registry', '@vscode/deviceid']) assert.ok(where('win32').includes(`lib/vscode ${m}`), `${m} on Windows`);
    // libkrb5-dev is a build package because kerberos is built.
    assert.equal(PACKAGES.find((p) => p.name === 'libkrb5-dev')?.purpose, 'build');
  });

  it('holds until the system packages are in exactly the unit files that run Python (pandas, nbformat) or a Copy as Code snippet; the tier starts without them', () => {
    // scripts/test-all.mjs starts the unit tier beside apt-get and these files (--hold) after it.
    const unit = join(repoRoot, 'test', 'unit');
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.test.ts') ? [join(d, e.name)] : []));
    const runsPython = walk(unit)
      .filter((f) => !f.includes(`${join('unit', 'house')}`))
      .filter((f) => /fixtures\/runSnippet'|\bpandas\b|\bnbformat\b/u.test(readFileSync(f, 'utf8')))
      .map((f) => relative(repoRoot, f));
    assert.ok(runsPython.length >= 3, `found ${runsPython.join(', ')}`);
    assert.deepEqual(runsPython.filter((f) => !unitFileNeedsPackages(f)), [], 'each file that runs Python is held');
    for (const f of UNIT_FILES_NEEDING_PACKAGES) assert.ok(existsSync(join(unit, `${f}.ts`)), `test/unit/${f}.ts exists`);
    assert.equal(unitFileNeedsPackages('out/test/unit/core/codegen/notebook.test.js'), true, 'the build of one');
    assert.equal(unitFileNeedsPackages('out/test/unit/runner/cli.test.js'), false);
    assert.equal(unitFileNeedsPackages('out/test/unit/core/codegen/snippetsFileUrl.test.js'), false);
  });

  it('without apt-get/dpkg, names what is missing and fails instead of running apt', () => {
    for (const uid of [0, 1000]) {
      const plan = planSystemDeps(facts({ uid, apt: false, present: without('python3') }));
      assert.equal(plan.action, 'fail');
      if (plan.action !== 'fail') return;
      assert.equal(plan.line, '', 'no apt-get line where there is no apt-get');
      assert.match(plan.message, /apt-get is not on this system: install these with your distribution's package manager/);
      assert.match(plan.message, /python3 +node-gyp/);
    }
  });

  it('on macOS or Windows runs nothing and says what the run needs, without failing', () => {
    for (const platform of ['darwin', 'win32']) {
      const plan = planSystemDeps(facts({ platform, distro: undefined, present: [] }));
      assert.equal(plan.action, 'advise');
      assert.match(plan.message, new RegExp(`this is ${platform}`));
      assert.match(plan.message, /Chromium or Google Chrome, with CHROMIUM_PATH/);
      assert.match(plan.message, /ripgrep/);
      assert.match(plan.message, /desktop VS Code/);
    }
  });

  it("on Ubuntu leaves Chromium out of apt (it is a snap there) and says how to get one", () => {
    const plan = planSystemDeps(facts({ distro: { id: 'ubuntu', idLike: 'debian' }, present: without('chromium-headless-shell', 'ripgrep') }));
    assert.equal(plan.action, 'install');
    if (plan.action !== 'install') return;
    assert.deepEqual(plan.packages, ['ripgrep']);
    assert.deepEqual(plan.manual, ['chromium-headless-shell']);
    assert.match(plan.message, /playwright-core install chromium-headless-shell/);
    const onlyChromium = planSystemDeps(facts({ distro: { id: 'ubuntu', idLike: 'debian' }, present: without('chromium-headless-shell') }));
    assert.equal(onlyChromium.action, 'fail');
    if (onlyChromium.action === 'fail') assert.equal(onlyChromium.line, '');
  });
});

describe('system packages: what each task needs', () => {
  const base = { ci: false, platform: 'linux', display: true, desktopCode: true, devBrowser: false };

  it('e2e always needs code-server and Chromium', () => {
    const n = needsFor(['e2e'], base);
    assert.deepEqual([n.codeServer, n.browser], [true, true]);
  });

  it('integration needs them only when its launcher is code-server', () => {
    assert.equal(needsFor(['integration'], base).codeServer, false, 'desktop VS Code (electron) with a display');
    assert.equal(needsFor(['integration'], { ...base, platform: 'darwin', display: false }).codeServer, false, 'macOS needs no DISPLAY');
    assert.equal(needsFor(['integration'], { ...base, ci: true }).browser, true, 'CI=true');
    assert.equal(needsFor(['integration'], { ...base, launcher: 'code-server' }).browser, true, 'WA_VSCODE_LAUNCHER=code-server');
    assert.equal(needsFor(['integration'], { ...base, display: false }).browser, true, 'Linux without a display');
    assert.equal(needsFor(['integration'], { ...base, display: false, launcher: 'electron' }).codeServer, false, 'electron asked for');
  });

  it('npm run dev needs nothing with a desktop code, code-server without one, and Chromium only for --smoke', () => {
    assert.equal(needsFor(['dev'], base).codeServer, false);
    const noCode = needsFor(['dev'], { ...base, desktopCode: false });
    assert.deepEqual([noCode.codeServer, noCode.browser], [true, false]);
    assert.equal(needsFor(['dev'], { ...base, devBrowser: true }).codeServer, true, 'WA_DEV_BROWSER=1');
    assert.equal(needsFor(['dev-smoke'], base).browser, true);
  });

  it('refuses a task it does not know, rather than needing nothing for it', () => {
    assert.throws(() => needsFor(['e2ee'], base), /unknown task "e2ee"/);
  });
});

describe('system packages: the test hook', () => {
  it('WA_SETUP_PRETEND_MISSING takes a package out of what is present on this machine', () => {
    const real = gatherFacts(['e2e'], { ...process.env, WA_SETUP_PRETEND_MISSING: '' });
    const f = gatherFacts(['e2e'], { ...process.env, WA_SETUP_PRETEND_MISSING: 'ripgrep, chromium-headless-shell' });
    assert.deepEqual(f.present, real.present.filter((n) => n !== 'ripgrep' && n !== 'chromium-headless-shell'));
  });
});

describe('system packages: waiting for the package lock', () => {
  const upgrades: LockHolder = { file: '/var/lib/dpkg/lock-frontend', pid: 812, name: 'unattended-upgr' };

  /** A clock that moves only when the wait sleeps, and a lock held for the first `heldFor` ms. */
  function clock(heldFor: number): { now: () => number; sleep: (ms: number) => void; holder: () => LockHolder | undefined; slept: number[] } {
    let t = 1_000_000;
    const start = t;
    const slept: number[] = [];
    return {
      now: () => t,
      sleep: (ms) => {
        slept.push(ms);
        t += ms;
      },
      holder: () => (t - start < heldFor ? upgrades : undefined),
      slept,
    };
  }

  it('goes on at once, saying nothing, when no one holds the lock', () => {
    const c = clock(0);
    const lines: string[] = [];
    assert.deepEqual(waitForPackageLock({ ...c, log: (l) => lines.push(l) }), { ok: true, waitedMs: 0 });
    assert.deepEqual(c.slept, []);
    assert.deepEqual(lines, []);
  });

  it('waits while unattended upgrades hold the lock, saying who holds it and the bound, and again while it waits, then goes on', () => {
    const c = clock(95_000);
    const lines: string[] = [];
    const r = waitForPackageLock({ ...c, log: (l) => lines.push(l), boundMs: 10 * 60_000, everyMs: 2_000, reportEveryMs: 30_000 });
    assert.deepEqual(r, { ok: true, waitedMs: 96_000 });
    assert.ok(c.slept.every((ms) => ms === 2_000));
    assert.match(lines[0] ?? '', /waiting for the package lock: unattended-upgr \(pid 812\) holds \/var\/lib\/dpkg\/lock-frontend/);
    assert.match(lines[0] ?? '', /up to 10 minutes/);
    assert.equal(lines.filter((l) => /still waiting for the package lock \(\d+ s\)/.test(l)).length, 3, lines.join('\n'));
    assert.match(lines.at(-1) ?? '', /the package lock is free \(waited 96 s\)/);
  });

  it('stops at the bound when the lock is still held, naming the holder and how to wait longer', () => {
    const c = clock(Infinity);
    const lines: string[] = [];
    const r = waitForPackageLock({ ...c, log: (l) => lines.push(l), boundMs: 10 * 60_000, everyMs: 7_000 });
    assert.equal(r.ok, false);
    assert.equal(r.waitedMs, 10 * 60_000, 'not a check past the bound');
    assert.deepEqual(r.holder, upgrades);
    assert.match(lines.at(-1) ?? '', /still held after 10 minutes: unattended-upgr \(pid 812\)/);
    assert.match(lines.at(-1) ?? '', /WA_APT_LOCK_WAIT_S/);
  });

  it('finds the holder in /proc/locks by the lock file\'s device and inode, and only there', () => {
    const locks = [
      '1: POSIX  ADVISORY  WRITE 4242 fe:00:999 0 EOF', // another file
      '2: POSIX  ADVISORY  WRITE 4243 fe:01:131 0 EOF', // the same inode on another device
      '3: POSIX  ADVISORY  WRITE 812 fe:00:131 0 EOF',
      '3: -> POSIX  ADVISORY  WRITE 900 fe:00:131 0 EOF', // a waiter, not the holder
    ].join('\n');
    const stat = (f: string): { dev: number; ino: number } => {
      if (f === '/var/lib/dpkg/lock-frontend') return { dev: 0xfe00, ino: 131 };
      throw new Error('ENOENT');
    };
    const comm = (pid: number): string => (pid === 812 ? 'unattended-upgr' : 'other');
    assert.deepEqual(packageLockHolder({ readLocks: () => locks, stat, comm }), upgrades);
    assert.equal(packageLockHolder({ readLocks: () => locks.split('\n').slice(0, 2).join('\n'), stat, comm }), undefined);
    assert.equal(packageLockHolder({ readLocks: () => { throw new Error('no /proc'); }, stat, comm }), undefined, 'no /proc: no wait (apt-get\'s own timeout remains)');
  });

  it('runs each apt-get after the lock is free, tells apt-get to wait for dpkg too, and retries once a command that lost the lock', () => {
    const ran: string[][] = [];
    const waits: number[] = [];
    let held = false;
    const ok = runAptCommands(
      [
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-q'],
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', 'ripgrep'],
      ],
      {
        log: () => undefined,
        boundMs: 600_000,
        now: () => 0,
        holder: () => (held ? upgrades : undefined),
        wait: ({ boundMs }) => {
          waits.push(boundMs);
          held = false;
          return { ok: true, waitedMs: 0 };
        },
        run: (argv) => {
          ran.push(argv);
          // unattended upgrades take the lock between the check and the first apt-get update
          if (ran.length === 1) {
            held = true;
            return { status: 100 };
          }
          return { status: 0 };
        },
      },
    );
    assert.equal(ok, true);
    assert.deepEqual(ran.map((a) => a[a.indexOf('apt-get') + 3]), ['update', 'update', 'install']);
    assert.deepEqual(ran[2]?.slice(2, 6), ['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'install']);
    assert.equal(waits.length, 3, 'a wait before every run');
  });

  it('gives up when the wait does, and when a command fails with the lock free', () => {
    const run = (): { status: number } => ({ status: 0 });
    const cmds = [['apt-get', 'update']];
    assert.equal(runAptCommands(cmds, { log: () => undefined, holder: () => upgrades, wait: () => ({ ok: false, waitedMs: 600_000 }), run }), false);
    let runs = 0;
    const failing = (): { status: number } => ((runs += 1), { status: 100 });
    assert.equal(runAptCommands(cmds, { log: () => undefined, holder: () => undefined, wait: () => ({ ok: true, waitedMs: 0 }), run: failing }), false);
    assert.equal(runs, 1, 'no retry when the failure is not the lock');
  });
});
