/**
 * Every endpoint of the service, as data (spec §4). Commands, prompts, price previews,
 * the sandbox's routing, package.json's command list and the README's endpoint table are
 * all derived from this list. Adding an endpoint is one entry here.
 *
 * Query-parameter and body-field names are not shown in the spec: the `wire` names below
 * (by default equal to the field key) are ours, and this file is the only place they live.
 */
import { z } from 'zod';
import { addressRule, addressSchema, type Chain } from './addresses';
import {
  addressField,
  addressListField,
  customField,
  enumField,
  integerField,
  numberField,
  textField,
  timestampField,
  unixSecondsSchema,
  type FieldSpec,
} from './fields';
import { QueryBody } from './queryModel';
import {
  ActivityPage,
  ColumnList,
  CreatorRecord,
  CreatorsPage,
  Credits,
  REQUEST_ID_MAX,
  RequestList,
  RequestRecord,
  requestIdRule,
  requestIdSchema,
  ResetIp,
  SubmitAck,
  WalletDatabaseResult,
  WalletMetrics,
} from './wire';
import { l10n } from '../l10n';
import { ENDPOINT_COMMAND_PREFIX } from '../ids';

export type Family = 'queued' | 'direct' | 'account';
type HttpMethod = 'GET' | 'POST';
/** What a result file is: an address list, a table, a zip of tables, or a JSON answer. */
export type ResultKind = 'txt' | 'csv' | 'zip' | 'json';

/** How an endpoint is billed (§8.2, §4.2, §4.3 rule 5). Fields are named by key. */
export type PriceRule =
  | { readonly kind: 'free' }
  | { readonly kind: 'flat'; readonly credits: number }
  | { readonly kind: 'perItem'; readonly field: string; readonly credits: number; readonly unit: string }
  /** Wallet Database: per matching address whatever the limit; a flat minimum when nothing matches. */
  | { readonly kind: 'perMatch'; readonly credits: number; readonly minimum: number }
  /** Token creators: per address returned; at most the page size. */
  | { readonly kind: 'perReturned'; readonly field: string; readonly credits: number }
  /** Wallet activity: per page read. */
  | { readonly kind: 'perPage'; readonly credits: number };

/**
 * What a cross-field rule checks, as data: code generated in another language (the exported
 * pipeline script) checks the same pairs with the same message.
 */
type CrossFieldSpec =
  /** Numbers lo ≤ hi. */
  | { readonly kind: 'ordered'; readonly lo: string; readonly hi: string; readonly message: string }
  /** Times from < to. */
  | { readonly kind: 'before'; readonly from: string; readonly to: string; readonly message: string };

/** A cross-field rule: a message when broken, and what it checks as data. */
type CrossFieldRule = ((input: Record<string, unknown>) => string | undefined) & { readonly spec: CrossFieldSpec };

export interface Endpoint {
  readonly id: string;
  /** As a person would say it, for the command palette. Ends in … when it asks for inputs. */
  readonly title: string;
  readonly summary: string;
  readonly family: Family;
  readonly chain: Chain;
  readonly method: HttpMethod;
  /** With `{placeholder}` segments filled from the field whose wire name matches. */
  readonly path: string;
  readonly bot?: string;
  readonly results: readonly ResultKind[];
  readonly fields: readonly FieldSpec[];
  /** Cross-field rules (ranges in order, timestamps in order): a message when broken. */
  readonly rules: readonly CrossFieldRule[];
  readonly price: PriceRule;
  /** Direct endpoints read by cursor pages. */
  readonly paged?: boolean;
  /** The wire.ts schema its answer must match (loose: extra fields are kept). Queued submits answer a SubmitAck. */
  readonly answer: z.ZodType;
  /**
   * The account calls whose answer is not a result to save: `balance` (GET /credits: the answer is
   * the balance, may come as bare text, and is shown), `resetIp` (POST /reset_ip: an empty answer
   * is fine, and none is shown).
   */
  readonly accountCall?: 'balance' | 'resetIp';
}

/** Limits the spec leaves open (§8.6) are our choice, kept here; a refused call costs nothing anyway. */
const LIMITS = {
  tokensPerRequest: 1_000,
  walletsPerRequest: 100_000,
  /** §4.3 rule 3, §8.5 */
  altWalletsPerRequest: 100_000,
  /** §4.3 rule 1, §8.5 */
  altDexHours: { min: 1, max: 12 },
  mainHours: { min: 1, max: 24 },
  creatorsPageSize: 100,
} as const;

