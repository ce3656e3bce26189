/**
 * `wallet-analytics mcp` (issue 33 part 3): reads and checks what the server needs before it
 * listens (the key from WA_API_KEY only; the base URL from --base-url or WA_BASE_URL, https:// or
 * loopback http:// by the core's own check), builds the headless host over the --out folder, and
 * serves until the client goes away. What the session may spend without asking is --max-credits
 * (default 0); the per-call ceiling is --max-credits-per-call (default the editor's, 1,000,000).
 */
import { resolve } from 'node:path';
import { version } from '../../package.json';
import { errorText } from '../core/errors';
import { fmtCredits, thousands } from '../core/numberText';
import { checkUrl } from '../core/transport/http';
import type { Command } from './args';
import { EXIT, type ExitCode } from './exitCodes';
import { RunnerHost } from './host';
import { SessionAllowance } from './mcpPaid';
import { serveMcp } from './mcpServer';
import { BadInput, type RunEnv } from './runCommand';

/** Where results go when --out is not given: beside where the server was started. */
const DEFAULT_OUT = 'wallet-analytics-results';

/** Runs the MCP server on stdio; resolves when the client closes it. Log lines go to stderr: stdout is the protocol's. */
export async function mcpCommand(cmd: Extract<Command, { kind: 'mcp' }>, env: RunEnv): Promise<ExitCode> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const key = env.key?.trim();
  if (!key) throw new BadInput('WA_API_KEY is not set: the key is read from that environment variable only (never from a file or an argument).');
  const baseUrl = cmd.baseUrl ?? env.baseUrl;
  if (!baseUrl) throw new BadInput('No base URL: give --base-url URL, or set WA_BASE_URL.');
  let origin: string;
  try {
    origin = checkUrl(baseUrl, 'base URL').origin;
  } catch (e) {
    throw new BadInput(errorText(e));
  }
  const out = resolve(cmd.out ?? DEFAULT_OUT);
  // The results folder holds the calls' files and the state (jobs followed, the ledger, unsettled calls).
  const host = new RunnerHost({ baseUrl, key, resultsDir: out, callsDir: out, maxCreditsPerCall: cmd.ceiling, chargeAgain: 'never', ackTimeoutMs: env.ackTimeoutMs, pollIntervalMs: env.pollIntervalMs, print: log });
  log(`wallet-analytics mcp: ${origin}, results in ${out}, allowance ${fmtCredits(cmd.maxCredits)} this session, ceiling ${thousands(cmd.ceiling)} per call.`);
  try {
    await serveMcp({
      host, origin, out, ceiling: cmd.ceiling, workerFile: env.workerFile,
      allowance: new SessionAllowance(cmd.maxCredits),
      openHint: (file) => `The person can open it in VS Code with “Wallet Analytics: Open in Table”: ${file}`,
    }, { baseUrl, env, log }, key, version);
    return EXIT.done;
  } finally {
    await host.close();
  }
}
