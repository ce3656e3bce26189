/**
 * "Copy as Code": one call written out for a person who runs it from a script. The first choice is
 * the command line of the `wallet-analytics` runner (src/runner/, the extension's own dist/cli.js):
 * the core does the call there, with its price gate, its single send, its reconciliation after a
 * lost answer and its download. The other languages (curl, Python, TypeScript, PowerShell) describe
 * the ONE request only: no loop, no function, no polling, no download, so no second money path is
 * written in another language (test/unit/house/oneLanguage.test.ts). A queued call's request is its
 * submit; it prints the requestId, and the comment hands the wait and the download to the runner's
 * `fetch`.
 * Each is a straight declaration of that request, with no branch, no check and no error handling
 * written in its language: what a person sees on an HTTP error is the tool's own (curl's
 * --fail-with-body, requests' raise_for_status, Invoke-RestMethod's exception, the status fetch
 * prints), and each snippet's comment says which.
 *
 * Why it is built this way:
 * - The request comes from the very functions the transport sends with (catalog encodeRequest,
 *   http callUrl/callHeaders/callBody), so a snippet cannot differ from what the extension sends.
 * - The key is never an argument here: the header value is a marker that each language writes as
 *   its environment variable WA_API_KEY (the runner reads the same variable). A copied snippet can
 *   be pasted anywhere without leaking.
 * - The key goes only to the base URL's origin, and no request that carries it follows a redirect
 *   (curl, requests and fetch pass custom headers on to the redirect's host), as in the transport.
 * - Every value is written as a literal of its language, quoted for that language: nothing a
 *   person typed can end a string early or be expanded ($, backticks, quotes, new lines).
 */
import { encodeRequest, shortTitle, validateInput, type Endpoint, type HttpMethod } from '../spec/catalog';
import { callBody, callHeaders, callUrl, checkUrl } from '../transport/http';
import { quote, type Quote, type QuoteContext } from '../money/pricing';
import { l10n } from '../l10n';

export type SnippetLanguage = 'runner' | 'curl' | 'python' | 'typescript' | 'powershell';

/** The languages, in the order offered, with the names a person picks from. */
export const SNIPPET_LANGUAGES: readonly { readonly id: SnippetLanguage; readonly label: string; readonly detail: string }[] = [
  { id: 'runner', label: 'Command line (wallet-analytics runner)', detail: 'The extension’s own code, run by Node 20: priced first, sent once, waited for and downloaded.' },
  { id: 'curl', label: 'curl (bash)', detail: 'The one request with curl; a queued call prints its requestId.' },
  { id: 'python', label: 'Python (requests)', detail: 'The one request with Python 3 and requests.' },
  { id: 'typescript', label: 'TypeScript (fetch, Node 20+)', detail: 'The one request with fetch as built into Node 20 and later.' },
  { id: 'powershell', label: 'PowerShell (Invoke-RestMethod)', detail: 'The one request with PowerShell 7, or Windows PowerShell 5.1.' },
];

/** The environment variable every snippet reads the key from. */
export const KEY_VARIABLE = 'WA_API_KEY';

/** Stands for the key in a header value; never a real key, and no language writes it as text. */
const KEY_MARK = '\u0000the key\u0000';

/** One header: its name, and its value or the key. */
type SnippetHeader = readonly [name: string, value: string | { readonly key: true }];

/** Everything a snippet says, derived from the same functions as the request the extension sends. */
export interface CallDescription {
  readonly endpoint: Endpoint;
  /** The inputs as checked by the catalog (defaults filled): what the runner's --input carries. */
  readonly input: Record<string, unknown>;
  readonly method: HttpMethod;
  /** The base URL with its path, no trailing slash: "https://api.example.com/v1". */
  readonly base: string;
  /** Scheme, host and port of the base URL: the only place the key is sent. */
  readonly origin: string;
  /** What follows `base`: the path with its parameters filled and the query string. */
  readonly target: string;
  readonly headers: readonly SnippetHeader[];
  /** The JSON body text, exactly as sent. */
  readonly body?: string;
  readonly price: Quote;
}

type Described = { readonly ok: true; readonly call: CallDescription } | { readonly ok: false; readonly errors: readonly string[] };

