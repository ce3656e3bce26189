// The integration suite's entry: VS Code loads this module in the extension host (it is the
// `extensionTestsPath`) and calls run(). Both launchers use it: @vscode/test-electron's runTests()
// and code-server's `extensionTestsPath` payload (scripts/test-integration.mjs).
//
// run() loads every *.test.js next to this file (each test/integration/*.test.ts is its own
// esbuild entry), runs them with mocha's spec reporter, and writes into the results folder:
//   report.txt    the reporter's lines as they happen (the launcher prints them live)
//   results.json  written last; its appearance tells the launcher the suite is over
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format, stripVTControlCharacters } from 'node:util';
import * as vscode from 'vscode';

declare global {
  // Set by run() while the suite runs: appends a line to the report.
  var __waIntegrationReport: ((line: string) => void) | undefined;
}

export interface IntegrationResults {
  passes: number;
  failures: number;
  pending: number;
  durationMs: number;
  /** Full titles of failed tests with their error messages. */
  failed: { title: string; error: string }[];
  /** Set when the suite could not be loaded or mocha itself threw. */
  crash?: string;
  vscodeVersion: string;
  appHost: string;
}

/** Where results go: WA_INTEGRATION_OUT from the launcher, else test-results/integration in the repo. */
function resultsDir(): string {
  return process.env.WA_INTEGRATION_OUT ?? path.resolve(__dirname, '../../../test-results/integration');
}

export async function run(): Promise<void> {
  const dir = resultsDir();
  fs.mkdirSync(dir, { recursive: true });
  const reportFile = path.join(dir, 'report.txt');
  const resultsFile = path.join(dir, 'results.json');
  fs.rmSync(resultsFile, { force: true });
  fs.writeFileSync(reportFile, '');
  // The launchers print report.txt; echo to the console too only when run by hand (F5, Extension Tests).
  const echo = process.env.WA_INTEGRATION_QUIET !== '1';
  const originalLog = console.log;
  const write = (...args: unknown[]): void => {
    // Plain text: mocha's symbols come coloured whatever useColors says.
    const line = stripVTControlCharacters(format(...args));
    fs.appendFileSync(reportFile, `${line}\n`);
    if (echo) originalLog(line);
  };

  const results: IntegrationResults = {
    passes: 0,
    failures: 0,
    pending: 0,
    durationMs: 0,
    failed: [],
    vscodeVersion: vscode.version,
    appHost: vscode.env.appHost,
  };
  const started = Date.now();
  try {
    // mocha 12 is an ES module; import() works in every extension host (Electron's and Node's).
    const { default: Mocha } = await import('mocha');
    Mocha.reporters.Base.consoleLog = write;
    Mocha.reporters.Base.useColors = false;
    // The extension host pins console.log (it forwards it to the workbench), so tests report
    // through this hook instead; see note() in support.ts.
    globalThis.__waIntegrationReport = write;
    const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000 });
    const files = fs
      .readdirSync(__dirname)
      .filter((f) => f.endsWith('.test.js'))
      // WA_INTEGRATION_ONLY=watch: only the files whose names contain it (an engineer's one file; CI runs all).
      // A comma-separated list keeps several, in the suite's order: `query,savedViews` runs a file
      // after the one CI runs before it, to find what an earlier file leaves behind.
      .filter((f) => !process.env.WA_INTEGRATION_ONLY || process.env.WA_INTEGRATION_ONLY.split(',').some((part) => part !== '' && f.includes(part)))
      .sort();
    if (files.length === 0) throw new Error(`No *.test.js files next to ${__filename}; was the suite built?`);
    for (const f of files) mocha.addFile(path.join(__dirname, f));
    write(`Integration suite in VS Code ${vscode.version} (${vscode.env.appHost}, ${vscode.env.appName}): ${files.join(', ')}`);
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', () => results.passes++);
      runner.on('pending', () => results.pending++);
      runner.on('fail', (test, err: unknown) => {
        results.failures++;
        results.failed.push({ title: test.fullTitle(), error: err instanceof Error ? err.message : String(err) });
      });
    });
  } catch (e) {
    results.crash = e instanceof Error ? (e.stack ?? e.message) : String(e);
    results.failures++;
    write(`The integration suite crashed: ${results.crash}`);
  } finally {
    delete globalThis.__waIntegrationReport;
    results.durationMs = Date.now() - started;
    // Write then rename, so the launcher never reads half a file.
    fs.writeFileSync(`${resultsFile}.tmp`, JSON.stringify(results, null, 2));
    fs.renameSync(`${resultsFile}.tmp`, resultsFile);
  }
  if (results.failures > 0) throw new Error(`${results.failures} integration test(s) failed.`);
}