export const LAUNCHPADS = ['pumpfun', 'letsbonk', 'moonshot', 'believe', 'launchlab', 'boop'] as const;
export const MAIN_DEXES = [
  'raydium_amm',
  'raydium_clmm',
  'raydium_cpmm',
  'orca_whirlpool',
  'meteora_dlmm',
  'meteora_damm',
  'pumpswap',
  'lifinity',
  'phoenix',
  'openbook',
  'fluxbeam',
  'saros',
] as const;
export const TRADING_BOTS = ['photon', 'bullx', 'gmgn', 'axiom', 'trojan', 'bonkbot', 'maestro', 'banana_gun', 'bloom', 'nova'] as const;
/** The 15 DEXes of the second chain (§4.3 rule 1). Their ids are ours. */
export const ALT_DEXES = [
  'uniswap_v2',
  'uniswap_v3',
  'uniswap_v4',
  'pancakeswap_v2',
  'pancakeswap_v3',
  'sushiswap',
  'aerodrome',
  'velodrome',
  'curve',
  'balancer',
  'traderjoe',
  'camelot',
  'kyberswap',
  'maverick',
  'dodo',
] as const;
export const CREATOR_COLUMNS = [
  'address',
  'tokens_created',
  'tokens_migrated',
  'migration_rate',
  'best_ath_mcap_usd',
  'median_ath_mcap_usd',
  'rug_count',
  'first_created',
  'last_created',
] as const;

// ---- field helpers shared by several entries ----

const COLUMNS_RULE = `Columns must be a list of 1 to ${CREATOR_COLUMNS.length} of: ${CREATOR_COLUMNS.join(', ')}.`;

const TOKEN_WINDOWS_RULE =
  'Tokens and windows must be a list of 2 to 20 items {"token", "from", "to"}: a token address and the window of its buy, from and to in Unix seconds between 2010 and 2100.';

/**
 * tokensoverlap's list of {token, from, to}. Each window's ends are checked with the same
 * Unix-seconds schema as every timestamp field (so a negative or millisecond time is refused
 * here too), and each message names the token by its place in the list.
 */
function tokenWindowsSchema(): z.ZodType {
  // The three keys are checked below (a missing one too), so each message can name its token.
  const item = z.strictObject({ token: z.unknown().optional(), from: z.unknown().optional(), to: z.unknown().optional() }, { error: TOKEN_WINDOWS_RULE });
  return z
    .array(item, { error: TOKEN_WINDOWS_RULE })
    .min(2, { error: `${TOKEN_WINDOWS_RULE} Give at least two tokens to overlap.` })
    .max(20, { error: `${TOKEN_WINDOWS_RULE} At most 20 tokens per overlap.` })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((t, i) => {
        const n = i + 1;
        const token = addressSchema('main', `Token ${n} must be ${addressRule('main')}.`).safeParse(t.token);
        const from = unixSecondsSchema(`Token ${n}: the window start (from)`).safeParse(t.from);
        const to = unixSecondsSchema(`Token ${n}: the window end (to)`).safeParse(t.to);
        for (const [r, key] of [[token, 'token'], [from, 'from'], [to, 'to']] as const) {
          if (!r.success) ctx.addIssue({ code: 'custom', path: [i, key], message: r.error.issues[0]?.message ?? TOKEN_WINDOWS_RULE });
        }
        if (from.success && to.success && from.data >= to.data) ctx.addIssue({ code: 'custom', path: [i], message: l10n.t('Token {0}: the window ends before it starts.', n) });
        if (token.success) {
          if (seen.has(token.data)) ctx.addIssue({ code: 'custom', path: [i, 'token'], message: l10n.t('Token {0} is listed twice.', n) });
          seen.add(token.data);
        }
      });
    })
    .transform((list) => list.map((t) => ({ token: String(t.token).trim(), from: t.from as number, to: t.to as number })));
}

const tokens = (what = 'tokens', max: number = LIMITS.tokensPerRequest): FieldSpec =>
  addressListField({ key: 'tokens', label: 'Tokens', description: `Token mint addresses (${what}).`, chain: 'main', max, what: 'tokens' });
const token = (): FieldSpec => addressField({ key: 'token', label: 'Token', description: 'The token’s mint address.', chain: 'main' });
const hours = (def: number, what: string): FieldSpec =>
  integerField({ key: 'hours', label: 'Hours', description: `How many hours back to look (${what}).`, min: LIMITS.mainHours.min, max: LIMITS.mainHours.max, default: def });
const format = (): FieldSpec =>
  enumField({ key: 'format', label: 'File format', description: 'csv: one row per item with details; txt: addresses only.', options: ['csv', 'txt'], default: 'csv' });
const pathAddress = (chain: Chain, label: string): FieldSpec =>
  addressField({ key: 'address', label, description: `The ${label.toLowerCase()} address.`, chain });
const cursor = (): FieldSpec =>
  textField({ key: 'cursor', label: 'Cursor', description: 'Where to continue: the nextCursor of the previous page. Leave out for the first page.', min: 1, max: 512, optional: true });
const queryBody = (chain: Chain): FieldSpec =>
  customField({
    key: 'query',
    wire: '*',
    label: 'Query',
    kind: 'query',
    chain,
    description: 'A Wallet Database query: AND/OR groups of conditions on the metrics, and a limit.',
    rule: 'Query must be a Wallet Database query: an object with "where" (AND/OR groups of conditions) and "limit".',
    schema: () => QueryBody,
  });

/**
 * A range in order: the rule says it in the person's language, with the values given. The spec's
 * message is the exported script's own text (a file, in English: `{min}` and `{max}` are the values
 * the script fills in), so it is data, not a message made here.
 */
