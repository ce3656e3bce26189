/**
 * "Copy as Code": one call written out for a person who runs it from a script. The first choice is
 * the command line of the `wallet-analytics` runner (src/runner/, the extension's own dist/cli.js):
 * the core does the call there, with its price gate, its single send, its reconciliation after a
 * lost answer and its download. A call that may charge is never sent by another language: the
 * Python, TypeScript and PowerShell snippets of a paid endpoint run that same command line (its
 * arguments from runnerArgs, each written as a literal of the language), and curl's bash would be
 * that very line, so a paid call's curl is the runner's line. Only a free read (the balance, the
 * request history, a job's record, the columns) is written as the ONE request in curl, Python,
 * TypeScript or PowerShell: no loop, no function, no polling, no download, so no second money path
 * is written in another language (test/unit/house/oneLanguage.test.ts).
 * Each is a straight declaration, with no branch, no check and no error handling written in its
 * language: what a person sees on an error is the tool's own (the runner's exit code through
 * check=True, process.exitCode and $LASTEXITCODE; curl's --fail-with-body, requests'
 * raise_for_status, Invoke-RestMethod's exception, the status fetch prints), and each snippet's
 * comment says which.
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
import { isPaid, quote, type Quote, type QuoteContext } from '../money/pricing';
import { l10n } from '../l10n';

export type SnippetLanguage = 'runner' | 'curl' | 'python' | 'typescript' | 'powershell';

/** Every language, in the order offered. */
export const SNIPPET_LANGUAGES: readonly { readonly id: SnippetLanguage }[] = [{ id: 'runner' }, { id: 'curl' }, { id: 'python' }, { id: 'typescript' }, { id: 'powershell' }];

/**
 * Whether a call of `ep` goes through the runner in every language: any endpoint whose price rule
 * is not free, so its ceiling, its single send and its history look-up are the core's, never a
 * request another language sends.
 */
function throughRunner(ep: Endpoint): boolean {
  return isPaid(ep);
}

/**
 * The language a snippet is written in: a paid call's curl would be the runner's bash line, word for
 * word, so it is that line, named as the runner's (a caller or the last choice may still ask for curl).
 */
export function languageUsed(language: SnippetLanguage, ep: Endpoint): SnippetLanguage {
  return language === 'curl' && throughRunner(ep) ? 'runner' : language;
}

/**
 * The languages offered for a call of `ep`, with the names a person picks from. A paid call's
 * snippets each run the runner (curl is not offered: its bash is the first choice's line).
 */
export function snippetLanguages(ep: Endpoint): { readonly id: SnippetLanguage; readonly label: string; readonly detail: string }[] {
  const runner = { id: 'runner' as const, label: l10n.t('Command line (wallet-analytics runner)'), detail: l10n.t('The extension’s own code, run by Node 20: priced first, sent once, waited for and downloaded.') };
  if (throughRunner(ep)) {
    return [
      runner,
      { id: 'python', label: l10n.t('Python: runs the priced call through the runner'), detail: l10n.t('subprocess.run of the runner’s command line, check=True: priced first, refused above the price, sent once, waited for and downloaded.') },
      { id: 'typescript', label: l10n.t('TypeScript: runs the priced call through the runner'), detail: l10n.t('spawnSync of the runner’s command line (Node 20+); the script’s exit code is the runner’s.') },
      { id: 'powershell', label: l10n.t('PowerShell: runs the priced call through the runner'), detail: l10n.t('& node with the runner’s command line (PowerShell 7.3+); $LASTEXITCODE is the runner’s.') },
    ];
  }
  return [
    runner,
    { id: 'curl', label: l10n.t('curl (bash)'), detail: l10n.t('The one request with curl (free: nothing is charged).') },
    { id: 'python', label: l10n.t('Python (requests)'), detail: l10n.t('The one request with Python 3 and requests (free: nothing is charged).') },
    { id: 'typescript', label: l10n.t('TypeScript (fetch, Node 20+)'), detail: l10n.t('The one request with fetch as built into Node 20 and later (free: nothing is charged).') },
    { id: 'powershell', label: l10n.t('PowerShell (Invoke-RestMethod)'), detail: l10n.t('The one request with PowerShell 7, or Windows PowerShell 5.1 (free: nothing is charged).') },
  ];
}

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