function headerList(h: Record<string, string>): SnippetHeader[] {
  return Object.entries(h).map(([k, v]) => [k, v === KEY_MARK ? { key: true } : v] as const);
}

/**
 * The call of `ep` with `rawInput` under `baseUrl`, checked with the catalog's rules first (a call
 * the extension would not send is not written out either). `ctx` is the price step's context, so
 * the comment shows the price the step showed.
 */
export function describeCall(ep: Endpoint, rawInput: unknown, baseUrl: string, ctx?: QuoteContext): Described {
  const v = validateInput(ep, rawInput);
  if (!v.ok) return { ok: false, errors: v.errors };
  const base = checkUrl(baseUrl, 'base URL');
  const wire = encodeRequest(ep, v.input);
  const full = callUrl(base, wire.path, wire.query).href;
  const root = callUrl(base, '/').href.replace(/\/$/u, '');
  if (!full.startsWith(`${root}/`)) throw new Error(l10n.t('The call {0} is not under the base URL.', wire.path));
  const body = wire.body === undefined ? undefined : callBody(wire.body);
  return {
    ok: true,
    call: {
      endpoint: ep,
      input: v.input,
      method: wire.method,
      base: root,
      origin: base.origin,
      target: full.slice(root.length),
      headers: headerList(callHeaders(KEY_MARK, body !== undefined)),
      body,
      price: quote(ep, v.input, ctx),
    },
  };
}

// ---- quoting, one function per language ----

/** bash: single quotes hold everything literally; a single quote is closed, escaped and reopened. */
export function bashQuote(s: string): string {
  return `'${s.replace(/'/gu, `'\\''`)}'`;
}

/**
 * Python and TypeScript: a double-quoted string literal. JSON's escapes are valid in both, and
 * JSON.stringify escapes quotes, backslashes and control characters; U+2028/2029 are escaped too
 * so no tool reads them as line ends.
 */
export function jsonQuote(s: string): string {
  return JSON.stringify(s).replace(/\u2028/gu, '\\u2028').replace(/\u2029/gu, '\\u2029');
}

/** PowerShell: single quotes are literal; a quote (PowerShell also reads ‘ ’ ‚ ‛ as one) is doubled. */
export function psQuote(s: string): string {
  return `'${s.replace(/['\u2018\u2019\u201A\u201B]/gu, (q) => q + q)}'`;
}

// ---- the comment every snippet starts with ----

/** Where the runner is: the file a snippet runs with node (the extension's own dist/cli.js). */
interface RunnerPlace {
  readonly file: string;
}

/** The runner's command line, up to its command: `node '<file>'`, quoted for a POSIX shell. */
function runnerCommand(runner: RunnerPlace): string {
  return `node ${bashQuote(runner.file)}`;
}

/** What a snippet's --max-credits says: the most the price can be (an exact price, or its bound). */
function ceilingOf(price: Quote): number {
  return price.exact ? price.credits : (price.atMost ?? price.credits);
}

/** The opening comment lines, without comment markers. */
function commentLines(d: CallDescription, runner: RunnerPlace, extra: readonly string[], lang: SnippetLanguage): string[] {
  const ep = d.endpoint;
  const price = d.price;
  const free = price.credits === 0 && price.exact;
  const lines = [
    `Wallet Analytics: ${shortTitle(ep)} (${ep.method} ${ep.path}), copied from VS Code.`,
    free ? 'Price: free. Running this spends no credits.' : `Price: ${price.text}. Running this spends credits from your balance.`,
  ];
  if (lang === 'runner') {
    lines.push(
      'The runner is the extension’s own code (its dist/cli.js, path below; Export Pipeline writes the same',
      'file beside a pipeline as wallet-analytics.cjs). It prints the price first and sends nothing above',
      '--max-credits, sends the call once, looks a lost answer up in the request history (free) instead of',
      'sending again, waits for a queued job and downloads its file into wallet-analytics-results/.',
      'Exit codes: 0 done, 1 failed, 2 bad input (nothing sent), 3 refused (nothing sent), 4 may have been charged.',
    );
    if (!price.exact && price.atMost === undefined) {
      lines.push('A query billed per match has no bound before it runs: the runner refuses it (exit 3) unless the same query was answered in this folder since the last hourly refresh.');
    }
  } else {
    lines.push('This is the one request only: it does not retry, wait, reconcile or download.');
    if (ep.family === 'queued') {
      lines.push(
        `A queued job: charged once, when this submit is accepted; it prints ${lang === 'curl' || lang === 'typescript' ? 'the answer, {"requestId": …}' : 'the requestId'}.`,
        'Sent again, it is a second job, charged again: if its answer is lost, look in the request history (free).',
        'To wait for the job and download its file (free), with the extension’s own code:',
        `  ${runnerCommand(runner)} fetch <requestId> --endpoint ${ep.id} --base-url ${bashQuote(d.base)}`,
      );
    }
  }
  lines.push(`The key is read from the environment variable ${KEY_VARIABLE} and is sent only to ${d.origin}.`, ...extra);
  return lines;
}