const ordered = (lo: string, hi: string, what: string): CrossFieldRule => {
  const rule = (i: Record<string, unknown>): string | undefined => {
    const a = i[lo];
    const b = i[hi];
    return typeof a === 'number' && typeof b === 'number' && a > b ? l10n.t('{0}: the minimum ({1}) is above the maximum ({2}).', what, String(a), String(b)) : undefined;
  };
  return Object.assign(rule, { spec: { kind: 'ordered', lo, hi, message: `${what}: the minimum ({min}) is above the maximum ({max}).` } as const });
};
const before = (from: string, to: string): CrossFieldRule => {
  const rule = (i: Record<string, unknown>): string | undefined => {
    const a = i[from];
    const b = i[to];
    return typeof a === 'number' && typeof b === 'number' && a >= b ? l10n.t('The time window ends before it starts: “from” must be earlier than “to”.') : undefined;
  };
  return Object.assign(rule, { spec: { kind: 'before', from, to, message: 'The time window ends before it starts: “from” must be earlier than “to”.' } as const });
};

type Entry = Omit<Endpoint, 'rules' | 'fields' | 'answer'> & { fields?: FieldSpec[]; rules?: Endpoint['rules']; answer?: z.ZodType };
const e = (x: Entry): Endpoint => {
  const answer = x.answer ?? (x.family === 'queued' ? SubmitAck : undefined);
  if (!answer) throw new Error(l10n.t('No answer schema for endpoint {0}', x.id));
  return { ...x, fields: x.fields ?? [], rules: x.rules ?? [], answer };
};
const flat = (credits: number): PriceRule => ({ kind: 'flat', credits });
const FREE: PriceRule = { kind: 'free' };

