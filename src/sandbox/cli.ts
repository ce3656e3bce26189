/**
 * Runs the sandbox from a terminal:
 *   npm run sandbox -- --port 8787 --seed 42 --job-delay 1000-8000 --wallets 20000
 * Prints the base URL, the demo key and a curl line to paste; stops on Ctrl+C.
 */
import { HELP, parseArgs } from './cliArgs';
import { startSandbox } from './index';
import { errorText } from '../core/errors';

async function main(): Promise<void> {
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${errorText(e)}\n`);
    process.exitCode = 2;
    return;
  }
  if (opts.help) {
    process.stdout.write(HELP);
    return;
  }
  const started = performance.now();
  const sb = await startSandbox(opts);
  const lines = [
    `Wallet Analytics sandbox listening on ${sb.baseUrl} (${Math.round(performance.now() - started)} ms to start)`,
    ...(sb.fileBaseUrl !== sb.baseUrl ? [`Result files served from ${sb.fileBaseUrl}`] : []),
    `Demo API key: ${sb.demoKey}`,
    `Try: curl -H 'api_key: ${sb.demoKey}' ${sb.baseUrl}/credits`,
    'Synthetic data only. Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    void sb.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// An entry point only (tests import ./cliArgs, never this file).
main().catch((e: unknown) => {
  process.stderr.write(`The sandbox could not start: ${errorText(e)}\n`);
  process.exitCode = 1;
});
