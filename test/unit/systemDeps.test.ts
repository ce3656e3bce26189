// `npm ci && npm test` and `npm ci && npm run dev` must be the whole set-up on a fresh Debian/Ubuntu
// machine: these tests drive scripts/system-deps.js's pure planner through each case (root, sudo,
// neither, nothing missing, no apt, not Linux, Ubuntu's Chromium) and what each task needs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PACKAGES, gatherFacts, needsFor, planSystemDeps, type Facts, type Need } from '../../scripts/system-deps.js';

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
    const plan = planSystemDeps(facts({ uid: 1000, sudo: true, present: without('chromium', 'fonts-liberation') }));
    assert.equal(plan.action, 'install');
    if (plan.action !== 'install') return;
    assert.deepEqual(plan.commands[1], [
      'sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', 'chromium', 'fonts-liberation',
    ]);
    assert.ok(plan.commands.every((c) => c[0] === 'sudo'));
  });

  it('without root or passwordless sudo, prints the one line to run and fails', () => {
    const plan = planSystemDeps(facts({ uid: 1000, sudo: false, present: without('ripgrep', 'chromium') }));
    assert.equal(plan.action, 'fail');
    if (plan.action !== 'fail') return;
    assert.equal(plan.line, 'sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium ripgrep');
    assert.ok(plan.message.includes(`\n  ${plan.line}\n`), plan.message);
    assert.match(plan.message, /not root, and sudo asks for a password/);
    assert.match(plan.message, /Run this once, then the same npm command again/);
    assert.match(plan.message, /chromium +the headless browser/);
  });

  it('does nothing when every needed package is there', () => {
    const plan = planSystemDeps(facts({}));
    assert.equal(plan.action, 'none');
    assert.match(plan.message, /all present/);
  });

  it('needs nothing for the checks, and for the unit tier only the tools the Copy as Code snippets run with', () => {
    const opts = { ci: true, platform: 'linux', display: false, desktopCode: false, devBrowser: false };
    assert.equal(planSystemDeps(facts({ need: needsFor(['checks'], opts), present: [], uid: 1000 })).action, 'none');
    const need = needsFor(['checks', 'unit'], opts);
    assert.equal(need.codeServer, false);
    assert.equal(need.browser, false);
    const plan = planSystemDeps(facts({ need, present: without('curl', 'jq', 'python3-requests', 'python3-pandas', 'python3-nbformat') }));
    assert.equal(plan.action, 'install');
    assert.deepEqual(plan.packages, ['curl', 'jq', 'python3-requests', 'python3-pandas', 'python3-nbformat'], 'no Chromium, code-server or compilers for the unit tier');
    assert.match(plan.message, /python3-requests\s+the unit tier runs the Python \(requests\) Copy as Code snippets/);
    assert.match(plan.message, /python3-pandas\s+the unit tier runs an Open in Notebook notebook's pandas code/);
    assert.match(plan.message, /python3-nbformat\s+the unit tier validates an Open in Notebook file/);
    assert.equal(planSystemDeps(facts({ need, present: all })).action, 'none');
  });

  it('asks for the build packages only until code-server is built', () => {
    const before = planSystemDeps(facts({ present: [] }));
    const after = planSystemDeps(facts({ present: [], codeServerInstalled: true }));
    assert.deepEqual(before.packages, ['chromium', 'fonts-liberation', 'ripgrep', 'build-essential', 'python3', 'libkrb5-dev']);
    assert.deepEqual(after.packages, ['chromium', 'fonts-liberation', 'ripgrep']);
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
    const plan = planSystemDeps(facts({ distro: { id: 'ubuntu', idLike: 'debian' }, present: without('chromium', 'ripgrep') }));
    assert.equal(plan.action, 'install');
    if (plan.action !== 'install') return;
    assert.deepEqual(plan.packages, ['ripgrep']);
    assert.deepEqual(plan.manual, ['chromium']);
    assert.match(plan.message, /playwright-core install chromium/);
    const onlyChromium = planSystemDeps(facts({ distro: { id: 'ubuntu', idLike: 'debian' }, present: without('chromium') }));
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
    const f = gatherFacts(['e2e'], { ...process.env, WA_SETUP_PRETEND_MISSING: 'ripgrep, chromium' });
    assert.deepEqual(f.present, real.present.filter((n) => n !== 'ripgrep' && n !== 'chromium'));
  });
});