export const ENDPOINTS: readonly Endpoint[] = [
  // ---- §4.1 queued: find tokens ----
  e({
    id: 'trending', title: 'Trending Tokens…', summary: 'Most swapped tokens over an interval.',
    family: 'queued', chain: 'main', method: 'GET', path: '/trending', bot: '/trendingtokens', results: ['txt'],
    fields: [hours(1, 'the interval')], price: flat(50),
  }),
  e({
    id: 'migratedtokens', title: 'Tokens Just Migrated from a Launchpad…', summary: 'Tokens that just migrated from a launchpad.',
    family: 'queued', chain: 'main', method: 'GET', path: '/migratedtokens', bot: '/migratedtokens', results: ['csv', 'txt'],
    fields: [
      hours(6, 'migrated within'),
      enumField({ key: 'launchpad', label: 'Launchpad', description: 'Only tokens from this launchpad (all when left out).', options: LAUNCHPADS, optional: true }),
      format(),
    ],
    price: flat(100),
  }),
  e({
    id: 'mcaptokens', title: 'Tokens That Crossed a Market Cap…', summary: 'Tokens that crossed a market cap in the last days.',
    family: 'queued', chain: 'main', method: 'GET', path: '/mcaptokens', bot: '/mcaptokens', results: ['csv'],
    fields: [
      numberField({ key: 'mcap_usd', label: 'Market cap (USD)', description: 'The market cap the tokens crossed, in USD.', min: 1 }),
      integerField({ key: 'days', label: 'Days', description: 'How many days back to look.', min: 1, max: 30, default: 3 }),
    ],
    price: flat(500),
  }),
  e({
    id: 'athmcap', title: 'All-Time-High Market Cap of Tokens…', summary: 'All-time-high market cap per token.',
    family: 'queued', chain: 'main', method: 'POST', path: '/athmcap', bot: '/athmcap', results: ['csv'],
    fields: [tokens()], price: { kind: 'perItem', field: 'tokens', credits: 100, unit: 'token' },
  }),
  // ---- §4.1 queued: find traders ----
  e({
    id: 'toptraders', title: 'Top Traders of Tokens…', summary: 'Most profitable wallets per token.',
    family: 'queued', chain: 'main', method: 'POST', path: '/toptraders', bot: '/toptraders', results: ['zip', 'txt'],
    fields: [
      tokens(),
      enumField({ key: 'output', label: 'Output', description: 'zip: one .csv per token; txt: one address list for all tokens.', options: ['zip', 'txt'], default: 'zip' }),
    ],
    price: { kind: 'perItem', field: 'tokens', credits: 100, unit: 'token' },
  }),
  e({
    id: 'earlybuyers', title: 'Early Buyers of Tokens…', summary: 'First buyers per token.',
    family: 'queued', chain: 'main', method: 'POST', path: '/earlybuyers', bot: '/earlybuyers', results: ['zip'],
    fields: [tokens(), integerField({ key: 'buyers', label: 'Buyers per token', description: 'How many first buyers to list per token.', min: 1, max: 1000, default: 100 })],
    price: { kind: 'perItem', field: 'tokens', credits: 50, unit: 'token' },
  }),
  e({
    id: 'alltraders', title: 'All Traders of Tokens…', summary: 'Every wallet that traded a token.',
    family: 'queued', chain: 'main', method: 'POST', path: '/alltraders', bot: '/alltraders', results: ['zip'],
    fields: [tokens()], price: { kind: 'perItem', field: 'tokens', credits: 150, unit: 'token' },
  }),
  e({
    id: 'dexwallets', title: 'Wallets Active on a DEX…', summary: 'Every wallet active on a venue.',
    family: 'queued', chain: 'main', method: 'GET', path: '/dexwallets', bot: '/dexwallets', results: ['txt'],
    fields: [enumField({ key: 'dex', label: 'DEX', description: 'The venue.', options: MAIN_DEXES }), hours(1, 'active within')],
    price: flat(500),
  }),
  e({
    id: 'botwallets', title: 'Wallets Using a Trading Bot…', summary: 'Users of a trading bot.',
    family: 'queued', chain: 'main', method: 'GET', path: '/botwallets', bot: '/botwallets', results: ['txt'],
    fields: [enumField({ key: 'bot', label: 'Trading bot', description: 'The trading bot.', options: TRADING_BOTS }), hours(24, 'active within')],
    price: flat(500),
  }),
  e({
    id: 'programstats', title: 'Swap Programs in Use…', summary: 'Custom swap programs in use.',
    family: 'queued', chain: 'main', method: 'GET', path: '/programstats', bot: '/programstats', results: ['csv'],
    fields: [hours(24, 'the interval')], price: flat(50),
  }),
  e({
    id: 'programswaps', title: 'Swaps Through a Program…', summary: 'Swaps through a program.',
    family: 'queued', chain: 'main', method: 'GET', path: '/programswaps', bot: '/programswaps', results: ['csv', 'txt'],
    fields: [addressField({ key: 'program', label: 'Program', description: 'The swap program’s address.', chain: 'main' }), hours(24, 'the interval'), format()],
    price: flat(500),
  }),
  e({
    id: 'lookuptablestats', title: 'Lookup Tables in Use…', summary: 'Lookup tables in use.',
    family: 'queued', chain: 'main', method: 'GET', path: '/lookuptablestats', bot: '/lookuptablestats', results: ['csv'],
    fields: [hours(24, 'the interval')], price: flat(50),
  }),
  e({
    id: 'lookuptableswaps', title: 'Swaps Through a Lookup Table…', summary: 'Swaps through a lookup table.',
    family: 'queued', chain: 'main', method: 'GET', path: '/lookuptableswaps', bot: '/lookuptableswaps', results: ['csv', 'txt'],
    fields: [addressField({ key: 'table', label: 'Lookup table', description: 'The lookup table’s address.', chain: 'main' }), hours(24, 'the interval'), format()],
    price: flat(500),
  }),
  // ---- §4.1 queued: analyze ----
  e({
    id: 'pnl', title: 'PnL of Wallets…', summary: 'Every metric for every wallet on a list.',
    family: 'queued', chain: 'main', method: 'POST', path: '/pnl', bot: '/pnlplus', results: ['csv'],
    fields: [addressListField({ key: 'wallets', label: 'Wallets', description: 'Wallet addresses to analyse.', chain: 'main', max: LIMITS.walletsPerRequest, what: 'wallets' })],
    price: { kind: 'perItem', field: 'wallets', credits: 5, unit: 'wallet' },
  }),
  e({
    id: 'firstbuysanalyze', title: 'First Buys of a Wallet…', summary: 'A wallet’s first buy of every token it bought.',
    family: 'queued', chain: 'main', method: 'GET', path: '/firstbuysanalyze', results: ['csv'],
    fields: [addressField({ key: 'wallet', label: 'Wallet', description: 'The wallet address.', chain: 'main' })],
    price: flat(1000),
  }),
  e({
    id: 'mcap', title: 'Buyers of a Token in a Market-Cap Range…', summary: 'Wallets that first bought a token inside a market cap range.',
    family: 'queued', chain: 'main', method: 'GET', path: '/mcap', bot: '/mcapanalyze', results: ['csv'],
    fields: [
      token(),
      numberField({ key: 'min_mcap_usd', label: 'Minimum market cap (USD)', description: 'Lower end of the range, in USD.', min: 0 }),
      numberField({ key: 'max_mcap_usd', label: 'Maximum market cap (USD)', description: 'Upper end of the range, in USD.', min: 0 }),
    ],
    rules: [ordered('min_mcap_usd', 'max_mcap_usd', 'Market cap range')],
    price: flat(500),
  }),
  e({
    id: 'timestamp', title: 'Buyers of a Token in a Time Window…', summary: 'Wallets that first bought a token inside a time window.',
    family: 'queued', chain: 'main', method: 'GET', path: '/timestamp', bot: '/timestampanalyze', results: ['csv'],
    fields: [
      token(),
      timestampField({ key: 'from', label: 'From', description: 'Start of the window (Unix seconds or an ISO date).' }),
      timestampField({ key: 'to', label: 'To', description: 'End of the window (Unix seconds or an ISO date).' }),
    ],
    rules: [before('from', 'to')],
    price: flat(500),
  }),
  e({
    id: 'buysellfilter', title: 'Traders of a Token by Trade Size…', summary: 'Wallets that traded a token for a native-coin amount inside a range.',
    family: 'queued', chain: 'main', method: 'GET', path: '/buysellfilter', bot: '/buysellfilter', results: ['csv'],
    fields: [
      token(),
      enumField({ key: 'side', label: 'Side', description: 'Buys, sells, or either.', options: ['buy', 'sell', 'any'], default: 'buy' }),
      numberField({ key: 'min_native', label: 'Minimum amount (native coin)', description: 'Smallest trade, in the native coin.', min: 0 }),
      numberField({ key: 'max_native', label: 'Maximum amount (native coin)', description: 'Largest trade, in the native coin.', min: 0 }),
    ],
    rules: [ordered('min_native', 'max_native', 'Amount range')],
    price: flat(1000),
  }),
  e({
    id: 'tokensoverlap', title: 'Wallets That Bought Every Token…', summary: 'Wallets that bought every token on a list inside its window.',
    family: 'queued', chain: 'main', method: 'POST', path: '/tokensoverlap', bot: '/tokensoverlap', results: ['txt'],
    fields: [
      customField({
        key: 'tokens', label: 'Tokens and windows', kind: 'tokenWindows', chain: 'main', min: 2, max: 20,
        description: 'Two to twenty tokens, each with the time window (Unix seconds) in which its buy counts.',
        rule: TOKEN_WINDOWS_RULE,
        schema: tokenWindowsSchema,
      }),
    ],
    price: flat(100),
  }),
  // ---- §4.1 queued: utility ----
  e({
    id: 'findaddress', title: 'Find Full Address from a Fragment…', summary: 'Full addresses that match a fragment.',
    family: 'queued', chain: 'main', method: 'GET', path: '/findaddress', bot: '/findaddress', results: ['txt'],
    fields: [
      textField({
        key: 'fragment', label: 'Fragment', description: 'Part of an address: a prefix, a suffix, or prefix...suffix (base58 characters).',
        // Base58 only, optionally as prefix...suffix, and at least 3 base58 characters in all (the
        // lookahead): "..." or "a..." match nearly every address, and would be charged 500 for it.
        min: 3, max: 44, pattern: /^(?=(?:[^1-9A-HJ-NP-Za-km-z]*[1-9A-HJ-NP-Za-km-z]){3})[1-9A-HJ-NP-Za-km-z]*(?:\.\.\.)?[1-9A-HJ-NP-Za-km-z]*$/u,
        rule: 'Fragment must hold at least 3 base58 characters (no 0, O, I or l): a prefix, a suffix, or prefix...suffix.',
      }),
    ],
    price: flat(500),
  }),
  // ---- §4.1 account (free) ----
  e({
    id: 'request', title: 'Check a Request…', summary: 'Status of one request; carries the file url when done.',
    family: 'account', chain: 'main', method: 'GET', path: '/request/{requestId}', results: ['json'], answer: RequestRecord,
    // The requestId is the server's, taken as opaque: the one rule of src/core/spec/wire.ts, which the submit acknowledgement obeys too.
    fields: [
      customField({
        key: 'requestId', label: 'Request id', kind: 'text', description: 'The requestId a submit returned.', min: 1, max: REQUEST_ID_MAX,
        rule: requestIdRule('Request id'), schema: () => requestIdSchema('Request id'),
      }),
    ],
    price: FREE,
  }),
  e({ id: 'requests', title: 'Request History', summary: 'The caller’s past requests, with their files.', family: 'account', chain: 'main', method: 'GET', path: '/requests', results: ['json'], answer: RequestList, price: FREE }),
  e({ id: 'credits', title: 'Show Credits', summary: 'Remaining credits (a number carried in a string).', family: 'account', chain: 'main', method: 'GET', path: '/credits', results: ['json'], accountCall: 'balance', answer: Credits, price: FREE }),
  e({ id: 'reset_ip', title: 'Reset Saved IP Address', summary: 'Resets the IP address saved for the key.', family: 'account', chain: 'main', method: 'POST', path: '/reset_ip', results: ['json'], accountCall: 'resetIp', answer: ResetIp, price: FREE }),
  // ---- §4.2 direct ----
  e({
    id: 'wallet_database', title: 'Query the Wallet Database…', summary: 'Matching wallets and the total number matched.',
    family: 'direct', chain: 'main', method: 'POST', path: '/wallet_database', results: ['json'], answer: WalletDatabaseResult,
    fields: [queryBody('main')], price: { kind: 'perMatch', credits: 100, minimum: 100 },
  }),
  e({ id: 'wallet_database_columns', title: 'Wallet Database Fields', summary: 'The fields that can be queried.', family: 'direct', chain: 'main', method: 'GET', path: '/wallet_database/columns', results: ['json'], answer: ColumnList, price: FREE }),
  e({
    id: 'token_creators', title: 'Token Creators…', summary: 'A page of creators, sorted as asked, with the asked columns.',
    family: 'direct', chain: 'main', method: 'POST', path: '/token_creators', results: ['json'], answer: CreatorsPage, paged: true,
    fields: [
      enumField({ key: 'sort', label: 'Sort by', description: 'The column to sort creators by.', options: CREATOR_COLUMNS.filter((c) => c !== 'address') as unknown as readonly [string, ...string[]], default: 'tokens_migrated' }),
      enumField({ key: 'order', label: 'Order', description: 'Highest first (desc) or lowest first (asc).', options: ['desc', 'asc'], default: 'desc' }),
      customField({
        key: 'columns', label: 'Columns', kind: 'textList', min: 1, max: CREATOR_COLUMNS.length, optional: true, options: CREATOR_COLUMNS,
        description: `Columns to return (all when left out): ${CREATOR_COLUMNS.join(', ')}.`,
        rule: COLUMNS_RULE,
        schema: () => z.array(z.enum(CREATOR_COLUMNS, { error: COLUMNS_RULE }), { error: COLUMNS_RULE }).min(1, { error: COLUMNS_RULE }).max(CREATOR_COLUMNS.length, { error: COLUMNS_RULE }),
      }),
      integerField({ key: 'page', label: 'Page', description: 'Which page, from 1.', min: 1, max: 1_000_000, default: 1 }),
      integerField({ key: 'page_size', label: 'Creators per page', description: 'How many creators a page holds (100 credits each).', min: 1, max: LIMITS.creatorsPageSize, default: 50 }),
    ],
    price: { kind: 'perReturned', field: 'page_size', credits: 100 },
  }),
  e({
    id: 'token_creator', title: 'Token Creator’s Record…', summary: 'One creator’s track record and every token created.',
    family: 'direct', chain: 'main', method: 'GET', path: '/token_creators/{address}', results: ['json'], answer: CreatorRecord,
    fields: [pathAddress('main', 'Creator')], price: flat(100),
  }),
  e({
    id: 'wallet_activity', title: 'Wallet Activity (Swaps)…', summary: 'Swaps of one wallet, paged by cursor, up to 100 per page.',
    family: 'direct', chain: 'main', method: 'GET', path: '/wallets/{address}/activity', results: ['json'], answer: ActivityPage, paged: true,
    fields: [pathAddress('main', 'Wallet'), cursor()], price: { kind: 'perPage', credits: 1 },
  }),
  // ---- §4.3 second chain ----
  e({
    id: 'altchain_dexwallets', title: 'Second Chain: Wallets on a DEX…', summary: 'Wallets that traded on one DEX of the second chain (no ranking, no filter).',
    family: 'queued', chain: 'alt', method: 'GET', path: '/altchain_dexwallets', bot: '/altchain_dexwallets', results: ['txt'],
    fields: [
      enumField({ key: 'dex', label: 'DEX', description: 'One of the 15 second-chain DEXes.', options: ALT_DEXES }),
      integerField({ key: 'hours', label: 'Hours', description: 'The interval, 1 to 12 hours.', min: LIMITS.altDexHours.min, max: LIMITS.altDexHours.max, default: 1 }),
    ],
    price: flat(500),
  }),
  e({
    id: 'altchain_pnlplus', title: 'Second Chain: PnL of a Wallet List…', summary: 'All 158 metrics for every wallet on a list (up to 100,000).',
    family: 'queued', chain: 'alt', method: 'POST', path: '/altchain_pnlplus', bot: '/altchain_pnlplus', results: ['csv'],
    fields: [addressListField({ key: 'wallets', label: 'Wallets', description: 'Second-chain wallet addresses (0x…), up to 100,000.', chain: 'alt', max: LIMITS.altWalletsPerRequest, what: 'wallets' })],
    price: { kind: 'perItem', field: 'wallets', credits: 5, unit: 'wallet' },
  }),
  e({
    id: 'altchain_pnl', title: 'Second Chain: PnL of One Wallet…', summary: 'All metrics for one wallet, answered immediately.',
    family: 'direct', chain: 'alt', method: 'GET', path: '/altchain_pnl', results: ['json'], answer: WalletMetrics,
    fields: [addressField({ key: 'wallet', label: 'Wallet', description: 'A second-chain wallet address (0x…).', chain: 'alt' })],
    // §4.3 rule 5: priced as the first chain's pnl for one wallet.
    price: flat(5),
  }),
  e({
    id: 'altchain_wallet_database', title: 'Second Chain: Wallet Database Query…', summary: 'Wallets matching a query, with the same AND/OR model.',
    family: 'direct', chain: 'alt', method: 'POST', path: '/altchain_wallet_database', results: ['json'], answer: WalletDatabaseResult,
    fields: [queryBody('alt')], price: { kind: 'perMatch', credits: 100, minimum: 100 },
  }),
  e({ id: 'altchain_wallet_database_columns', title: 'Second Chain: Fields of the Wallet Database', summary: 'The fields that can be queried on the second chain.', family: 'direct', chain: 'alt', method: 'GET', path: '/altchain_wallet_database/columns', results: ['json'], answer: ColumnList, price: FREE }),
  e({
    id: 'altchain_wallet_activity', title: 'Second Chain: Activity of a Wallet (Swaps)…', summary: 'Every swap of one second-chain wallet, by cursor pages.',
    family: 'direct', chain: 'alt', method: 'GET', path: '/altchain_wallets/{address}/activity', results: ['json'], answer: ActivityPage, paged: true,
    fields: [pathAddress('alt', 'Wallet'), cursor()], price: { kind: 'perPage', credits: 1 },
  }),
];

