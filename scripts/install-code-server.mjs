// Installs code-server (VS Code for the browser, from the npm registry) into .vscode-test/code-server
// (WA_CODE_SERVER_DIR elsewhere), following docs/vscode-offline-testing.md step by step.
// Idempotent: the version marker is written last, after code-server has been seen to start, so a
// second run returns at once.
//   node scripts/install-code-server.mjs [--force]
//   node scripts/install-code-server.mjs --fetch-only   only the download stage (npm pack and the
//       installs without scripts): it needs no compiler, ripgrep or Kerberos headers, so `npm test`
//       runs it while apt-get installs those; the full run then skips it (.fetched-version).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import cs from './code-server.js';

const { CODE_SERVER_VERSION: VERSION, codeServerDir: dir, codeServerMarker: marker, codeServerFetchedMarker: fetchedMarker, repoRoot } = cs;
const force = process.argv.includes('--force');
const fetchOnly = process.argv.includes('--fetch-only');
const t0 = Date.now();
const rel = relative(repoRoot, dir) || dir;

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

const major = Number(process.versions.node.split('.')[0]);
if (major !== 20) fail(`code-server ${VERSION} needs Node 20; this is Node ${process.versions.node}.`);

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

const vs = join(dir, 'lib/vscode');
const fetched = () => {
  try {
    return readFileSync(fetchedMarker, 'utf8').trim() === VERSION;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// The download stage: npm only, no compiler (scripts/test-all.mjs runs it beside apt-get).

if (force || !fetched()) {
  console.log(`Downloading code-server ${VERSION} into ${rel}.`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, '..'), { recursive: true });

  // 1. npm pack, unpack package/ into the cache folder.
  const packDir = await mkdtemp(join(tmpdir(), 'wa-code-server-pack-'));
  step('npm pack', 'npm', ['pack', `code-server@${VERSION}`, '--pack-destination', packDir], repoRoot);
  const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  if (!tgz) fail(`npm pack left no .tgz in ${packDir}.`);
  const untar = spawnSync('tar', ['-xzf', join(packDir, tgz), '-C', packDir]);
  if (untar.status !== 0) fail(`tar could not unpack ${tgz}: ${untar.stderr}`);
  renameSync(join(packDir, 'package'), dir);
  rmSync(packDir, { recursive: true, force: true });

  // 2. code-server's own dependencies (argon2, its one native module, is built below).
  step('code-server dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], dir);
  // 3. VS Code's server dependencies, without install scripts (@vscode/ripgrep's would download from GitHub).
  step('VS Code dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], vs);
  // 4. Built-in extensions' dependencies (TypeScript; their postinstall only trims it).
  step('built-in extensions dependencies', 'npm', ['install', '--omit=dev'], join(vs, 'extensions'));
  writeFileSync(fetchedMarker, `${VERSION}\n`);
  console.log(`\ncode-server ${VERSION} downloaded in ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
} else {
  console.log(`code-server ${VERSION} is downloaded in ${rel} (.fetched-version); building it.`);
}
if (fetchOnly) process.exit(0);

// ---------------------------------------------------------------------------------------------
// The build stage: needs the compilers, ripgrep and the Kerberos headers (scripts/system-deps.js).

const rg = which('rg');
if (!rg) fail('ripgrep is missing (`apt-get install -y ripgrep`); code-server uses it for search.');
if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/gssapi/gssapi.h')) {
  fail('Kerberos headers are missing (`apt-get install -y libkrb5-dev`); the kerberos native module needs them.');
}
for (const tool of ['make', 'g++', 'python3']) {
  if (!which(tool)) fail(`${tool} is missing (\`apt-get install -y build-essential python3\`); native modules are compiled.`);
}

mkdirSync(join(vs, 'node_modules/@vscode/ripgrep/bin'), { recursive: true });
link(rg, join(vs, 'node_modules/@vscode/ripgrep/bin/rg'));

// 5. The native modules this platform loads (cs.nativeBuilds(): not the Windows-only ones, which
// `npm rebuild` of everything compiled too), one `npm rebuild` for each folder, the two folders side
// by side. From source: argon2's node-pre-gyp and kerberos's prebuild-install would first try
// GitHub, unreachable here. C++ at -O1 (CXXFLAGS, unless set): spdlog's two files are half the
// compiling, and -O1 takes 26 CPU-s against 42 at node-gyp's -O3 (the modules log, spawn a
// terminal, watch a parent: nothing here is bound by their speed). make runs a job a core
// (node-gyp's JOBS). node-pty's install runs `npx`, hence npm_config_yes.
const natives = cs.nativeBuilds();
const buildEnv = { ...env, npm_config_yes: 'true', npm_config_build_from_source: 'true', JOBS: String(availableParallelism()), CXXFLAGS: env.CXXFLAGS ?? '-O1' };
const groups = [...new Set(natives.map((m) => m.dir))].map((d) => ({ dir: d, names: natives.filter((m) => m.dir === d).map((m) => m.name) }));
console.log(`\n▶ build native modules: ${natives.map((m) => `${m.name} (${m.why})`).join(', ')}`);
const sBuild = Date.now();
const results = await Promise.all(
  groups.map(
    (g) =>
      new Promise((resolve) => {
        const cwd = join(dir, g.dir);
        const child = spawn('npm', ['rebuild', ...g.names], { cwd, env: buildEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000);
        const done = (code) => {
          clearTimeout(timer);
          const seconds = ((Date.now() - sBuild) / 1000).toFixed(1);
          console.log(`  $ (cd ${relative(repoRoot, cwd)} && npm rebuild ${g.names.join(' ')})`);
          console.log(`  ${code === 0 ? '✓' : '✗'} ${seconds} s${code === 0 ? '' : `, exit ${code}\n${out.trimEnd()}`}`);
          resolve(code === 0 ? [] : g.names);
        };
        child.on('error', (e) => {
          out += e.message;
          done('error');
        });
        child.on('close', (code, signal) => done(code ?? signal));
      }),
  ),
);
const broken = results.flat();
if (broken.length) fail(`build native modules: ${broken.join(', ')} did not build (output above).`);

// 6. The symlinks code-server's postinstall would make.
link('node_modules', join(vs, 'node_modules.asar'));
link('code-linux.sh', join(vs, 'bin/remote-cli/code-server'));
link('browser-linux.sh', join(vs, 'bin/helpers/browser.sh'));

// 7. Verify: every module built loads (and @parcel/watcher, prebuilt), and code-server answers on loopback.
const loads = [...natives, { dir: 'lib/vscode', name: '@parcel/watcher' }];
for (const m of loads) {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(m.name)})`], { cwd: join(dir, m.dir), encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) fail(`native module ${m.name} does not load after the build:\n${r.stderr}`);
}
console.log(`\n▶ verify\n  ✓ native modules load: ${loads.map((m) => m.name).join(', ')}`);
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
