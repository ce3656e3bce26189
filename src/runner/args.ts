/**
 * The runner's command line: its commands, their options and their help, read before anything is
 * sent. A bad argument is a clear message and exit 2 (src/runner/exitCodes.ts); nothing here reads
 * the network or a file. `call` and `fetch` read theirs in callArgs.ts.
 */
import { parseCallArgs, type CallCommand } from './callArgs';

const USAGE = `wallet-analytics: runs a Wallet Analytics pipeline, watch or single call without the editor, with the editor's own code, or serves its tools to AI agents over MCP.

Usage:
  wallet-analytics run <file.wapipe.json> --max-credits N [--refresh] [--junit FILE] [--base-url URL] [--charge-again]
  wallet-analytics watch <file.wapipe.json> --max-credits N [--notify-url URL] [--base-url URL] [--charge-again]
  wallet-analytics mcp [--max-credits N] [--max-credits-per-call N] [--base-url URL] [--out DIR]
  wallet-analytics call <endpoint-id> --input '<json>' --max-credits N [--out DIR] [--base-url URL] [--charge-again]
  wallet-analytics fetch <requestId> [--endpoint ID] [--out DIR] [--base-url URL]
  wallet-analytics <command> --help

The key is read from WA_API_KEY only, and sent only to the base URL's origin.
Exit codes: 0 done, 1 failed, 2 bad argument or file (nothing sent), 3 refused by the plan or a budget (nothing sent for it), 4 may have been charged.`;

const RUN_HELP = `wallet-analytics run <file.wapipe.json> --max-credits N [options]

Prints the pipeline's plan with its total, refuses before anything is sent when the total is above N,
then runs each step through the editor's own call flow, printing each request and the last line
"Charged: …". Results go to <name>.results/ beside the pipeline, as the editor keeps them, and a
step whose result is there is reused (free) unless --refresh.

  --max-credits N   the most this run may charge (the plan's total must be within it); each line is approved up to its plan line
  --refresh         send every call again instead of reusing results on disk
  --junit FILE      also write a JUnit XML report (one test case a step)
  --base-url URL    the service (else WA_BASE_URL); https://, or http:// for loopback only
  --charge-again    send a call that may already have been charged by an earlier run (it may charge again)

Environment: WA_API_KEY (the key; never on the command line), WA_BASE_URL (when no --base-url),
WA_ACK_TIMEOUT_S (the server's acknowledgement window, default 100), WA_POLL_INTERVAL_S (how often jobs are read, default 5).`;

const WATCH_HELP = `wallet-analytics watch <file.wapipe.json> --max-credits N [options]

One run of a watch exported from the editor: every call of the pipeline is sent again (results are
never reused), and its last step's result is compared with the previous run's. The change summary
is printed, and with --notify-url posted to a webhook (Slack, Discord, Telegram's Bot API
sendMessage with ?chat_id=…, or any URL as JSON {"text": …}). The key is never sent to the webhook.

  --max-credits N   the most a run may charge (the price per run approved when the watch was created)
  --notify-url URL  post the change summary there (https://, or http:// for loopback)
  --base-url URL    the service, as for run
  --charge-again    as for run`;

const MCP_HELP = `wallet-analytics mcp [--max-credits N] [--max-credits-per-call N] [--base-url URL] [--out DIR]

An MCP server on stdin/stdout for AI agents outside the editor (Claude Desktop, Claude Code, Cursor,
VS Code's mcp.json), with the same tools as the extension's. Each paid call is priced first; within
--max-credits (this session's allowance) it runs, beyond it the person is asked through the client
(MCP elicitation, decline the default), and a client that cannot ask refuses it with its price.

  --max-credits N   what this session may spend without asking (default 0: every paid call is asked)
  --max-credits-per-call N
                    no call above it is sent, asked or not (default 1,000,000, the editor's default)
  --base-url URL    the service (else WA_BASE_URL); https://, or http:// for loopback only
  --out DIR         where results are written (default: ./wallet-analytics-results); the server's state
                    (jobs followed, the ledger) is kept there too

Environment: WA_API_KEY (the key; never on the command line), WA_BASE_URL, WA_ACK_TIMEOUT_S,
WA_POLL_INTERVAL_S, as for run. Nothing but the protocol is written to stdout; logs go to stderr.`;

