/**
 * The typed API: one small class over the catalog (what to send) and the transport (how).
 *
 *   const api = new WalletAnalyticsApi({ baseUrl, apiKey: () => keys.get(), onLog });
 *   const { requestId } = await api.submit('trending', { hours: 1 });
 *   const rec = await api.request(requestId);            // poll until rec.url !== ''
 *   const file = await downloadFrom(api, rec.url, folder); // download.ts; key only if same origin as baseUrl
 *
 * Every call validates its input with the catalog first (bad input is reported before any
 * network traffic), encodes it with encodeRequest (GET → query, POST → JSON body), and checks
 * the answer with the wire.ts schemas (loose: extra fields are kept). Failures are the typed
 * errors of errors.ts; each carries `charged`. Typed methods return the parsed answer;
 * `call` is the generic form used by commands that walk the catalog.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { endpoint, encodeRequest, type Endpoint } from '../spec/catalog';
import { validateInputSliced } from '../spec/listCheck';
import type { Chain } from '../spec/addresses';
import { BadInputError, MalformedResponseError, WalletApiError, redact, type CallContext } from '../errors';
import { checkUrl, HttpTransport, type CallLog, type HttpAnswer, type RetryOptions } from './http';
import { isPaid, quote } from '../money/pricing';
import { analyzeQuery } from '../query/analyze';
import type { QueryBody } from '../spec/queryModel';
import {
  ActivityPage,
  ColumnList,
  CreatorRecord,
  CreatorsPage,
  Credits,
  RequestList,
  RequestRecord,
  SubmitAck,
  WalletDatabaseResult,
  WalletMetrics,
  type ColumnInfo,
} from '../spec/wire';
import { l10n } from '../l10n';

export type { CallLog } from './http';

export interface ApiOptions {
  /** From the `walletAnalytics.baseUrl` setting. https, or http for loopback only. */
  readonly baseUrl: string;
  /** Read on every call, so a key changed in another window is used at once. */
  readonly apiKey: () => Promise<string | undefined>;
  /** §7.1: 100 s by default; shorter in tests. */
  readonly ackTimeoutMs?: number;
  /** Free calls' answer deadline and the idle limit of any body (default 30 s). */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  /** Told about every attempt of every call (never headers, never the key). */
  readonly onLog?: (entry: CallLog) => void;
  readonly dispatcher?: Dispatcher;
}

type CreatorsPageT = z.output<typeof CreatorsPage>;
type CreatorRecordT = z.output<typeof CreatorRecord>;
type WalletMetricsT = z.output<typeof WalletMetrics>;

/** What the generic `call` returns: the checked answer and the credits it cost. */
interface CallResult {
  readonly endpoint: Endpoint;
  readonly value: unknown;
  readonly charged: number;
}

