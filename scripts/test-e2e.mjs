// The e2e tier with ONE code-server for all its files (issue 13: each file starting its own, with
// its own `--install-extension`, cost about 10 s a file). It installs the packaged .vsix once,
// starts code-server on loopback, runs the files one at a time with node:test, and stops the
// server at the end, on failure, and on SIGINT/SIGTERM/SIGHUP (code-server.js kills it on exit).
// The files find the server through WA_E2E_CODE_SERVER (see test/e2e/workbench.ts); a file run
// alone, without it, starts its own server as before.
//   node scripts/test-e2e.mjs [out/test/e2e/x.test.js ...]   default: every out/test/e2e/**/*.test.js
// Needs `node esbuild.mjs --tests` and `npm run package` first (npm test does both).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import cs from './code-server.js';

const root = cs.repoRoot;
const vsix = join(root, 'wallet-analytics.vsix');

function testFiles(dir) {
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.test.js') ? [relative(root, join(d, e.name))] : [],
    );
  return existsSync(dir) ? walk(dir).sort() : [];
}

const files = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (files.length === 0) files.push(...testFiles(join(root, 'out', 'test', 'e2e')));
if (files.length === 0) {
  console.error('test-e2e: no out/test/e2e/**/*.test.js: run `node esbuild.mjs --tests` first.');
  process.exit(1);
}
if (!existsSync(vsix)) {
  console.error(`test-e2e: ${relative(root, vsix)} is missing: run \`npm run package\` first.`);
  process.exit(1);
}

const stateDir = mkdtempSync(join(tmpdir(), 'wa-e2e-shared-'));
const dirs = { stateDir, userDataDir: join(stateDir, 'user-data'), extensionsDir: join(stateDir, 'extensions') };
let server;
let child;
// Synchronous, so it also runs when a signal ends the process (code-server.js kills the server then).
process.on('exit', () => rmSync(stateDir, { recursive: true, force: true }));
// The test runner is in our process group (test-all stops the group); it is told here too in case
// only this process was signalled.
for (const [sig, n] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.prependListener(sig, () => {
    try {
      child?.kill(sig);
    } catch {
      // already gone
    }
    process.exit(n);
  });
}

let code = 1;
try {
  const t0 = Date.now();
  cs.installVsix({ ...dirs, vsix });
  // Trust stays on for the server (no --disable-workspace-trust): Restricted Mode needs it, and
  // every other window turns it off in its user settings (workbench.ts), as the flag did.
  server = await cs.startCodeServer({ ...dirs, workspaceTrust: true });
  console.log(
    `test-e2e: one code-server ${cs.CODE_SERVER_VERSION} for ${files.length} files on ${server.url} (pid ${server.pid}), ` +
      `.vsix installed once, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const shared = { url: server.url, pid: server.pid, logPath: server.logPath, vsix, ...dirs };
  child = spawn(
    process.execPath,
    ['--test', '--test-reporter=spec', '--test-concurrency=1', '--test-timeout=300000', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, WA_E2E_CODE_SERVER: JSON.stringify(shared) } },
  );
  code = await new Promise((resolve) => {
    child.on('error', (e) => {
      console.error(`test-e2e: could not start node --test: ${e.message}`);
      resolve(1);
    });
    child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
} catch (e) {
  console.error(`test-e2e: ${e instanceof Error ? e.message : String(e)}`);
  code = 1;
} finally {
  await server?.stop();
}
process.exit(code);