const BY_ID = new Map(ENDPOINTS.map((ep) => [ep.id, ep]));

/** The endpoint with this id; throws for an unknown id (a programming error). */
export function endpoint(id: string): Endpoint {
  const ep = BY_ID.get(id);
  if (!ep) throw new Error(l10n.t('Unknown endpoint id: {0}', id));
  return ep;
}

export function findEndpoint(id: string): Endpoint | undefined {
  return BY_ID.get(id);
}

/**
 * Each endpoint's input schema, built once: zod compiles an object's parser on its first parse, so a
 * schema built for every check compiled it again each time (rankTargets' checks of six endpoints
 * were ~6 ms of one turn of the host's loop after the fields were built: issue 34 item 4).
 */
const inputSchemas = new WeakMap<Endpoint, { readonly fields: readonly FieldSpec[]; readonly rules: Endpoint['rules']; readonly schema: z.ZodType<Record<string, unknown>> }>();

/** The zod schema of an endpoint's whole input: its fields (optional ones may be absent) and its cross-field rules. */
export function inputSchema(ep: Endpoint): z.ZodType<Record<string, unknown>> {
  const built = inputSchemas.get(ep);
  // Built again if the endpoint's fields or rules were replaced since (a test's broken client does so).
  if (built && built.rules === ep.rules && built.fields.length === ep.fields.length && built.fields.every((f, i) => f === ep.fields[i])) return built.schema;
  const shape: Record<string, z.ZodType> = {};
  for (const f of ep.fields) {
    // A field with a default may be left out; the default is then sent, so the call is what the price assumed.
    shape[f.key] = f.optional ? f.schema.optional() : f.default !== undefined ? f.schema.default(f.default) : f.schema;
  }
  const schema = z.strictObject(shape).superRefine((input, ctx) => {
    ep.rules.forEach((rule, index) => {
      const msg = rule(input);
      // The rule's index goes with its issue, so its problem names the fields the rule is about.
      if (msg) ctx.addIssue({ code: 'custom', message: msg, params: { rule: index } });
    });
  }) as unknown as z.ZodType<Record<string, unknown>>;
  inputSchemas.set(ep, { fields: [...ep.fields], rules: ep.rules, schema });
  return schema;
}

