/**
 * "Copy as Code": one call written out for a person who runs it from a script. Every choice runs the
 * `wallet-analytics` runner (src/runner/, the extension's own dist/cli.js): the core does the call
 * there, with its price gate, its single send, its reconciliation after a lost answer and its
 * download. No call, paid or free, is sent by another language: the first choice is the runner's
 * command line itself, and the Python, TypeScript and PowerShell snippets run that same line (its
 * arguments from runnerArgs, each written as a literal of the language). curl is not offered: its
 * bash would be that very line. A free read (the balance, the request history, a job's record, the
 * columns) is no exception: the runner prints its answer alone on stdout, as JSON, for the script
 * to take (test/unit/house/oneLanguage.test.ts).
 * Each is a straight declaration, with no branch, no check and no error handling written in its
 * language: what a person sees on an error is the runner's own lines and exit code (through
 * check=True, process.exitCode and $LASTEXITCODE), and each snippet's comment says which.
 *
 * Why it is built this way:
 * - The call is the catalog's, checked with its rules first (a call the extension would not send is
 *   not written out either), and the base URL is the transport's own check of it.
 * - The key is never an argument here: the runner reads the environment variable WA_API_KEY and
 *   sends it only to the base URL's origin. A copied snippet can be pasted anywhere without leaking.
 * - Every value is written as a literal of its language, quoted for that language: nothing a
 *   person typed can end a string early or be expanded ($, backticks, quotes, new lines).
 */
import { shortTitle, validateInput, type Endpoint } from '../spec/catalog';
import { callUrl, checkUrl } from '../transport/http';
import { isPaid, quote, type Quote, type QuoteContext } from '../money/pricing';
import { l10n } from '../l10n';

export type SnippetLanguage = 'runner' | 'python' | 'typescript' | 'powershell';

/** Every language, in the order offered. */
export const SNIPPET_LANGUAGES: readonly { readonly id: SnippetLanguage }[] = [{ id: 'runner' }, { id: 'python' }, { id: 'typescript' }, { id: 'powershell' }];

/**
 * The languages offered for a call of `ep`, with the names a person picks from: each runs the
 * runner; what it says it does is a paid call's (priced, sent once, downloaded) or a free read's
 * (the answer printed as JSON).
 */
export function snippetLanguages(ep: Endpoint): { readonly id: SnippetLanguage; readonly label: string; readonly detail: string }[] {
  const label = l10n.t('Command line (wallet-analytics runner)');
  if (isPaid(ep)) {
    return [
      { id: 'runner', label, detail: l10n.t('The extension’s own code, run by Node 20: priced first, sent once, waited for and downloaded.') },
      { id: 'python', label: l10n.t('Python: runs the priced call through the runner'), detail: l10n.t('subprocess.run of the runner’s command line, check=True: priced first, refused above the price, sent once, waited for and downloaded.') },
      { id: 'typescript', label: l10n.t('TypeScript: runs the priced call through the runner'), detail: l10n.t('spawnSync of the runner’s command line (Node 20+); the script’s exit code is the runner’s.') },
      { id: 'powershell', label: l10n.t('PowerShell: runs the priced call through the runner'), detail: l10n.t('& node with the runner’s command line (PowerShell 7.3+); $LASTEXITCODE is the runner’s.') },
    ];
  }
  return [
    { id: 'runner', label, detail: l10n.t('The extension’s own code, run by Node 20: the answer printed as JSON (free: nothing is charged).') },
    { id: 'python', label: l10n.t('Python: runs the free read through the runner'), detail: l10n.t('subprocess.run of the runner’s command line, check=True: the answer printed as JSON (free: nothing is charged).') },
    { id: 'typescript', label: l10n.t('TypeScript: runs the free read through the runner'), detail: l10n.t('spawnSync of the runner’s command line (Node 20+): the answer printed as JSON (free: nothing is charged).') },
    { id: 'powershell', label: l10n.t('PowerShell: runs the free read through the runner'), detail: l10n.t('& node with the runner’s command line (PowerShell 7.3+): the answer printed as JSON (free: nothing is charged).') },
  ];
}

/** The environment variable the runner reads the key from. */
export const KEY_VARIABLE = 'WA_API_KEY';

