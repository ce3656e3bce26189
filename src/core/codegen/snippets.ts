/**
 * "Copy as Code": one call written out as curl (bash), Python (requests), TypeScript (fetch, Node
 * 20+) or PowerShell (Invoke-RestMethod), for people who run the same call from a script.
 *
 * Why it is built this way:
 * - The request comes from the very functions the transport sends with (catalog encodeRequest,
 *   http callUrl/callHeaders/callBody), so a snippet cannot differ from what the extension sends.
 * - The key is never an argument here: the header value is a marker that each language writes as
 *   its environment variable WA_API_KEY. A copied snippet can be pasted anywhere without leaking.
 * - The key goes only to the base URL's origin, and no request that carries it follows a redirect
 *   (curl, requests and fetch pass custom headers on to the redirect's host), as in the transport.
 * - A queued call submits once (charged at acceptance), polls GET /request/{requestId} about every
 *   5 s until `url` is set (§1, §8.5), stops on the status `failed`, and downloads the file, only
 *   from an https URL or an http one on this machine (FILE_URL_PATTERN), as the extension does.
 * - Every value is written as a literal of its language, quoted for that language: nothing a
 *   person typed can end a string early or be expanded ($, backticks, quotes, new lines).
 */
import { encodeRequest, endpoint, shortTitle, validateInput, type Endpoint, type HttpMethod } from '../spec/catalog';
import { callBody, callHeaders, callUrl, checkUrl } from '../transport/http';
import { quote, type Quote, type QuoteContext } from '../money/pricing';
import { l10n } from '../l10n';

export type SnippetLanguage = 'curl' | 'python' | 'typescript' | 'powershell';

/** The languages, in the order offered, with the names a person picks from. */
export const SNIPPET_LANGUAGES: readonly { readonly id: SnippetLanguage; readonly label: string; readonly detail: string }[] = [
  { id: 'curl', label: 'curl (bash)', detail: 'A bash command with curl; a queued call also needs jq.' },
  { id: 'python', label: 'Python (requests)', detail: 'Python 3 with the requests package.' },
  { id: 'typescript', label: 'TypeScript (fetch, Node 20+)', detail: 'fetch as built into Node 20 and later.' },
  { id: 'powershell', label: 'PowerShell (Invoke-RestMethod)', detail: 'PowerShell 7, or Windows PowerShell 5.1.' },
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
  /** For a queued call: GET /request/{requestId} as the text before and after the id, and its headers. */
  readonly poll?: { readonly before: string; readonly after: string; readonly headers: readonly SnippetHeader[] };
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
  let poll: CallDescription['poll'];
  if (ep.family === 'queued') {
    // The poll's path from the catalog's own entry: everything around its one parameter.
    const [before = '', after = ''] = endpoint('request').path.split('{requestId}');
    poll = { before, after, headers: headerList(callHeaders(KEY_MARK, false)) };
  }
  return {
    ok: true,
    call: {
      endpoint: ep,
      method: wire.method,
      base: root,
      origin: base.origin,
      target: full.slice(root.length),
      headers: headerList(callHeaders(KEY_MARK, body !== undefined)),
      body,
      poll,
      price: quote(ep, v.input, ctx),
    },
  };
}

// ---- which result URLs a snippet downloads ----

/**
 * The result file URLs a snippet downloads: https anywhere, plain http only on this machine, the
 * transport's own rule (http.ts checkUrl). A server's `url` of file:///etc/…, gopher://… or
 * dict://… would otherwise have curl read a local file or write to a local service (issue 21).
 * One regular expression, anchored at the start, in the syntax every language here reads alike
 * (POSIX ERE for bash, Python's re, JavaScript's RegExp, .NET's for PowerShell): no \d, no flags.
 * After a loopback host only a port, then the path, query or fragment, so `http://127.0.0.1.evil/`
 * and `http://localhost@evil/` do not pass.
 */
export const FILE_URL_PATTERN = '^(https://|http://(localhost|127[.][0-9]{1,3}[.][0-9]{1,3}[.][0-9]{1,3}|\\[::1\\])(:[0-9]{1,5})?([/?#]|$))';