/**
 * One problem with an input, with the input it belongs to: `field` is the key of the one field it is
 * about (absent for a problem of the whole input); `involves` names every key a problem of several
 * fields (a cross-field rule, unknown input names) is about. A problem is attached to its input by
 * these keys, never by its words: a translation may put the label anywhere (issue 26).
 */
interface InputProblem {
  readonly message: string;
  readonly field?: string;
  readonly involves?: readonly string[];
}

type Validated = { ok: true; input: Record<string, unknown> } | { ok: false; errors: string[]; problems: InputProblem[] };

/**
 * Validates raw input against an endpoint, with messages a person can act on: "X is required."
 * only when X is missing (absent or undefined); any other wrong value gets the field's own rule
 * (zod 4 issues carry no input, so "missing" is read from the raw input, not from the issue).
 */
export function validateInput(ep: Endpoint, raw: unknown): Validated {
  const r = inputSchema(ep).safeParse(raw);
  if (r.success) return { ok: true, input: r.data };
  const given = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const title = shortTitle(ep);
  const names = (keys: readonly string[]) => keys.map((k) => `“${k}”`).join(', ');
  // Cross-field rules (ranges in order) are said once every field is valid on its own: "the
  // window ends before it starts" says nothing useful about a "from" given in milliseconds.
  const fieldIssue = r.error.issues.some((i) => i.path.length > 0);
  const issues = r.error.issues.filter((i) => !(fieldIssue && i.path.length === 0 && i.code === 'custom'));
  const problems = issues.map((i): InputProblem => {
    if (i.path.length === 0) {
      if (i.code === 'unrecognized_keys') return { message: l10n.t('{0} takes no input named {1}.', title, names(i.keys)), involves: i.keys };
      if (i.code === 'invalid_type') return { message: l10n.t('{0} takes its inputs as an object of named fields.', title) };
      // A cross-field rule (zod keeps no path for it): the fields its spec names.
      const index: unknown = i.code === 'custom' ? i.params?.rule : undefined;
      const rule = typeof index === 'number' ? ep.rules[index] : undefined;
      return rule ? { message: i.message, involves: ruleFields(rule) } : { message: i.message };
    }
    const field = ep.fields.find((f) => f.key === i.path[0]);
    if (!field) return { message: i.message };
    const at = (message: string): InputProblem => ({ message, field: field.key });
    if (given?.[field.key] === undefined) return at(l10n.t('{0} is required.', field.label));
    const inner = i.path.slice(1);
    if (i.code === 'unrecognized_keys') {
      const where = typeof inner[0] === 'number' ? l10n.t(' item {0}', inner[0] + 1) : inner.length ? ` ${inner.join('.')}` : '';
      return at(l10n.t('{0}:{1} takes no field named {2}.', field.label, where, names(i.keys)));
    }
    // A value of the wrong type: the field's rule. Inside a query, where the path says more, that path and zod's words.
    if (i.code === 'invalid_type' && field.kind !== 'query') return at(field.rule);
    if (field.kind === 'query' && inner.length > 0 && !i.message.includes(field.label)) return at(`${field.label}: ${inner.join('.')}: ${i.message}`);
    return at(i.message.includes(field.label) ? i.message : `${field.label}: ${i.message}`);
  });
  // One problem per message (two issues of one field may say the same), the first kept.
  const seen = new Set<string>();
  const unique = problems.filter((p) => !seen.has(p.message) && (seen.add(p.message), true));
  return { ok: false, errors: unique.map((p) => p.message), problems: unique };
}