/** Everything a snippet says: the call as the catalog checked it, where it goes and its price. */
export interface CallDescription {
  readonly endpoint: Endpoint;
  /** The inputs as checked by the catalog (defaults filled): what the runner's --input carries. */
  readonly input: Record<string, unknown>;
  /** The base URL with its path, no trailing slash: "https://api.example.com/v1". */
  readonly base: string;
  /** Scheme, host and port of the base URL: the only place the key is sent. */
  readonly origin: string;
  readonly price: Quote;
}

type Described = { readonly ok: true; readonly call: CallDescription } | { readonly ok: false; readonly errors: readonly string[] };

/**
 * The call of `ep` with `rawInput` under `baseUrl`, checked with the catalog's rules first (a call
 * the extension would not send is not written out either). `ctx` is the price step's context, so
 * the comment shows the price the step showed.
 */
export function describeCall(ep: Endpoint, rawInput: unknown, baseUrl: string, ctx?: QuoteContext): Described {
  const v = validateInput(ep, rawInput);
  if (!v.ok) return { ok: false, errors: v.errors };
  const base = checkUrl(baseUrl, 'base URL');
  // What the runner's --base-url is given: the base URL as the transport joins a path to it, with no trailing slash.
  const root = callUrl(base, '/').href.replace(/\/$/u, '');
  return { ok: true, call: { endpoint: ep, input: v.input, base: root, origin: base.origin, price: quote(ep, v.input, ctx) } };
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
  const lines = [
    `Wallet Analytics: ${shortTitle(ep)} (${ep.method} ${ep.path}), copied from VS Code.`,
    isPaid(ep) ? `Price: ${price.text}. Running this spends credits from your balance.` : 'Price: free. Running this spends no credits.',
    lang === 'runner'
      ? 'The runner is the extension’s own code (its dist/cli.js, path below; Export Pipeline writes the same'
      : 'This runs the runner, the extension’s own code (its dist/cli.js, path below; Export Pipeline writes the same',
  ];
  if (!isPaid(ep)) {
    lines.push(
      'file beside a pipeline as wallet-analytics.cjs). A free read: it prints the answer alone on stdout, as',
      'JSON a script can parse, and its own lines (the price, "Done. Charged: 0 credits.") on stderr; it keeps',
      'a copy of the answer in wallet-analytics-results/.',
      'Exit codes: 0 done, 1 failed, 2 bad input (nothing sent); nothing is charged either way.',
    );
  } else {
    lines.push(
      'file beside a pipeline as wallet-analytics.cjs). It prints the price first and sends nothing above',
      '--max-credits, sends the call once, looks a lost answer up in the request history (free) instead of',
      'sending again, waits for a queued job and downloads its file into wallet-analytics-results/.',
      'Exit codes: 0 done, 1 failed, 2 bad input (nothing sent), 3 refused (nothing sent), 4 may have been charged.',
    );
    if (!price.exact && price.atMost === undefined) {
      lines.push('A query billed per match has no bound before it runs: the runner refuses it (exit 3) unless the same query was answered in this folder since the last hourly refresh.');
    }
  }
  lines.push(`The runner reads the key from the environment variable ${KEY_VARIABLE} and sends it only to ${d.origin}.`, ...extra);
  return lines;
}

/** The comment lines of a snippet, each behind its language's comment mark. */
function commented(d: CallDescription, lang: SnippetLanguage, mark: '#' | '//', extra: readonly string[]): string[] {
  return commentLines(d, extra, lang).map((l) => `${mark} ${l}`);
}

// ---- the runner's command line, and in each language: that line run ----

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

/**
 * The snippet of a described call in one language; `runner` is where the runner is (the extension's
 * dist/cli.js). Every language runs the runner: none sends the call itself.
 */
export function snippet(language: SnippetLanguage, d: CallDescription, runner: RunnerPlace): string {
  switch (language) {
    case 'runner':
      return runnerSnippet(d, runner);
    case 'python':
      return pythonRunnerSnippet(d, runner);
    case 'typescript':
      return typescriptRunnerSnippet(d, runner);
    case 'powershell':
      return powershellRunnerSnippet(d, runner);
  }
}

/** The label of a language as offered for a call of `ep`, for messages. */
export function languageLabel(language: SnippetLanguage, ep: Endpoint): string {
  return snippetLanguages(ep).find((l) => l.id === language)?.label ?? language;
}

export function isSnippetLanguage(v: unknown): v is SnippetLanguage {
  return typeof v === 'string' && SNIPPET_LANGUAGES.some((l) => l.id === v);
}
