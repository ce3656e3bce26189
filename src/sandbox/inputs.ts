/**
 * The sandbox's own input rules: which parameters each endpoint takes, where (path, query
 * string, JSON body), of what type and range, and the messages of its 400 answers. Written
 * here on their own, not taken from the client's catalog, so a client that sends what the
 * server refuses is caught by the tests instead of agreeing with itself.
 *
 * The spec shows no parameter names or ranges (§4.1 "not shown", §8.6): the names and the
 * bounds that are not in the spec are our design, the same choices the client's catalog makes
 * (a test compares the two tables). The rules are the server's, strict:
 *   - numbers in a query string are decimal digits, with a fraction only where the value may
 *     have one: no sign, hex, binary, octal, exponent, spaces or empty value (no parameter of
 *     this API takes a negative number);
 *   - numbers in a JSON body are JSON numbers, whole where the value is whole;
 *   - a parameter may be given once; unknown parameters are refused;
 *   - lists of addresses count distinct addresses (second-chain ones compared in lower case).
 */
import { thousands } from '../core/numberText';
import { addressProblem, normaliseAddress, type Chain } from '../core/spec/addresses';
import { ALT_DEXES, CREATOR_COLUMNS, LAUNCHPADS, MAIN_DEXES, TRADING_BOTS } from '../core/spec/catalog';
import { sampleAddress } from '../core/spec/samples';
import { BOUNDS } from './bounds';
import { isRecord, queryBody, show } from './queryBody';
import type { Endpoint } from './routes';

interface Base {
  /** The name on the wire; `*` is the whole JSON body. */
  readonly name: string;
  /** How the messages call it. */
  readonly label: string;
  readonly optional?: boolean;
}
export type Param = Base &
  (
    | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly default?: number }
    | { readonly kind: 'number'; readonly min: number }
    | { readonly kind: 'unixSeconds' }
    | { readonly kind: 'choice'; readonly options: readonly string[]; readonly default?: string }
    | { readonly kind: 'address'; readonly chain: Chain }
    | { readonly kind: 'addresses'; readonly chain: Chain; readonly max: number }
    | { readonly kind: 'tokenWindows' }
    | { readonly kind: 'fragment' }
    | { readonly kind: 'cursor' }
    | { readonly kind: 'requestId' }
    | { readonly kind: 'creatorColumns' }
    | { readonly kind: 'query'; readonly chain: Chain }
  );

const hours = (def: number, max: number = BOUNDS.mainHours.max): Param => ({ kind: 'integer', name: 'hours', label: 'Hours', min: BOUNDS.mainHours.min, max, default: def });
const format: Param = { kind: 'choice', name: 'format', label: 'File format', options: ['csv', 'txt'], default: 'csv' };
const tokens: Param = { kind: 'addresses', name: 'tokens', label: 'Tokens', chain: 'main', max: BOUNDS.tokensPerRequest };
const token: Param = { kind: 'address', name: 'token', label: 'Token', chain: 'main' };
const cursor: Param = { kind: 'cursor', name: 'cursor', label: 'Cursor', optional: true };
const usd = (name: string, label: string, min: number): Param => ({ kind: 'number', name, label, min });