/** The comment lines of a snippet, each behind its language's comment mark. */
function commented(d: CallDescription, runner: RunnerPlace, lang: SnippetLanguage, mark: '#' | '//', extra: readonly string[]): string[] {
  return commentLines(d, runner, extra, lang).map((l) => `${mark} ${l}`);
}

// ---- the runner's command line ----

function runnerSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out = commented(d, runner, 'runner', '#', ['Needs Node 20 or later.']);
  const args = [`call ${d.endpoint.id}`, `--input ${bashQuote(JSON.stringify(d.input))}`, `--max-credits ${ceilingOf(d.price)}`, `--base-url ${bashQuote(d.base)}`];
  out.push(`${runnerCommand(runner)} ${args.join(' ')}`);
  return `${out.join('\n')}\n`;
}

// ---- curl (bash) ----

function curlHeaders(headers: readonly SnippetHeader[]): string {
  return headers.map(([k, v]) => (typeof v === 'string' ? `-H ${bashQuote(`${k}: ${v}`)}` : `-H "${k}: $${KEY_VARIABLE}"`)).join(' ');
}

function curlSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out: string[] = commented(d, runner, 'curl', '#', [
    'Needs curl 7.76 or later (--fail-with-body). On an HTTP error curl prints the service’s answer, which says why, and exits 22.',
    `Without ${KEY_VARIABLE} the key header is left out and the service answers 401.`,
  ]);
  // -w '\n' ends the answer with a line end, so the prompt starts on a line of its own.
  const send = [`curl -sS --fail-with-body -w '\\n' -X ${d.method} "$base"${bashQuote(d.target)}`, curlHeaders(d.headers)];
  if (d.body !== undefined) send.push('--data-binary "$body"');
  out.push(`base=${bashQuote(d.base)}`, ...(d.body !== undefined ? [`body=${bashQuote(d.body)}`] : []), send.join(' \\\n  '));
  return `${out.join('\n')}\n`;
}

// ---- Python (requests) ----

function pyHeaders(headers: readonly SnippetHeader[]): string {
  return `{${headers.map(([k, v]) => `${jsonQuote(k)}: ${typeof v === 'string' ? jsonQuote(v) : 'KEY'}`).join(', ')}}`;
}

function pythonSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out: string[] = commented(d, runner, 'python', '#', [
    'Needs Python 3 and requests (pip install requests).',
    'On an HTTP error raise_for_status stops it with requests’ HTTPError (the status and the URL; r.text holds the service’s answer).',
  ]);
  const args = [jsonQuote(d.method), `BASE + ${jsonQuote(d.target)}`, `headers=${pyHeaders(d.headers)}`];
  if (d.body !== undefined) args.push(`data=${jsonQuote(d.body)}.encode("utf-8")`);
  args.push('allow_redirects=False', `timeout=${d.endpoint.family === 'queued' || d.price.credits > 0 ? 110 : 30}`);
  out.push(
    'import os',
    '',
    'import requests',
    '',
    `KEY = os.environ[${jsonQuote(KEY_VARIABLE)}]  # Set ${KEY_VARIABLE} to your Wallet Analytics API key (unset, this stops with KeyError).`,
    `BASE = ${jsonQuote(d.base)}`,
    '',
    '# It carries the key, so it follows no redirect (requests would pass api_key on to another host).',
    `r = requests.request(${args.join(', ')})`,
    'r.raise_for_status()',
    d.endpoint.family === 'queued' ? 'print(r.json()["requestId"])' : 'print(r.text)',
  );
  return `${out.join('\n')}\n`;
}