/** What a snippet says when it refuses a file URL (the URL follows). */
const FILE_URL_REFUSED = 'Not downloaded: the file URL is not https (or http on this machine): ';

/** curl's own guard, behind the pattern: no other protocol, and a redirect only to https. */
const CURL_PROTOCOLS = "--proto '=https,http' --proto-redir '=https'";

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

/** The opening comment lines, without comment markers. */
function commentLines(d: CallDescription, extra: readonly string[]): string[] {
  const ep = d.endpoint;
  const price = d.price;
  const free = price.credits === 0 && price.exact;
  const lines = [
    `Wallet Analytics: ${shortTitle(ep)} (${ep.method} ${ep.path}), copied from VS Code.`,
    free ? 'Price: free. Running this spends no credits.' : `Price: ${price.text}. Running this spends credits from your balance.`,
  ];
  if (ep.family === 'queued') {
    lines.push(
      'A queued job: it is charged once, when the submit is accepted; then GET /request/{requestId} (free)',
      'is polled about every 5 s until its url is set, and the file is downloaded (free).',
    );
  }
  lines.push(`The key is read from the environment variable ${KEY_VARIABLE} and is sent only to ${d.origin}.`, ...extra);
  return lines;
}

// ---- curl (bash) ----

function curlHeaders(headers: readonly SnippetHeader[]): string {
  return headers.map(([k, v]) => (typeof v === 'string' ? `-H ${bashQuote(`${k}: ${v}`)}` : `-H "${k}: $${KEY_VARIABLE}"`)).join(' ');
}

function curlSnippet(d: CallDescription): string {
  const queued = d.poll !== undefined;
  const out: string[] = commentLines(d, [
    `Needs curl 7.76 or later${queued ? ' and jq' : ''}. It runs in a subshell, so an error never closes your terminal.`,
  ]).map((l) => `# ${l}`);
  const send = [`curl -sS --fail-with-body -X ${d.method} "$base"${bashQuote(d.target)}`, curlHeaders(d.headers)];
  if (d.body !== undefined) send.push('--data-binary "$body"');
  out.push(
    '(',
    '  set -euo pipefail',
    `  : "\${${KEY_VARIABLE}:?Set ${KEY_VARIABLE} to your Wallet Analytics API key}"`,
    `  base=${bashQuote(d.base)}`,
    ...(queued ? [`  origin=${bashQuote(d.origin)}`] : []),
    ...(d.body !== undefined ? [`  body=${bashQuote(d.body)}`] : []),
  );
  const poll = d.poll;
  if (!poll) {
    out.push(`  ${send.join(' \\\n    ')}`, '  echo', ')');
    return `${out.join('\n')}\n`;
  }
  const name = d.endpoint.id;
  out.push(
    '  # Submit: charged when accepted. Never sent twice by this script.',
    `  ack=$(${send.join(' \\\n    ')})`,
    `  request_id=$(printf '%s' "$ack" | jq -r '.requestId')`,
    `  echo "Accepted as $request_id; polling about every 5 s." >&2`,
    '  while :; do',
    `    record=$(curl -sS --fail-with-body "$base"${bashQuote(poll.before)}"$(printf '%s' "$request_id" | jq -sRr @uri)"${poll.after ? bashQuote(poll.after) : ''} ${curlHeaders(poll.headers)})`,
    `    url=$(printf '%s' "$record" | jq -r '.url // ""')`,
    '    [ -n "$url" ] && break',
    `    if [ "$(printf '%s' "$record" | jq -r '.status // ""')" = failed ]; then`,
    `      echo "The job failed: $(printf '%s' "$record" | jq -r '.error // "no reason given"')" >&2`,
    '      exit 1',
    '    fi',
    '    sleep 5',
    '  done',
    `  file_re=${bashQuote(FILE_URL_PATTERN)}`,
    `  [[ $url =~ $file_re ]] || { printf '%s%s\\n' ${bashQuote(FILE_URL_REFUSED)} "$url" >&2; exit 1; }`,
    '  file=$(basename "${url%%[?#]*}")',
    `  out=${bashQuote(`${name}-`)}"\${file//[^A-Za-z0-9._-]/_}"`,
    '  # The key goes with the download only when the file is on the base URL\'s origin.',
    '  case "$url" in',
    `    "$origin"/*) curl -sS --fail -o "$out" "$url" -H "api_key: $${KEY_VARIABLE}" ${CURL_PROTOCOLS} --globoff ;;`,
    `    *) curl -sS --fail -L -o "$out" "$url" ${CURL_PROTOCOLS} --globoff ;;`,
    '  esac',
    '  echo "Saved $out" >&2',
    ')',
  );
  return `${out.join('\n')}\n`;
}