/** The parameters of every endpoint, by id. */
export const INPUTS: Readonly<Record<string, readonly Param[]>> = {
  trending: [hours(1)],
  migratedtokens: [hours(6), { kind: 'choice', name: 'launchpad', label: 'Launchpad', options: LAUNCHPADS, optional: true }, format],
  mcaptokens: [usd('mcap_usd', 'Market cap in USD', 1), { kind: 'integer', name: 'days', label: 'Days', ...BOUNDS.days, default: 3 }],
  athmcap: [tokens],
  toptraders: [tokens, { kind: 'choice', name: 'output', label: 'Output', options: ['zip', 'txt'], default: 'zip' }],
  earlybuyers: [tokens, { kind: 'integer', name: 'buyers', label: 'Buyers per token', ...BOUNDS.buyersPerToken, default: 100 }],
  alltraders: [tokens],
  dexwallets: [{ kind: 'choice', name: 'dex', label: 'DEX', options: MAIN_DEXES }, hours(1)],
  botwallets: [{ kind: 'choice', name: 'bot', label: 'Trading bot', options: TRADING_BOTS }, hours(24)],
  programstats: [hours(24)],
  programswaps: [{ kind: 'address', name: 'program', label: 'Program', chain: 'main' }, hours(24), format],
  lookuptablestats: [hours(24)],
  lookuptableswaps: [{ kind: 'address', name: 'table', label: 'Lookup table', chain: 'main' }, hours(24), format],
  pnl: [{ kind: 'addresses', name: 'wallets', label: 'Wallets', chain: 'main', max: BOUNDS.walletsPerRequest }],
  firstbuysanalyze: [{ kind: 'address', name: 'wallet', label: 'Wallet', chain: 'main' }],
  mcap: [token, usd('min_mcap_usd', 'Minimum market cap in USD', 0), usd('max_mcap_usd', 'Maximum market cap in USD', 0)],
  timestamp: [token, { kind: 'unixSeconds', name: 'from', label: 'From' }, { kind: 'unixSeconds', name: 'to', label: 'To' }],
  buysellfilter: [
    token,
    { kind: 'choice', name: 'side', label: 'Side', options: ['buy', 'sell', 'any'], default: 'buy' },
    usd('min_native', 'Minimum amount in the native coin', 0),
    usd('max_native', 'Maximum amount in the native coin', 0),
  ],
  tokensoverlap: [{ kind: 'tokenWindows', name: 'tokens', label: 'Tokens and windows' }],
  findaddress: [{ kind: 'fragment', name: 'fragment', label: 'Fragment' }],
  request: [{ kind: 'requestId', name: 'requestId', label: 'Request id' }],
  requests: [],
  credits: [],
  reset_ip: [],
  wallet_database: [{ kind: 'query', name: '*', label: 'Query', chain: 'main' }],
  wallet_database_columns: [],
  token_creators: [
    { kind: 'choice', name: 'sort', label: 'Sort', options: CREATOR_COLUMNS.filter((c) => c !== 'address'), default: 'tokens_migrated' },
    { kind: 'choice', name: 'order', label: 'Order', options: ['desc', 'asc'], default: 'desc' },
    { kind: 'creatorColumns', name: 'columns', label: 'Columns', optional: true },
    { kind: 'integer', name: 'page', label: 'Page', ...BOUNDS.creatorPages, default: 1 },
    { kind: 'integer', name: 'page_size', label: 'Page size', ...BOUNDS.creatorsPageSize, default: 50 },
  ],
  token_creator: [{ kind: 'address', name: 'address', label: 'Creator', chain: 'main' }],
  wallet_activity: [{ kind: 'address', name: 'address', label: 'Wallet', chain: 'main' }, cursor],
  altchain_dexwallets: [{ kind: 'choice', name: 'dex', label: 'DEX', options: ALT_DEXES }, hours(1, BOUNDS.altDexHours.max)],
  altchain_pnlplus: [{ kind: 'addresses', name: 'wallets', label: 'Wallets', chain: 'alt', max: BOUNDS.altWalletsPerRequest }],
  altchain_pnl: [{ kind: 'address', name: 'wallet', label: 'Wallet', chain: 'alt' }],
  altchain_wallet_database: [{ kind: 'query', name: '*', label: 'Query', chain: 'alt' }],
  altchain_wallet_database_columns: [],
  altchain_wallet_activity: [{ kind: 'address', name: 'address', label: 'Wallet', chain: 'alt' }, cursor],
};

type Input = Record<string, unknown>;

const inOrder = (lo: string, hi: string, what: string) => (i: Input) =>
  typeof i[lo] === 'number' && typeof i[hi] === 'number' && (i[lo] as number) > (i[hi] as number)
    ? `${what} is upside down: ${lo} (${String(i[lo])}) is above ${hi} (${String(i[hi])}).`
    : undefined;

/** Rules between parameters, checked once every parameter is valid. */
const CROSS: Readonly<Record<string, readonly ((i: Input) => string | undefined)[]>> = {
  mcap: [inOrder('min_mcap_usd', 'max_mcap_usd', 'The market cap range')],
  buysellfilter: [inOrder('min_native', 'max_native', 'The amount range')],
  timestamp: [(i) => (typeof i.from === 'number' && typeof i.to === 'number' && i.from >= i.to ? `The time window ends before it starts: from (${i.from}) must be earlier than to (${i.to}).` : undefined)],
};