export type Command =
  | CallCommand
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'bad'; readonly message: string }
  | {
      readonly kind: 'run' | 'watch';
      readonly file: string;
      readonly maxCredits: number;
      readonly refresh: boolean;
      readonly junit?: string;
      readonly baseUrl?: string;
      readonly notifyUrl?: string;
      readonly chargeAgain: boolean;
    }
  | { readonly kind: 'mcp'; readonly maxCredits: number; readonly ceiling: number; readonly baseUrl?: string; readonly out?: string };

/** The MCP session's per-call ceiling when none is given: the editor's walletAnalytics.maxCreditsPerCall default. */
const DEFAULT_CEILING = 1_000_000;
const wholeCredits = (v: string): boolean => /^\d+$/u.test(v) && Number.isSafeInteger(Number(v));

const VALUE_OPTIONS: Readonly<Record<'run' | 'watch' | 'mcp', readonly string[]>> = {
  run: ['--max-credits', '--junit', '--base-url'],
  watch: ['--max-credits', '--notify-url', '--base-url'],
  mcp: ['--max-credits', '--max-credits-per-call', '--base-url', '--out'],
};
const FLAG_OPTIONS: Readonly<Record<'run' | 'watch' | 'mcp', readonly string[]>> = {
  run: ['--refresh', '--charge-again'],
  watch: ['--charge-again'],
  mcp: [],
};
const HELP = { run: RUN_HELP, watch: WATCH_HELP, mcp: MCP_HELP } as const;

/** Reads the command line (without `node` and the script). */
export function parseArgs(argv: readonly string[]): Command {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') return { kind: 'help', text: USAGE };
  if (cmd === 'call' || cmd === 'fetch') return parseCallArgs(cmd, rest);
  if (cmd !== 'run' && cmd !== 'watch' && cmd !== 'mcp') return { kind: 'bad', message: `Unknown command “${cmd}”. ${USAGE}` };
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', text: HELP[cmd] };
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] ?? '';
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (VALUE_OPTIONS[cmd].includes(name)) {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') return { kind: 'bad', message: `${name} needs a value. See: wallet-analytics ${cmd} --help` };
      if (values.has(name)) return { kind: 'bad', message: `${name} is given twice.` };
      values.set(name, v);
    } else if (FLAG_OPTIONS[cmd].includes(name) && inline === undefined) {
      flags.add(name);
    } else if (a.startsWith('-')) {
      return { kind: 'bad', message: `Unknown option “${a}” for ${cmd}. See: wallet-analytics ${cmd} --help` };
    } else {
      files.push(a);
    }
  }
  const max = values.get('--max-credits');
  if (max !== undefined && !wholeCredits(max)) return { kind: 'bad', message: `--max-credits must be a whole number of credits, not “${max}”.` };
  const baseUrl = values.get('--base-url');
  if (cmd === 'mcp') {
    if (files.length > 0) return { kind: 'bad', message: `mcp takes no file; “${files[0] ?? ''}” was given. See: wallet-analytics mcp --help` };
    const out = values.get('--out');
    const ceiling = values.get('--max-credits-per-call');
    if (ceiling !== undefined && !wholeCredits(ceiling)) return { kind: 'bad', message: `--max-credits-per-call must be a whole number of credits, not “${ceiling}”.` };
    return { kind: 'mcp', maxCredits: Number(max ?? 0), ceiling: ceiling === undefined ? DEFAULT_CEILING : Number(ceiling), ...(baseUrl !== undefined ? { baseUrl } : {}), ...(out !== undefined ? { out } : {}) };
  }
  if (files.length !== 1) return { kind: 'bad', message: `${cmd} takes one pipeline file (*.wapipe.json); ${files.length === 0 ? 'none was given' : `${files.length} were given`}. See: wallet-analytics ${cmd} --help` };
  if (max === undefined) return { kind: 'bad', message: `${cmd} needs --max-credits N: the most this run may charge, approved before anything is sent.` };
  const junit = values.get('--junit');
  const notifyUrl = values.get('--notify-url');
  return {
    kind: cmd,
    file: files[0] ?? '',
    maxCredits: Number(max),
    refresh: cmd === 'watch' || flags.has('--refresh'),
    chargeAgain: flags.has('--charge-again'),
    ...(junit !== undefined ? { junit } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(notifyUrl !== undefined ? { notifyUrl } : {}),
  };
}