/** The input keys a cross-field rule is about, from its spec. */
function ruleFields(rule: CrossFieldRule): string[] {
  const s = rule.spec;
  return s.kind === 'ordered' ? [s.lo, s.hi] : [s.from, s.to];
}

/** A request ready for the transport: method, path with placeholders filled, query and body by wire name. */
interface WireRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body?: unknown;
}

function placeholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/gu)].map((m) => m[1] ?? '');
}

/** A number as plain decimal digits: String(1e21) is "1e+21", which a strict server refuses. */
export function decimalText(n: number): string {
  const s = String(n);
  return /e/iu.test(s) ? n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : s;
}

function queryString(v: unknown): string {
  const one = (x: unknown): string => (typeof x === 'number' ? decimalText(x) : String(x));
  return Array.isArray(v) ? v.map(one).join(',') : one(v);
}

/** Turns validated input into the wire request: GET inputs as query parameters, POST inputs as a JSON body (§4.1). */
export function encodeRequest(ep: Endpoint, input: Record<string, unknown>): WireRequest {
  const inPath = new Set(placeholders(ep.path));
  let path = ep.path;
  const query: Record<string, string> = {};
  let body: Record<string, unknown> | undefined = ep.method === 'POST' ? {} : undefined;
  for (const f of ep.fields) {
    const v = input[f.key];
    if (v === undefined) continue;
    if (inPath.has(f.wire)) path = path.replace(`{${f.wire}}`, encodeURIComponent(String(v)));
    else if (f.wire === '*') body = { ...(v as Record<string, unknown>) };
    else if (ep.method === 'GET') query[f.wire] = queryString(v);
    else if (body) body[f.wire] = v;
  }
  return body === undefined ? { method: ep.method, path, query } : { method: ep.method, path, query, body };
}

