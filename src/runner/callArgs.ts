/**
 * The command lines of `wallet-analytics call` and `wallet-analytics fetch`: one call, and the wait
 * for a job already submitted. They are what Copy as Code hands a person (src/core/codegen/snippets.ts)
 * instead of a client written again in another language, so their options are few and read before
 * anything is sent: a bad one is a clear message and exit 2 (src/runner/exitCodes.ts).
 */

const CALL_HELP = `wallet-analytics call <endpoint-id> --input '<json>' --max-credits N [options]

One call with the editor's own code: its inputs checked by the catalog's rules (a bad field is named
with its rule, and nothing is sent), its exact price printed first, refused (exit 3) when above N,
then sent once. A queued job is waited for and its file downloaded; an answer that was lost is looked
up in the request history (free) and never sent again; a direct answer is saved as a .json file.
A free read (e.g. credits, requests) prints its answer alone on stdout, as JSON, and these lines on
stderr; it keeps a file of its answer only when --out is given.

  --input JSON      the call's inputs as one JSON object (as the extension's "Copy as Code" writes them); default {}
  --max-credits N   the most this call may charge; a price above N (or with no bound) sends nothing
  --out DIR         where the result and the runner's state go (default: wallet-analytics-results;
                    a free read with no --out keeps nothing)
  --base-url URL    the service (else WA_BASE_URL); https://, or http:// for loopback only
  --charge-again    send a call that may already have been charged by an earlier run (it may charge again)

Environment: WA_API_KEY (the key; never on the command line), WA_BASE_URL (when no --base-url).`;

const FETCH_HELP = `wallet-analytics fetch <requestId> [options]

Waits for a queued job already submitted (by a snippet, the editor or another script) and downloads
its file once, as the editor does. Free: it only reads GET /request/{requestId} and the file.

  --endpoint ID     the endpoint it was submitted to (names the file); else the request record's
  --out DIR         where the file goes (default: wallet-analytics-results)
  --base-url URL    the service (else WA_BASE_URL); https://, or http:// for loopback only

Environment: WA_API_KEY, WA_BASE_URL, as for call.`;

/** Where a call's result goes when --out is not given: a folder of its own, beside nothing else. */
const DEFAULT_OUT = 'wallet-analytics-results';

export type CallCommand =
  | {
      readonly kind: 'call';
      readonly endpointId: string;
      /** The --input text, parsed later (its message names the endpoint). */
      readonly input: string;
      readonly maxCredits: number;
      readonly out: string;
      /** Whether --out was given: a free read keeps its answer's file only then (a schedule would pile them up). */
      readonly outGiven: boolean;
      readonly baseUrl?: string;
      readonly chargeAgain: boolean;
    }
  | { readonly kind: 'fetch'; readonly requestId: string; readonly endpointId?: string; readonly out: string; readonly baseUrl?: string };

type Parsed = CallCommand | { readonly kind: 'help'; readonly text: string } | { readonly kind: 'bad'; readonly message: string };

const VALUES = { call: ['--input', '--max-credits', '--out', '--base-url'], fetch: ['--endpoint', '--out', '--base-url'] } as const;
const FLAGS = { call: ['--charge-again'], fetch: [] as string[] } as const;

/** Reads `call …` or `fetch …` (the words after the command). */
export function parseCallArgs(cmd: 'call' | 'fetch', rest: readonly string[]): Parsed {
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', text: cmd === 'call' ? CALL_HELP : FETCH_HELP };
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] ?? '';
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const [name, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if ((VALUES[cmd] as readonly string[]).includes(name)) {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') return { kind: 'bad', message: `${name} needs a value. See: wallet-analytics ${cmd} --help` };
      if (values.has(name)) return { kind: 'bad', message: `${name} is given twice.` };
      values.set(name, v);
    } else if ((FLAGS[cmd] as readonly string[]).includes(name) && inline === undefined) {
      flags.add(name);
    } else if (a.startsWith('-')) {
      return { kind: 'bad', message: `Unknown option “${a}” for ${cmd}. See: wallet-analytics ${cmd} --help` };
    } else {
      words.push(a);
    }
  }
  const what = cmd === 'call' ? 'one endpoint id (e.g. trending)' : 'one request id';
  if (words.length !== 1) return { kind: 'bad', message: `${cmd} takes ${what}; ${words.length === 0 ? 'none was given' : `${words.length} were given`}. See: wallet-analytics ${cmd} --help` };
  const word = words[0] ?? '';
  const out = values.get('--out') ?? DEFAULT_OUT;
  const baseUrl = values.get('--base-url');
  const common = { out, ...(baseUrl !== undefined ? { baseUrl } : {}) };
  if (cmd === 'fetch') {
    const endpointId = values.get('--endpoint');
    return { kind: 'fetch', requestId: word, ...common, ...(endpointId !== undefined ? { endpointId } : {}) };
  }
  const max = values.get('--max-credits');
  if (max === undefined) return { kind: 'bad', message: 'call needs --max-credits N: the most this call may charge, approved before anything is sent (0 for a free call).' };
  if (!/^\d+$/u.test(max) || !Number.isSafeInteger(Number(max))) return { kind: 'bad', message: `--max-credits must be a whole number of credits, not “${max}”.` };
  return { kind: 'call', endpointId: word, input: values.get('--input') ?? '{}', maxCredits: Number(max), chargeAgain: flags.has('--charge-again'), outGiven: values.has('--out'), ...common };
}