// ---- TypeScript (fetch, Node 20+) ----

function tsHeaders(headers: readonly SnippetHeader[]): string {
  return `{ ${headers.map(([k, v]) => `${jsonQuote(k)}: ${typeof v === 'string' ? jsonQuote(v) : 'KEY'}`).join(', ')} }`;
}

function typescriptSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out: string[] = commented(d, runner, 'typescript', '//', [
    'Node 20 or later, as an ES module: save it as call.mts and run it with npx tsx call.mts.',
    'It prints the HTTP status, then the answer: a status other than 200 to 299 is an error, and the answer says why.',
    `Without ${KEY_VARIABLE} the key header is sent empty and the service answers 401.`,
  ]);
  const init = [`method: ${jsonQuote(d.method)}`, `headers: ${tsHeaders(d.headers)}`];
  if (d.body !== undefined) init.push(`body: ${jsonQuote(d.body)}`);
  // fetch would pass api_key on to a redirect's host: a redirect is an error.
  init.push('redirect: "error"');
  out.push(
    `const KEY = process.env.${KEY_VARIABLE} ?? "";`,
    `const BASE = ${jsonQuote(d.base)};`,
    '',
    `const res = await fetch(BASE + ${jsonQuote(d.target)}, { ${init.join(', ')} });`,
    'console.log("HTTP " + res.status);',
    'console.log(await res.text());',
    'export {};',
  );
  return `${out.join('\n')}\n`;
}

// ---- PowerShell (Invoke-RestMethod) ----

/** PowerShell takes Content-Type as -ContentType, not in -Headers. */
function psHeaders(headers: readonly SnippetHeader[]): string {
  const h = headers.filter(([k]) => k !== 'content-type');
  // "$env:…" in double quotes is the variable's text, "" when it is not set: the header is then sent empty, not refused by PowerShell.
  return `@{ ${h.map(([k, v]) => `${psQuote(k)} = ${typeof v === 'string' ? psQuote(v) : `"$env:${KEY_VARIABLE}"`}`).join('; ')} }`;
}

function powershellSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out: string[] = commented(d, runner, 'powershell', '#', [
    'PowerShell 7, or Windows PowerShell 5.1.',
    'On an HTTP error Invoke-RestMethod stops it with the status and the service’s answer.',
    `Without ${KEY_VARIABLE} the key header is sent empty and the service answers 401.`,
  ]);
  out.push("$ErrorActionPreference = 'Stop'", `$base = ${psQuote(d.base)}`);
  const args = [`-Method ${d.method === 'POST' ? 'Post' : 'Get'}`, `-Uri ($base + ${psQuote(d.target)})`, `-Headers ${psHeaders(d.headers)}`, '-MaximumRedirection 0'];
  if (d.body !== undefined) {
    out.push(`$body = ${psQuote(d.body)}`);
    args.push("-ContentType 'application/json'", '-Body ([System.Text.Encoding]::UTF8.GetBytes($body))');
  }
  out.push(d.endpoint.family === 'queued' ? `(Invoke-RestMethod ${args.join(' ')}).requestId` : `Invoke-RestMethod ${args.join(' ')} | ConvertTo-Json -Depth 100`);
  return `${out.join('\n')}\n`;
}

/** The snippet of a described call in one language; `runner` is where the runner is (the extension's dist/cli.js). */
export function snippet(language: SnippetLanguage, d: CallDescription, runner: RunnerPlace): string {
  switch (language) {
    case 'runner':
      return runnerSnippet(d, runner);
    case 'curl':
      return curlSnippet(d, runner);
    case 'python':
      return pythonSnippet(d, runner);
    case 'typescript':
      return typescriptSnippet(d, runner);
    case 'powershell':
      return powershellSnippet(d, runner);
  }
}

/** The label of a language, for messages. */
export function languageLabel(language: SnippetLanguage): string {
  return SNIPPET_LANGUAGES.find((l) => l.id === language)?.label ?? language;
}

export function isSnippetLanguage(v: unknown): v is SnippetLanguage {
  return typeof v === 'string' && SNIPPET_LANGUAGES.some((l) => l.id === v);
}