// ---- Python (requests) ----

function pyHeaders(headers: readonly SnippetHeader[]): string {
  return `{${headers.map(([k, v]) => `${jsonQuote(k)}: ${typeof v === 'string' ? jsonQuote(v) : 'KEY'}`).join(', ')}}`;
}

function pythonSnippet(d: CallDescription): string {
  const out: string[] = commentLines(d, ['Needs Python 3 and requests (pip install requests).']).map((l) => `# ${l}`);
  const poll = d.poll;
  out.push(
    'import os',
    'import sys',
    ...(poll ? ['import re', 'import time', 'import urllib.parse'] : []),
    '',
    'import requests',
    '',
    `KEY = os.environ[${jsonQuote(KEY_VARIABLE)}]  # Set ${KEY_VARIABLE} to your Wallet Analytics API key.`,
    `BASE = ${jsonQuote(d.base)}`,
    ...(poll ? [`ORIGIN = ${jsonQuote(d.origin)}`] : []),
    '',
    '',
    'def send(method, url, follow=False, **kw):',
    '    """One request; a request carrying the key never follows a redirect (requests would pass api_key on)."""',
    '    r = requests.request(method, url, allow_redirects=follow, **kw)',
    '    if r.status_code >= 300:',
    '        sys.exit(f"{method} {url} answered HTTP {r.status_code}: {r.text[:500]}")',
    '    return r',
    '',
    '',
  );
  const args = [jsonQuote(d.method), `BASE + ${jsonQuote(d.target)}`, `headers=${pyHeaders(d.headers)}`];
  if (d.body !== undefined) args.push(`data=${jsonQuote(d.body)}.encode("utf-8")`);
  args.push(`timeout=${poll || d.price.credits > 0 ? 110 : 30}`);
  if (!poll) {
    out.push(`print(send(${args.join(', ')}).text)`);
    return `${out.join('\n')}\n`;
  }
  out.push(
    '# Submit: charged when accepted. Never sent twice by this script.',
    `request_id = send(${args.join(', ')}).json()["requestId"]`,
    'print(f"Accepted as {request_id}; polling about every 5 s.", file=sys.stderr)',
    'while True:',
    `    record = send("GET", BASE + ${jsonQuote(poll.before)} + urllib.parse.quote(request_id, safe="")${poll.after ? ` + ${jsonQuote(poll.after)}` : ''}, headers=${pyHeaders(poll.headers)}, timeout=30).json()`,
    '    url = record.get("url") or ""',
    '    if url:',
    '        break',
    '    if record.get("status") == "failed":',
    '        sys.exit("The job failed: " + str(record.get("error") or "no reason given"))',
    '    time.sleep(5)',
    `if not re.match(${jsonQuote(FILE_URL_PATTERN)}, url):`,
    `    sys.exit(${jsonQuote(FILE_URL_REFUSED)} + url)`,
    `out = ${jsonQuote(`${d.endpoint.id}-`)} + re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(urllib.parse.urlsplit(url).path))`,
    '# The key goes with the download only when the file is on the base URL\'s origin.',
    'mine = url.startswith(ORIGIN + "/")',
    'with send("GET", url, follow=not mine, headers={"api_key": KEY} if mine else {}, stream=True, timeout=60) as r, open(out, "wb") as f:',
    '    for chunk in r.iter_content(1 << 16):',
    '        f.write(chunk)',
    'print(f"Saved {out}", file=sys.stderr)',
  );
  return `${out.join('\n')}\n`;
}