/** What a snippet's --max-credits says: the most the price can be (an exact price, or its bound). */
function ceilingOf(price: Quote): number {
  return price.exact ? price.credits : (price.atMost ?? price.credits);
}

/**
 * The runner's arguments for this call, after its file: `call <id> --input <json> --max-credits
 * <price> --base-url <base>`. The one list every language writes, each element as a literal of its
 * own (bash words, Python and TypeScript strings, PowerShell's), so no language has a quoting rule
 * of its own for the runner's line.
 */
function runnerArgs(d: CallDescription): string[] {
  return ['call', d.endpoint.id, '--input', JSON.stringify(d.input), '--max-credits', String(ceilingOf(d.price)), '--base-url', d.base];
}

/** A bash word: a plain word (an id, an option, a number) as it is, anything else single-quoted. */
function shellWord(s: string): string {
  return /^[\w.-]+$/u.test(s) ? s : bashQuote(s);
}

/** The opening comment lines, without comment markers. */
function commentLines(d: CallDescription, extra: readonly string[], lang: SnippetLanguage): string[] {
  const ep = d.endpoint;
  const price = d.price;
  const free = price.credits === 0 && price.exact;
  const lines = [
    `Wallet Analytics: ${shortTitle(ep)} (${ep.method} ${ep.path}), copied from VS Code.`,
    free ? 'Price: free. Running this spends no credits.' : `Price: ${price.text}. Running this spends credits from your balance.`,
  ];
  if (lang === 'runner' || throughRunner(ep)) {
    lines.push(
      lang === 'runner'
        ? 'The runner is the extension’s own code (its dist/cli.js, path below; Export Pipeline writes the same'
        : 'This runs the runner, the extension’s own code (its dist/cli.js, path below; Export Pipeline writes the same',
      'file beside a pipeline as wallet-analytics.cjs). It prints the price first and sends nothing above',
      '--max-credits, sends the call once, looks a lost answer up in the request history (free) instead of',
      'sending again, waits for a queued job and downloads its file into wallet-analytics-results/.',
      'Exit codes: 0 done, 1 failed, 2 bad input (nothing sent), 3 refused (nothing sent), 4 may have been charged.',
    );
    if (!price.exact && price.atMost === undefined) {
      lines.push('A query billed per match has no bound before it runs: the runner refuses it (exit 3) unless the same query was answered in this folder since the last hourly refresh.');
    }
    lines.push(`The runner reads the key from the environment variable ${KEY_VARIABLE} and sends it only to ${d.origin}.`, ...extra);
    return lines;
  }
  lines.push('This is the one request only: it does not retry, wait, reconcile or download.');
  lines.push(`The key is read from the environment variable ${KEY_VARIABLE} and is sent only to ${d.origin}.`, ...extra);
  return lines;
}

/** The comment lines of a snippet, each behind its language's comment mark. */
function commented(d: CallDescription, lang: SnippetLanguage, mark: '#' | '//', extra: readonly string[]): string[] {
  return commentLines(d, extra, lang).map((l) => `${mark} ${l}`);
}

// ---- the runner's command line, and a paid call in each language: that line run ----

function runnerSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out = commented(d, 'runner', '#', ['Needs Node 20 or later.']);
  out.push(['node', bashQuote(runner.file), ...runnerArgs(d).map(shellWord)].join(' '));
  return `${out.join('\n')}\n`;
}

function pythonRunnerSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out = commented(d, 'python', '#', [
    'Needs Python 3 and Node 20 or later. The runner prints its own lines; on a refusal or a failure check=True stops this with',
    'subprocess.CalledProcessError, whose returncode is the runner’s exit code.',
  ]);
  out.push('import subprocess', '', `subprocess.run([${['node', runner.file, ...runnerArgs(d)].map(jsonQuote).join(', ')}], check=True)`);
  return `${out.join('\n')}\n`;
}

function typescriptRunnerSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out = commented(d, 'typescript', '//', [
    'Node 20 or later, as an ES module: save it as call.mts and run it with npx tsx call.mts (the runner runs on the same node).',
    'The runner prints its own lines; this script’s exit code is the runner’s (1 when node could not start it).',
  ]);
  out.push(
    'import { spawnSync } from "node:child_process";',
    '',
    `const r = spawnSync(process.execPath, [${[runner.file, ...runnerArgs(d)].map(jsonQuote).join(', ')}], { stdio: "inherit" });`,
    'process.exitCode = r.status ?? 1;',
  );
  return `${out.join('\n')}\n`;
}

function powershellRunnerSnippet(d: CallDescription, runner: RunnerPlace): string {
  const out = commented(d, 'powershell', '#', [
    'PowerShell 7.3 or later, and Node 20 or later: Windows PowerShell 5.1 drops the double quotes of --input’s JSON',
    'from a native command’s arguments (the runner then stops with exit 2, nothing sent).',
    'The runner prints its own lines; this script exits with the runner’s exit code ($LASTEXITCODE).',
  ]);
  out.push(
    "$PSNativeCommandArgumentPassing = 'Standard'",
    `& node ${[runner.file, ...runnerArgs(d)].map(psQuote).join(' ')}`,
    'exit $LASTEXITCODE',
  );
  return `${out.join('\n')}\n`;
}

// ---- a free read, the one request: curl (bash) ----

function curlHeaders(headers: readonly SnippetHeader[]): string {
  return headers.map(([k, v]) => (typeof v === 'string' ? `-H ${bashQuote(`${k}: ${v}`)}` : `-H "${k}: $${KEY_VARIABLE}"`)).join(' ');
}

function curlSnippet(d: CallDescription): string {
  const out: string[] = commented(d, 'curl', '#', [
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

function pythonSnippet(d: CallDescription): string {
  const out: string[] = commented(d, 'python', '#', [
    'Needs Python 3 and requests (pip install requests).',
    'On an HTTP error raise_for_status stops it with requests’ HTTPError (the status and the URL; r.text holds the service’s answer).',
  ]);
  const args = [jsonQuote(d.method), `BASE + ${jsonQuote(d.target)}`, `headers=${pyHeaders(d.headers)}`];
  if (d.body !== undefined) args.push(`data=${jsonQuote(d.body)}.encode("utf-8")`);
  args.push('allow_redirects=False', 'timeout=30');
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
    'print(r.text)',
  );
  return `${out.join('\n')}\n`;
}

// ---- TypeScript (fetch, Node 20+) ----

function tsHeaders(headers: readonly SnippetHeader[]): string {
  return `{ ${headers.map(([k, v]) => `${jsonQuote(k)}: ${typeof v === 'string' ? jsonQuote(v) : 'KEY'}`).join(', ')} }`;
}

function typescriptSnippet(d: CallDescription): string {
  const out: string[] = commented(d, 'typescript', '//', [
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

function powershellSnippet(d: CallDescription): string {
  const out: string[] = commented(d, 'powershell', '#', [
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
  out.push(`Invoke-RestMethod ${args.join(' ')} | ConvertTo-Json -Depth 100`);
  return `${out.join('\n')}\n`;
}

/**
 * The snippet of a described call in one language; `runner` is where the runner is (the extension's
 * dist/cli.js). A paid call runs the runner in every language; a free read is the one request.
 */
export function snippet(language: SnippetLanguage, d: CallDescription, runner: RunnerPlace): string {
  const paid = throughRunner(d.endpoint);
  switch (languageUsed(language, d.endpoint)) {
    case 'runner':
      return runnerSnippet(d, runner);
    case 'curl':
      return curlSnippet(d);
    case 'python':
      return paid ? pythonRunnerSnippet(d, runner) : pythonSnippet(d);
    case 'typescript':
      return paid ? typescriptRunnerSnippet(d, runner) : typescriptSnippet(d);
    case 'powershell':
      return paid ? powershellRunnerSnippet(d, runner) : powershellSnippet(d);
  }
}

/** The label of a language as offered for a call of `ep`, for messages. */
export function languageLabel(language: SnippetLanguage, ep: Endpoint): string {
  const used = languageUsed(language, ep);
  return snippetLanguages(ep).find((l) => l.id === used)?.label ?? used;
}

export function isSnippetLanguage(v: unknown): v is SnippetLanguage {
  return typeof v === 'string' && SNIPPET_LANGUAGES.some((l) => l.id === v);
}
