/**
 * The `wallet-analytics` command (issue 32), bundled by esbuild.mjs into one file, dist/cli.js,
 * with no dependency beyond Node 20. The same file is the table worker a local step or a watch's
 * comparison runs in (the worker is started by file: here, this one), so the runner stays one file.
 * This is the entry only: arguments (args.ts, callArgs.ts), the run (runCommand.ts, watchCommand.ts,
 * callCommand.ts for one call), the host
 * (host.ts) and the exit codes (exitCodes.ts) are their own files.
 */
import { basename, dirname, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { errorText } from '../core/errors';
import { replaceInside } from '../core/files/writeInside';
import { ACK_TIMEOUT_MS } from '../core/transport/httpFailures';
import { parseArgs } from './args';
import { EXIT, type ExitCode } from './exitCodes';
import { junitXml } from './junit';
import { mcpCommand } from './mcpCommand';
import { BadInput, runCommand, type RunEnv } from './runCommand';
import { callCommand } from './callCommand';
import { watchCommand } from './watchCommand';

async function main(argv: readonly string[]): Promise<ExitCode> {
  const cmd = parseArgs(argv);
  if (cmd.kind === 'help') {
    process.stdout.write(`${cmd.text}\n`);
    return EXIT.done;
  }
  if (cmd.kind === 'bad') {
    process.stderr.write(`${cmd.message}\n`);
    return EXIT.badInput;
  }
  const seconds = (name: string, fallbackMs: number): number => {
    const n = Number(process.env[name]);
    return Number.isFinite(n) && n > 0 ? n * 1000 : fallbackMs;
  };
  const env: RunEnv = {
    key: process.env.WA_API_KEY,
    baseUrl: process.env.WA_BASE_URL,
    ackTimeoutMs: seconds('WA_ACK_TIMEOUT_S', ACK_TIMEOUT_MS),
    pollIntervalMs: seconds('WA_POLL_INTERVAL_S', 5_000),
    workerFile: __filename,
  };
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  if (cmd.kind === 'call' || cmd.kind === 'fetch') return callCommand(cmd, env, print, (line) => void process.stderr.write(`${line}\n`));
  try {
    // The MCP server's stdout is the protocol's: it prints nothing there, and has no report.
    if (cmd.kind === 'mcp') return await mcpCommand(cmd, env);
    const report = cmd.kind === 'run' ? await runCommand(cmd, env, print) : await watchCommand(cmd, env, print);
    if (cmd.junit !== undefined) {
      try {
        // Through the one owner of writing: never through a link planted at the report's path.
        const at = resolve(cmd.junit);
        await replaceInside(dirname(at), basename(at), junitXml(cmd.file, report.steps, report.charged, report.lastLine));
      } catch (e) {
        process.stderr.write(`The JUnit report was not written to ${cmd.junit}: ${errorText(e)}\n`);
      }
    }
    print(report.lastLine);
    return report.code;
  } catch (e) {
    if (e instanceof BadInput) {
      process.stderr.write(`${e.message}\n`);
      return EXIT.badInput;
    }
    // Anything else is a failure the run did not foresee: what was charged is in the state file's ledger.
    process.stderr.write(`Failed: ${errorText(e)}\n`);
    if (cmd.kind !== 'mcp') print('Failed before the run could say what it charged: see the request history (free).');
    return EXIT.failed;
  }
}

if (isMainThread) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    // Polling timers and a spare table worker are not waited for: the run is over.
    process.stdout.write('', () => process.exit(code));
  });
} else {
  // Started as the table worker (core/table/remoteTable.ts starts it by this file).
  void import('../core/table/tableWorker');
}