/** Matches a request path against the catalog: the endpoint and its path parameters, by wire name. */
export function routeRequest(method: string, pathname: string): { ep: Endpoint; params: Record<string, string> } | undefined {
  for (const ep of ENDPOINTS) {
    if (ep.method !== method) continue;
    const names: string[] = [];
    const re = new RegExp(
      `^${ep.path.replace(/[.*+?^$()|[\]\\]/gu, '\\$&').replace(/\\?\{([^}]+)\\?\}/gu, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}/?$`,
      'u',
    );
    const m = re.exec(pathname);
    if (m) return { ep, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])) };
  }
  return undefined;
}

function fromQuery(f: FieldSpec, raw: string): unknown {
  switch (f.kind) {
    case 'integer':
    case 'number':
    case 'timestamp':
      return raw.trim() === '' ? raw : Number(raw);
    case 'addressList':
    case 'textList':
      return raw.split(',').filter((s) => s.length > 0);
    default:
      return raw;
  }
}

/** The inverse of encodeRequest, for the sandbox: wire request back to raw input (validate it next). */
export function decodeRequest(
  ep: Endpoint,
  parts: { params: Record<string, string>; query: URLSearchParams; body: unknown },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const body = parts.body && typeof parts.body === 'object' ? (parts.body as Record<string, unknown>) : {};
  const known = new Set(ep.fields.map((f) => f.wire));
  for (const f of ep.fields) {
    if (f.wire in parts.params) out[f.key] = parts.params[f.wire];
    else if (f.wire === '*') out[f.key] = parts.body;
    else if (ep.method === 'GET') {
      const raw = parts.query.get(f.wire);
      if (raw !== null) out[f.key] = fromQuery(f, raw);
    } else if (f.wire in body) out[f.key] = body[f.wire];
  }
  // Unknown names are passed through so that strict validation reports them.
  const extra = ep.method === 'GET' ? [...parts.query.keys()] : ep.fields.some((f) => f.wire === '*') ? [] : Object.keys(body);
  for (const k of extra) if (!known.has(k)) out[k] = ep.method === 'GET' ? parts.query.get(k) : body[k];
  return out;
}

/** The command id a catalog endpoint gets in the palette. */
export function commandIdOf(ep: Endpoint): string {
  return `${ENDPOINT_COMMAND_PREFIX}${ep.id}`;
}

/**
 * The kind of file a call of ep with these inputs answers with: the kind its `output` field
 * chooses (toptraders: a zip of CSVs or one address list), else its first result kind.
 */
export function resultKindFor(ep: Endpoint, inputs: Readonly<Record<string, unknown>>): ResultKind {
  const chooser = ep.fields.find((f) => f.key === 'output' && f.kind === 'enum');
  const chosen = chooser ? (inputs[chooser.key] ?? chooser.default) : undefined;
  return ep.results.find((k) => k === chosen) ?? ep.results[0] ?? 'txt';
}

/** The title without its trailing "…", for messages and progress titles. */
export function shortTitle(ep: Endpoint): string {
  return ep.title.replace(/\u2026$/u, '');
}