// ---- TypeScript (fetch, Node 20+) ----

function tsHeaders(headers: readonly SnippetHeader[]): string {
  return `{ ${headers.map(([k, v]) => `${jsonQuote(k)}: ${typeof v === 'string' ? jsonQuote(v) : 'KEY'}`).join(', ')} }`;
}

function typescriptSnippet(d: CallDescription): string {
  const poll = d.poll;
  const out: string[] = commentLines(d, ['Node 20 or later: run it with a TypeScript runner (npx tsx call.ts).']).map((l) => `// ${l}`);
  out.push(
    ...(poll ? ['import { writeFile } from "node:fs/promises";', ''] : []),
    `const KEY = process.env.${KEY_VARIABLE} ?? "";`,
    `if (!KEY) throw new Error(${jsonQuote(`Set ${KEY_VARIABLE} to your Wallet Analytics API key.`)});`,
    `const BASE = ${jsonQuote(d.base)};`,
    ...(poll ? [`const ORIGIN = ${jsonQuote(d.origin)};`] : []),
    '',
    '/** One request; a request carrying the key never follows a redirect (fetch would pass api_key on). */',
    'async function send(method: string, url: string, init: { headers?: Record<string, string>; body?: string; follow?: boolean } = {}): Promise<Response> {',
    '  const res = await fetch(url, { method, headers: init.headers, body: init.body, redirect: init.follow ? "follow" : "error" });',
    '  if (res.status >= 300) throw new Error(`${method} ${url} answered HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`);',
    '  return res;',
    '}',
    '',
    'async function main(): Promise<void> {',
  );
  const init = [`headers: ${tsHeaders(d.headers)}`];
  if (d.body !== undefined) init.push(`body: ${jsonQuote(d.body)}`);
  const call = `send(${jsonQuote(d.method)}, BASE + ${jsonQuote(d.target)}, { ${init.join(', ')} })`;
  if (!poll) {
    out.push(`  console.log(await (await ${call}).text());`);
  } else {
    out.push(
      '  // Submit: charged when accepted. Never sent twice by this script.',
      `  const ack = (await (await ${call}).json()) as { requestId: string };`,
      '  console.error(`Accepted as ${ack.requestId}; polling about every 5 s.`);',
      '  let url = "";',
      '  for (;;) {',
      `    const record = (await (await send("GET", BASE + ${jsonQuote(poll.before)} + encodeURIComponent(ack.requestId)${poll.after ? ` + ${jsonQuote(poll.after)}` : ''}, { headers: ${tsHeaders(poll.headers)} })).json()) as { url?: string; status?: string; error?: string };`,
      '    url = record.url ?? "";',
      '    if (url) break;',
      '    if (record.status === "failed") throw new Error(`The job failed: ${record.error ?? "no reason given"}`);',
      '    await new Promise((resolve) => setTimeout(resolve, 5_000));',
      '  }',
      `  if (!new RegExp(${jsonQuote(FILE_URL_PATTERN)}).test(url)) throw new Error(${jsonQuote(FILE_URL_REFUSED)} + url);`,
      `  const out = ${jsonQuote(`${d.endpoint.id}-`)} + (new URL(url).pathname.split("/").pop() ?? "").replace(/[^A-Za-z0-9._-]/g, "_");`,
      '  // The key goes with the download only when the file is on the base URL\'s origin.',
      '  const mine = new URL(url).origin === ORIGIN;',
      '  const file = await send("GET", url, { headers: mine ? { api_key: KEY } : {}, follow: !mine });',
      '  await writeFile(out, Buffer.from(await file.arrayBuffer()));',
      '  console.error(`Saved ${out}`);',
    );
  }
  out.push('}', '', 'main().catch((e: unknown) => {', '  console.error(e instanceof Error ? e.message : e);', '  process.exitCode = 1;', '});');
  return `${out.join('\n')}\n`;
}

// ---- PowerShell (Invoke-RestMethod) ----