/** The key a parameter's value has in the validated input (the whole body is `query`). */
export function inputKey(p: Param): string {
  return p.name === '*' ? 'query' : p.name;
}

type Read = { readonly ok: true; readonly input: Input } | { readonly ok: false; readonly errors: readonly string[] };

const named = (p: Param): string => `${p.label} (“${p.name}”)`;

const DIGITS = /^[0-9]+$/u;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/u;
const BASE58_RUN = /^[1-9A-HJ-NP-Za-km-z]*$/u;
const CHAIN_NAME: Record<Chain, string> = { main: 'main-chain', alt: 'second-chain' };

/** A number from a query string, or undefined when it is not written in plain decimal digits. */
function decimal(raw: string, whole: boolean): number | undefined {
  if (!(whole ? DIGITS : DECIMAL).test(raw)) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** A number parameter's value: from a query string (strict decimal) or a JSON body (a JSON number). */
function numeric(v: unknown, fromQuery: boolean, whole: boolean): number | undefined {
  if (fromQuery) return typeof v === 'string' ? decimal(v, whole) : undefined;
  return typeof v === 'number' && Number.isFinite(v) && (!whole || Number.isInteger(v)) ? v : undefined;
}

type Checked = { ok: true; value: unknown } | { ok: false; error: string };
const bad = (error: string): Checked => ({ ok: false, error });

function addressList(p: Param & { kind: 'addresses' }, v: unknown): Checked {
  if (!Array.isArray(v)) return bad(`${named(p)} must be a JSON list of addresses; got ${show(v)}.`);
  if (v.length === 0) return bad(`${named(p)} is empty: give at least one address.`);
  const problems: string[] = [];
  const distinct = new Set<string>();
  v.forEach((a, i) => {
    const why = typeof a === 'string' ? addressProblem(a, p.chain) : 'not a string';
    if (why) problems.push(`entry ${i + 1}, ${show(a)}: ${why}`);
    else distinct.add(normaliseAddress(a as string, p.chain));
  });
  if (problems.length > 0) {
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
    return bad(`${named(p)} holds entries that are not ${CHAIN_NAME[p.chain]} addresses: ${problems.slice(0, 3).join('; ')}${more}.`);
  }
  if (distinct.size > p.max) return bad(`${named(p)} holds ${thousands(distinct.size)} distinct addresses; at most ${thousands(p.max)} per request.`);
  return { ok: true, value: [...distinct] };
}

function tokenWindows(p: Param, v: unknown): Checked {
  const { min, max } = BOUNDS.overlapTokens;
  if (!Array.isArray(v) || v.length < min || v.length > max) {
    return bad(`${named(p)} must be a JSON list of ${min} to ${max} entries {"token", "from", "to"}; got ${Array.isArray(v) ? `${v.length} entries` : show(v)}.`);
  }
  const seen = new Set<string>();
  const out: { token: string; from: number; to: number }[] = [];
  for (const [i, e] of v.entries()) {
    const at = `${named(p)}, entry ${i + 1}`;
    if (!isRecord(e) || Object.keys(e).some((k) => !['token', 'from', 'to'].includes(k))) return bad(`${at} must be an object with exactly "token", "from" and "to".`);
    const why = typeof e.token === 'string' ? addressProblem(e.token, 'main') : 'not a string';
    if (why) return bad(`${at}: the token ${show(e.token)} is not a main-chain address: ${why}.`);
    const token = e.token as string;
    for (const k of ['from', 'to'] as const) {
      const t = e[k];
      if (typeof t !== 'number' || !Number.isInteger(t) || t < BOUNDS.unixSeconds.min || t > BOUNDS.unixSeconds.max) {
        return bad(`${at}: "${k}" must be a whole number of Unix seconds between 2010 and 2100; got ${show(t)}.`);
      }
    }
    if ((e.from as number) >= (e.to as number)) return bad(`${at}: the window ends before it starts (from ${String(e.from)}, to ${String(e.to)}).`);
    if (seen.has(token)) return bad(`${at}: the token ${token} is listed twice.`);
    seen.add(token);
    out.push({ token, from: e.from as number, to: e.to as number });
  }
  return { ok: true, value: out };
}

function fragment(p: Param, v: unknown): Checked {
  const { min, max } = BOUNDS.fragmentChars;
  const rule = `${named(p)} must be ${min} to ${max} base58 characters (no 0, O, I or l): a prefix, a suffix, or prefix...suffix`;
  if (typeof v !== 'string') return bad(`${rule}; got ${show(v)}.`);
  const parts = v.split('...');
  const chars = parts.join('').length;
  if (parts.length > 2 || !parts.every((s) => BASE58_RUN.test(s)) || chars < min || chars > max) return bad(`${rule}; got ${show(v)}.`);
  return { ok: true, value: v };
}

/** Checks one present value of a parameter. */
function checkValue(p: Param, v: unknown, fromQuery: boolean): Checked {
  switch (p.kind) {
    case 'integer': {
      const n = numeric(v, fromQuery, true);
      if (n === undefined || n < p.min || n > p.max) {
        const how = fromQuery ? ', written in decimal digits' : '';
        return bad(`${named(p)} must be a whole number from ${thousands(p.min)} to ${thousands(p.max)}${how}; got ${show(v)}.`);
      }
      return { ok: true, value: n };
    }
    case 'number': {
      const n = numeric(v, fromQuery, false);
      if (n === undefined || n < p.min) {
        const how = fromQuery ? ', written in decimal digits with an optional fraction (e.g. 1500 or 0.25)' : '';
        return bad(`${named(p)} must be a number of at least ${p.min}${how}; got ${show(v)}.`);
      }
      return { ok: true, value: n };
    }
    case 'unixSeconds': {
      const n = numeric(v, fromQuery, true);
      if (n === undefined || n < BOUNDS.unixSeconds.min || n > BOUNDS.unixSeconds.max) {
        return bad(`${named(p)} must be a whole number of Unix seconds between 2010 and 2100 (not milliseconds), written in decimal digits; got ${show(v)}.`);
      }
      return { ok: true, value: n };
    }
    case 'choice':
      return typeof v === 'string' && p.options.includes(v) ? { ok: true, value: v } : bad(`${named(p)} must be one of ${p.options.join(', ')}; got ${show(v)}.`);
    case 'address': {
      const why = typeof v === 'string' ? addressProblem(v, p.chain) : 'not a string';
      return why ? bad(`${named(p)} is not a ${CHAIN_NAME[p.chain]} address: ${why}; got ${show(v)}.`) : { ok: true, value: normaliseAddress(v as string, p.chain) };
    }
    case 'addresses':
      return addressList(p, v);
    case 'tokenWindows':
      return tokenWindows(p, v);
    case 'fragment':
      return fragment(p, v);
    case 'cursor':
      return typeof v === 'string' && v.length >= 1 && v.length <= BOUNDS.cursorChars
        ? { ok: true, value: v }
        : bad(`${named(p)} must be the nextCursor of the previous page (1 to ${BOUNDS.cursorChars} characters); leave it out for the first page.`);
    case 'requestId':
      // Opaque: any id the path carries is looked up; an unknown one is a 404, not a 400.
      return typeof v === 'string' && v.length > 0 ? { ok: true, value: v } : bad(`${named(p)} is missing from the path.`);
    case 'creatorColumns': {
      const cols: readonly string[] = CREATOR_COLUMNS;
      if (!Array.isArray(v) || v.length < 1 || v.length > cols.length || !v.every((c) => typeof c === 'string' && cols.includes(c))) {
        return bad(`${named(p)} must be a JSON list of 1 to ${cols.length} of ${cols.join(', ')}; got ${show(v)}.`);
      }
      return { ok: true, value: v };
    }
    case 'query': {
      const r = queryBody(v);
      return typeof r === 'string' ? bad(`The query body: ${r}`) : { ok: true, value: r };
    }
  }
}

/** The parameters of a route (none for an endpoint without input). */
export function paramsOf(route: Endpoint): readonly Param[] {
  const ps = INPUTS[route.id];
  if (!ps) throw new Error(`no sandbox input rules for ${route.id}`);
  return ps;
}

/** Applies a route's rules to values already taken from the wire (query strings as strings when fromQuery). */
function check(route: Endpoint, values: ReadonlyMap<string, { value: unknown; fromQuery: boolean }>, errors: string[]): Read {
  const input: Input = {};
  for (const p of paramsOf(route)) {
    const got = values.get(p.name);
    if (got === undefined) {
      if ('default' in p && p.default !== undefined) input[inputKey(p)] = p.default;
      else if (!p.optional) errors.push(`${named(p)} is required.`);
      continue;
    }
    const c = checkValue(p, got.value, got.fromQuery);
    if (c.ok) input[inputKey(p)] = c.value;
    else errors.push(c.error);
  }
  if (errors.length === 0) for (const rule of CROSS[route.id] ?? []) {
    const msg = rule(input);
    if (msg) errors.push(msg);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}

/**
 * Reads and checks a request's input: path parameters (already decoded), the query string of
 * a GET, the JSON body of a POST. Nothing is coerced: what is not exactly right is a 400.
 */
export function readInput(route: Endpoint, parts: { readonly params: Readonly<Record<string, string>>; readonly query: URLSearchParams; readonly body: unknown }): Read {
  const params = paramsOf(route);
  const known = new Set(params.map((p) => p.name));
  const values = new Map<string, { value: unknown; fromQuery: boolean }>();
  const errors: string[] = [];
  const takes = params.length > 0 ? params.map((p) => `“${p.name}”`).join(', ') : 'no input';
  for (const [k, v] of Object.entries(parts.params)) values.set(k, { value: v, fromQuery: true });
  const queryNames = [...new Set(parts.query.keys())];
  if (route.method === 'GET') {
    for (const k of queryNames) {
      const all = parts.query.getAll(k);
      const p = params.find((x) => x.name === k);
      if (!p || k in parts.params) errors.push(`${route.method} ${route.path} takes no query parameter “${k}”; it takes ${takes}.`);
      else if (all.length > 1) errors.push(`${named(p)} is given ${all.length} times; give it once.`);
      else values.set(k, { value: all[0], fromQuery: true });
    }
  } else {
    if (queryNames.length > 0) errors.push(`${route.method} ${route.path} takes its input as a JSON body, not in the query string (${queryNames.map((k) => `“${k}”`).join(', ')}).`);
    if (params.some((p) => p.name === '*')) values.set('*', { value: parts.body, fromQuery: false });
    else if (parts.body !== undefined && !isRecord(parts.body)) errors.push(`The body must be a JSON object; got ${show(parts.body)}.`);
    else {
      for (const [k, v] of Object.entries(parts.body ?? {})) {
        if (!known.has(k) || k in parts.params) errors.push(`${route.method} ${route.path} takes no body field “${k}”; it takes ${takes}.`);
        else values.set(k, { value: v, fromQuery: false });
      }
    }
  }
  return check(route, values, errors);
}

/** Checks typed values (as a JSON body would carry them) against a route's rules: for history seeding and tests. */
export function checkInput(route: Endpoint, values: Readonly<Record<string, unknown>>): Read {
  const m = new Map<string, { value: unknown; fromQuery: boolean }>();
  for (const p of paramsOf(route)) {
    const v = values[inputKey(p)];
    if (v !== undefined) m.set(p.name, { value: v, fromQuery: false });
  }
  return check(route, m, []);
}

/** A valid input of a route (optional parameters left out), over the sample addresses planted in the market. */
export function exampleInput(route: Endpoint): Input {
  const out: Input = {};
  for (const p of paramsOf(route)) {
    if (p.optional) continue;
    const key = inputKey(p);
    switch (p.kind) {
      case 'integer':
      case 'choice':
        out[key] = p.default ?? (p.kind === 'integer' ? p.min : p.options[0]);
        break;
      case 'number':
        out[key] = p.name.startsWith('max') ? 5_000 : p.name.startsWith('min') ? 100 : 50_000;
        break;
      case 'unixSeconds':
        out[key] = p.name === 'to' ? 1_700_086_400 : 1_700_000_000;
        break;
      case 'address':
        out[key] = sampleAddress(p.chain, 7);
        break;
      case 'addresses':
        out[key] = [sampleAddress(p.chain, 1), sampleAddress(p.chain, 2)];
        break;
      case 'tokenWindows':
        out[key] = [10, 11].map((i) => ({ token: sampleAddress('main', i), from: 1_700_000_000, to: 1_700_086_400 }));
        break;
      case 'fragment':
        out[key] = 'abc';
        break;
      case 'requestId':
        out[key] = 'req_sample';
        break;
      case 'query':
        out[key] = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.6 }] }, limit: 50 };
        break;
      case 'cursor':
      case 'creatorColumns':
        break;
    }
  }
  return out;
}