/** Credits a successful call cost, from its input and (for per-match and per-returned rules) its answer. */
export function chargedFor(ep: Endpoint, input: Record<string, unknown>, value: unknown): number {
  switch (ep.price.kind) {
    case 'perMatch': {
      const r = WalletDatabaseResult.safeParse(value);
      return quote(ep, input, r.success ? { knownMatches: r.data.total } : {}).credits;
    }
    case 'perReturned': {
      const r = CreatorsPage.safeParse(value);
      return quote(ep, input, r.success ? { returned: r.data.creators.length } : {}).credits;
    }
    default:
      return quote(ep, input).credits;
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : l10n.t('the answer')}: ${i.message}`)
    .join('; ');
}

function preview(text: string): string {
  const t = text.trim().replace(/\s+/gu, ' ');
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}

/** How long a field list read for the query checks is trusted (it is free to read again). */
const QUERY_FIELDS_TTL_MS = 10 * 60 * 1000;

/** The typed client of the Wallet Analytics API. */
export class WalletAnalyticsApi {
  readonly http: HttpTransport;
  private lastBalance: number | undefined;
  private readonly fieldLists = new Map<Chain, { at: number; columns: Promise<readonly ColumnInfo[] | undefined> }>();

  constructor(private readonly opts: ApiOptions) {
    this.http = new HttpTransport(opts);
  }

  /** Validates, sends and checks one call of any catalog endpoint. */
  async call(endpointId: string, rawInput: unknown = {}, signal?: AbortSignal): Promise<CallResult> {
    const ep = endpoint(endpointId);
    const paid = isPaid(ep);
    const ctx: CallContext = { endpointId: ep.id, paid, family: ep.family, what: `${ep.method} ${ep.path}` };
    const v = await validateInputSliced(ep, rawInput);
    if (!v.ok) throw new BadInputError({ ...ctx, source: 'client', problems: v.errors });
    const input = v.input;
    await this.checkQueries(ep, input, ctx, signal);
    const wire = encodeRequest(ep, input);
    const schema = ep.answer;
    const answer = await this.http.send({
      endpointId: ep.id,
      method: wire.method,
      path: wire.path,
      query: wire.query,
      body: wire.body,
      paid,
      family: ep.family,
      quoted: quote(ep, input).credits,
      knownBalance: this.lastBalance,
      chargeOf: (json) => chargedFor(ep, input, json),
      signal,
    });
    const value = this.check(ep, answer, schema, { ...ctx, what: `${wire.method} ${wire.path}` });
    if (ep.accountCall === 'balance' && typeof value === 'number') this.lastBalance = value;
    return { endpoint: ep, value, charged: paid ? chargedFor(ep, input, value) : 0 };
  }

  /**
   * The checks a call passes before anything paid is sent, without sending it: the catalog's
   * field rules and, for a Wallet Database body, the query checks. Throws BadInputError.
   */
  async preflight(endpointId: string, rawInput: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const ep = endpoint(endpointId);
    const ctx: CallContext = { endpointId: ep.id, paid: isPaid(ep), what: `${ep.method} ${ep.path}` };
    const v = await validateInputSliced(ep, rawInput);
    if (!v.ok) throw new BadInputError({ ...ctx, source: 'client', problems: v.errors });
    await this.checkQueries(ep, v.input, ctx, signal);
    return v.input;
  }

  /**
   * A Wallet Database body gets the same field checks as the query editor (unknown fields, wrong
   * value types, contradictions…) before it is sent, whoever calls: the palette, a query file, a
   * re-run or a script. The field list is the free GET …/columns; when it cannot be read, the
   * structure checks still run and the server has the last word (a refusal costs nothing).
   */
  private async checkQueries(ep: Endpoint, input: Record<string, unknown>, ctx: CallContext, signal?: AbortSignal): Promise<void> {
    for (const f of ep.fields) {
      if (f.kind !== 'query' || input[f.key] === undefined) continue;
      const columns = await this.queryFields(ep.chain, signal);
      const problems = analyzeQuery(JSON.stringify(input[f.key], null, 1), columns ? { [ep.chain]: columns } : undefined, { chain: ep.chain })
        .filter((d) => d.severity === 'error')
        .map((d) => d.message);
      if (problems.length > 0) throw new BadInputError({ ...ctx, source: 'client', problems });
    }
  }

  private queryFields(chain: Chain, signal?: AbortSignal): Promise<readonly ColumnInfo[] | undefined> {
    const now = Date.now();
    const cached = this.fieldLists.get(chain);
    if (cached && now - cached.at >= 0 && now - cached.at < QUERY_FIELDS_TTL_MS) return cached.columns;
    const columns = this.columns(chain, signal).then(
      (c) => c,
      () => {
        // Not kept: the next query tries again.
        this.fieldLists.delete(chain);
        return undefined;
      },
    );
    this.fieldLists.set(chain, { at: now, columns });
    return columns;
  }

  private check(ep: Endpoint, answer: HttpAnswer, schema: z.ZodType, ctx: CallContext): unknown {
    let body: unknown = answer.json;
    if (!answer.isJson) {
      // /credits may arrive as bare text (one line ending dropped: it ends the line, it is not part of
      // the number); /reset_ip's answer is not shown, so an empty body is fine.
      if (ep.accountCall === 'balance' && answer.text.trim() !== '') body = answer.text.replace(/\r?\n$/u, '');
      else if (ep.accountCall === 'resetIp') body = undefined;
      else {
        throw new MalformedResponseError({
          ...ctx,
          status: answer.status,
          problem: answer.text.trim() === '' ? l10n.t('the answer is empty') : l10n.t('the answer is not JSON (it begins “{0}”)', preview(answer.text)),
        });
      }
    }
    const r = schema.safeParse(body);
    if (!r.success) throw new MalformedResponseError({ ...ctx, status: answer.status, problem: describeIssues(r.error) });
    return r.data;
  }

  private async typed<S extends z.ZodType>(_schema: S, id: string, input: unknown, signal?: AbortSignal): Promise<z.output<S>> {
    // The value was parsed with this very schema in call().
    return (await this.call(id, input, signal)).value as z.output<S>;
  }

  /** Submits a queued job (§4.1); charged at acceptance. Never retried unless the server provably refused it. */
  async submit(endpointId: string, input: unknown, signal?: AbortSignal): Promise<SubmitAck> {
    if (endpoint(endpointId).family !== 'queued') throw new Error(l10n.t('{0} is not a queued endpoint', endpointId));
    return this.typed(SubmitAck, endpointId, input, signal);
  }

  /** One request record; `url` is '' until the job is done. */
  request(requestId: string, signal?: AbortSignal): Promise<RequestRecord> {
    return this.typed(RequestRecord, 'request', { requestId }, signal);
  }

  /** The caller's past requests. */
  requests(signal?: AbortSignal): Promise<RequestRecord[]> {
    return this.typed(RequestList, 'requests', {}, signal);
  }

  /** The remaining credits (§2.3: a number carried in a string). */
  credits(signal?: AbortSignal): Promise<number> {
    return this.typed(Credits, 'credits', {}, signal);
  }

  /** Binds the key to this machine's IP address (free, §5.3). */
  async resetIp(signal?: AbortSignal): Promise<void> {
    await this.call('reset_ip', {}, signal);
  }

  /** Runs a Wallet Database query; billed per match, whatever the limit (§4.2). */
  walletDatabase(chain: Chain, body: QueryBody, signal?: AbortSignal): Promise<WalletDatabaseResult> {
    return this.typed(WalletDatabaseResult, chain === 'alt' ? 'altchain_wallet_database' : 'wallet_database', { query: body }, signal);
  }

  /** The queryable Wallet Database fields (free). */
  columns(chain: Chain, signal?: AbortSignal): Promise<ColumnInfo[]> {
    return this.typed(ColumnList, chain === 'alt' ? 'altchain_wallet_database_columns' : 'wallet_database_columns', {}, signal);
  }

  /** A page of token creators; billed per creator returned. */
  creators(input: Record<string, unknown>, signal?: AbortSignal): Promise<CreatorsPageT> {
    return this.typed(CreatorsPage, 'token_creators', input, signal);
  }

  /** One creator's track record and tokens (100 credits). */
  creator(address: string, signal?: AbortSignal): Promise<CreatorRecordT> {
    return this.typed(CreatorRecord, 'token_creator', { address }, signal);
  }

  /** One page of a wallet's swaps (1 credit); pass the previous page's nextCursor to continue. */
  activityPage(chain: Chain, address: string, cursor?: string, signal?: AbortSignal): Promise<ActivityPage> {
    const input = cursor === undefined ? { address } : { address, cursor };
    return this.typed(ActivityPage, chain === 'alt' ? 'altchain_wallet_activity' : 'wallet_activity', input, signal);
  }

  /** Every metric of one second-chain wallet, answered at once. */
  altPnl(wallet: string, signal?: AbortSignal): Promise<WalletMetricsT> {
    return this.typed(WalletMetrics, 'altchain_pnl', { wallet }, signal);
  }

  /**
   * What downloading a result file needs (`downloadFrom` in download.ts, which the result writer
   * calls): the checked address, the proxy, the headers of each hop, and a failure told without
   * the key. The key is sent only when a hop's origin is the base URL's; a file elsewhere is
   * fetched without it, and the key is read only when it will be sent, so a missing key does not
   * block a foreign-origin file.
   */
  async fileAccess(url: string): Promise<{ href: string; dispatcher: Dispatcher | undefined; headersFor: (u: URL) => Record<string, string>; redacted: (e: unknown) => unknown }> {
    const target = checkUrl(url, 'result file URL');
    const key = this.http.isBaseOrigin(target) ? await this.http.key({ what: 'the result file' }) : undefined;
    return {
      href: target.href,
      dispatcher: this.opts.dispatcher,
      headersFor: (u): Record<string, string> => (key !== undefined && this.http.isBaseOrigin(u) ? { api_key: key } : {}),
      redacted: (e: unknown): unknown => {
        if (e instanceof WalletApiError) return e.redacted([key]);
        if (e instanceof Error) e.message = redact(e.message, [key]);
        return e;
      },
    };
  }
}
