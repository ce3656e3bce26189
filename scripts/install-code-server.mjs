// Installs code-server (VS Code for the browser, from the npm registry) into .vscode-test/code-server,
// following docs/vscode-offline-testing.md step by step. Idempotent: the version marker is written
// last, after code-server has been seen to start, so a second run returns at once.
//   node scripts/install-code-server.mjs [--force]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import cs from './code-server.js';

const { CODE_SERVER_VERSION: VERSION, codeServerDir: dir, codeServerMarker: marker, repoRoot } = cs;
const force = process.argv.includes('--force');
const t0 = Date.now();
const rel = relative(repoRoot, dir);

if (!force && cs.isCodeServerInstalled()) {
  console.log(`code-server ${VERSION} is already installed in ${rel}.`);
  process.exit(0);
}

function fail(msg) {
  console.error(`\ninstall-code-server: ${msg}`);
  process.exit(1);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

// Preconditions, checked up front so a missing package is named instead of a compiler error.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 20) fail(`code-server ${VERSION} needs Node 20; this is Node ${process.versions.node}.`);
const rg = which('rg');
if (!rg) fail('ripgrep is missing (`apt-get install -y ripgrep`); code-server uses it for search.');
if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/gssapi/gssapi.h')) {
  fail('Kerberos headers are missing (`apt-get install -y libkrb5-dev`); the kerberos native module needs them.');
}
for (const tool of ['make', 'g++', 'python3']) {
  if (!which(tool)) fail(`${tool} is missing (\`apt-get install -y build-essential python3\`); native modules are compiled.`);
}

// node-gyp would download Node's headers from nodejs.org, which is unreachable here.
// Point it at the headers installed with Node when they match the running version.
const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
if (!env.npm_config_nodedir) {
  for (const prefix of ['/usr', '/usr/local']) {
    try {
      const h = readFileSync(join(prefix, 'include/node/node_version.h'), 'utf8');
      const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`#define NODE_${k}_VERSION (\\d+)`).exec(h)?.[1]).join('.');
      if (v === process.versions.node) {
        env.npm_config_nodedir = prefix;
        break;
      }
    } catch {
      // no headers under this prefix
    }
  }
}

function step(title, cmd, args, cwd, extraEnv = {}) {
  const s = Date.now();
  console.log(`\n▶ ${title}\n  $ (cd ${relative(repoRoot, cwd) || '.'} && ${cmd} ${args.join(' ')})`);
  const r = spawnSync(cmd, args, { cwd, env: { ...env, ...extraEnv }, stdio: 'inherit', timeout: 15 * 60_000 });
  if (r.error) fail(`${title}: ${r.error.message}`);
  if (r.status !== 0) fail(`${title}: \`${cmd} ${args.join(' ')}\` exited with ${r.status ?? r.signal}.`);
  console.log(`  ✓ ${((Date.now() - s) / 1000).toFixed(1)} s`);
}

function link(target, at) {
  rmSync(at, { recursive: true, force: true });
  symlinkSync(target, at);
}

console.log(`Installing code-server ${VERSION} into ${rel} (Node ${process.versions.node}, nodedir ${env.npm_config_nodedir ?? 'default'}).`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, '..'), { recursive: true });

// 1. npm pack, unpack package/ into the cache folder.
const packDir = await mkdtemp(join(tmpdir(), 'wa-code-server-pack-'));
step('npm pack', 'npm', ['pack', `code-server@${VERSION}`, '--pack-destination', packDir], repoRoot);
const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
if (!tgz) fail(`npm pack left no .tgz in ${packDir}.`);
execFileSync('tar', ['-xzf', join(packDir, tgz), '-C', packDir]);
renameSync(join(packDir, 'package'), dir);
rmSync(packDir, { recursive: true, force: true });

// 2. code-server's own dependencies; argon2 (password hashing) is its one native module.
step('code-server dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], dir);
step('build argon2', 'npm', ['rebuild', 'argon2'], dir);

// 3. VS Code's server dependencies, without install scripts (@vscode/ripgrep's would download from GitHub).
const vs = join(dir, 'lib/vscode');
step('VS Code dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], vs);
mkdirSync(join(vs, 'node_modules/@vscode/ripgrep/bin'), { recursive: true });
link(rg, join(vs, 'node_modules/@vscode/ripgrep/bin/rg'));
// node-pty's install runs `npx`, hence npm_config_yes.
step('build native modules (node-pty, spdlog, kerberos, …)', 'npm', ['rebuild'], vs, { npm_config_yes: 'true' });

// 4. The symlinks code-server's postinstall would make.
link('node_modules', join(vs, 'node_modules.asar'));
link('code-linux.sh', join(vs, 'bin/remote-cli/code-server'));
link('browser-linux.sh', join(vs, 'bin/helpers/browser.sh'));

// 5. Built-in extensions' dependencies.
step('built-in extensions dependencies', 'npm', ['install', '--omit=dev'], join(vs, 'extensions'));

// 6. Verify: every native module loads, and code-server answers on loopback.
const natives = [
  [dir, 'argon2'],
  [vs, 'node-pty'],
  [vs, '@vscode/spdlog'],
  [vs, 'kerberos'],
  [vs, '@parcel/watcher'],
  [vs, 'native-watchdog'],
];
for (const [cwd, mod] of natives) {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(mod)})`], { cwd, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) fail(`native module ${mod} does not load after the build:\n${r.stderr}`);
}
console.log(`\n▶ verify\n  ✓ native modules load: ${natives.map(([, m]) => m).join(', ')}`);
const state = await mkdtemp(join(tmpdir(), 'wa-code-server-verify-'));
let problem;
try {
  const server = await cs.startCodeServer({ stateDir: state, timeoutMs: 60_000, beforeMarker: true });
  const res = await fetch(server.url, { signal: AbortSignal.timeout(10_000) }).catch((e) => e);
  const html = res instanceof Response ? await res.text() : '';
  await server.stop();
  if (!(res instanceof Response)) problem = `code-server did not serve its page: ${res.message}`;
  else if (!res.ok || !html.includes('workbench')) problem = `code-server answered ${res.status} without a workbench page.`;
  else console.log(`  ✓ code-server starts and serves the workbench (${server.url})`);
} catch (e) {
  problem = e instanceof Error ? e.message : String(e);
}
rmSync(state, { recursive: true, force: true });
if (problem) fail(problem);

writeFileSync(marker, `${VERSION}\n`);
console.log(`\ncode-server ${VERSION} installed in ${rel} in ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