/** PowerShell takes Content-Type as -ContentType, not in -Headers. */
function psHeaders(headers: readonly SnippetHeader[]): string {
  const h = headers.filter(([k]) => k !== 'content-type');
  return `@{ ${h.map(([k, v]) => `${psQuote(k)} = ${typeof v === 'string' ? psQuote(v) : `$env:${KEY_VARIABLE}`}`).join('; ')} }`;
}

function powershellSnippet(d: CallDescription): string {
  const poll = d.poll;
  const out: string[] = commentLines(d, ['PowerShell 7, or Windows PowerShell 5.1.']).map((l) => `# ${l}`);
  out.push(
    "$ErrorActionPreference = 'Stop'",
    `if (-not $env:${KEY_VARIABLE}) { throw ${psQuote(`Set ${KEY_VARIABLE} to your Wallet Analytics API key.`)} }`,
    `$base = ${psQuote(d.base)}`,
    ...(poll ? [`$origin = ${psQuote(d.origin)}`] : []),
  );
  const args = [`-Method ${d.method === 'POST' ? 'Post' : 'Get'}`, `-Uri ($base + ${psQuote(d.target)})`, `-Headers ${psHeaders(d.headers)}`, '-MaximumRedirection 0'];
  if (d.body !== undefined) {
    out.push(`$body = ${psQuote(d.body)}`);
    args.push("-ContentType 'application/json'", '-Body ([System.Text.Encoding]::UTF8.GetBytes($body))');
  }
  if (!poll) {
    out.push(`Invoke-RestMethod ${args.join(' ')} | ConvertTo-Json -Depth 100`);
    return `${out.join('\n')}\n`;
  }
  out.push(
    '# Submit: charged when accepted. Never sent twice by this script.',
    `$ack = Invoke-RestMethod ${args.join(' ')}`,
    '$requestId = [string]$ack.requestId',
    'Write-Host "Accepted as $requestId; polling about every 5 s."',
    'while ($true) {',
    `  $record = Invoke-RestMethod -Method Get -Uri ($base + ${psQuote(poll.before)} + [uri]::EscapeDataString($requestId)${poll.after ? ` + ${psQuote(poll.after)}` : ''}) -Headers ${psHeaders(poll.headers)} -MaximumRedirection 0`,
    '  if ($record.url) { break }',
    "  if ($record.status -eq 'failed') { throw \"The job failed: $($record.error)\" }",
    '  Start-Sleep -Seconds 5',
    '}',
    '$url = [string]$record.url',
    `if ($url -cnotmatch ${psQuote(FILE_URL_PATTERN)}) { throw (${psQuote(FILE_URL_REFUSED)} + $url) }`,
    `$out = ${psQuote(`${d.endpoint.id}-`)} + ([IO.Path]::GetFileName(([uri]$url).AbsolutePath) -replace '[^A-Za-z0-9._-]', '_')`,
    "# The key goes with the download only when the file is on the base URL's origin.",
    `if ($url.StartsWith($origin + '/')) { Invoke-WebRequest -Uri $url -Headers @{ 'api_key' = $env:${KEY_VARIABLE} } -OutFile $out -MaximumRedirection 0 -UseBasicParsing } else { Invoke-WebRequest -Uri $url -OutFile $out -UseBasicParsing }`,
    'Write-Host "Saved $out"',
  );
  return `${out.join('\n')}\n`;
}

/** The snippet of a described call in one language. */
export function snippet(language: SnippetLanguage, d: CallDescription): string {
  switch (language) {
    case 'curl':
      return curlSnippet(d);
    case 'python':
      return pythonSnippet(d);
    case 'typescript':
      return typescriptSnippet(d);
    case 'powershell':
      return powershellSnippet(d);
  }
}

/** The label of a language, for messages. */
export function languageLabel(language: SnippetLanguage): string {
  return SNIPPET_LANGUAGES.find((l) => l.id === language)?.label ?? language;
}

export function isSnippetLanguage(v: unknown): v is SnippetLanguage {
  return typeof v === 'string' && SNIPPET_LANGUAGES.some((l) => l.id === v);
}
