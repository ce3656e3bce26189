/**
 * The sandbox's own endpoint table: every endpoint of the spec (§4.1, §4.2, §4.3) by method and
 * path, with its family, chain and result kinds. The server routes with this table, not with
 * the client's catalog, so a client that calls the wrong path or method gets a 404 here.
 * The endpoint ids are the catalog's (the ledger and request records carry them, and a test
 * checks both tables list the same endpoints with the same paths and parameter names).
 */
import type { Chain } from '../core/spec/addresses';

type Family = 'queued' | 'direct' | 'account';
type Method = 'GET' | 'POST';
type ResultKind = 'txt' | 'csv' | 'zip' | 'json';

export interface Endpoint {
  readonly id: string;
  readonly method: Method;
  /** With `{name}` segments for path parameters. */
  readonly path: string;
  readonly family: Family;
  readonly chain: Chain;
  /** Queued: the file kinds the spec lists (§4.1 "Returns"); direct and account: json. */
  readonly results: readonly ResultKind[];
}

const r = (id: string, method: Method, path: string, family: Family, results: readonly ResultKind[], chain: Chain = 'main'): Endpoint => ({ id, method, path, family, chain, results });
const JSON_ONLY = ['json'] as const;

export const ROUTES: readonly Endpoint[] = [
  // §4.1 find tokens
  r('trending', 'GET', '/trending', 'queued', ['txt']),
  r('migratedtokens', 'GET', '/migratedtokens', 'queued', ['csv', 'txt']),
  r('mcaptokens', 'GET', '/mcaptokens', 'queued', ['csv']),
  r('athmcap', 'POST', '/athmcap', 'queued', ['csv']),
  // §4.1 find traders
  r('toptraders', 'POST', '/toptraders', 'queued', ['zip', 'txt']),
  r('earlybuyers', 'POST', '/earlybuyers', 'queued', ['zip']),
  r('alltraders', 'POST', '/alltraders', 'queued', ['zip']),
  r('dexwallets', 'GET', '/dexwallets', 'queued', ['txt']),
  r('botwallets', 'GET', '/botwallets', 'queued', ['txt']),
  r('programstats', 'GET', '/programstats', 'queued', ['csv']),
  r('programswaps', 'GET', '/programswaps', 'queued', ['csv', 'txt']),
  r('lookuptablestats', 'GET', '/lookuptablestats', 'queued', ['csv']),
  r('lookuptableswaps', 'GET', '/lookuptableswaps', 'queued', ['csv', 'txt']),
  // §4.1 analyze
  r('pnl', 'POST', '/pnl', 'queued', ['csv']),
  r('firstbuysanalyze', 'GET', '/firstbuysanalyze', 'queued', ['csv']),
  r('mcap', 'GET', '/mcap', 'queued', ['csv']),
  r('timestamp', 'GET', '/timestamp', 'queued', ['csv']),
  r('buysellfilter', 'GET', '/buysellfilter', 'queued', ['csv']),
  r('tokensoverlap', 'POST', '/tokensoverlap', 'queued', ['txt']),
  // §4.1 utility
  r('findaddress', 'GET', '/findaddress', 'queued', ['txt']),
  // §4.1 account (free)
  r('request', 'GET', '/request/{requestId}', 'account', JSON_ONLY),
  r('requests', 'GET', '/requests', 'account', JSON_ONLY),
  r('credits', 'GET', '/credits', 'account', JSON_ONLY),
  r('reset_ip', 'POST', '/reset_ip', 'account', JSON_ONLY),
  // §4.2 direct
  r('wallet_database', 'POST', '/wallet_database', 'direct', JSON_ONLY),
  r('wallet_database_columns', 'GET', '/wallet_database/columns', 'direct', JSON_ONLY),
  r('token_creators', 'POST', '/token_creators', 'direct', JSON_ONLY),
  r('token_creator', 'GET', '/token_creators/{address}', 'direct', JSON_ONLY),
  r('wallet_activity', 'GET', '/wallets/{address}/activity', 'direct', JSON_ONLY),
  // §4.3 second chain
  r('altchain_dexwallets', 'GET', '/altchain_dexwallets', 'queued', ['txt'], 'alt'),
  r('altchain_pnlplus', 'POST', '/altchain_pnlplus', 'queued', ['csv'], 'alt'),
  r('altchain_pnl', 'GET', '/altchain_pnl', 'direct', JSON_ONLY, 'alt'),
  r('altchain_wallet_database', 'POST', '/altchain_wallet_database', 'direct', JSON_ONLY, 'alt'),
  r('altchain_wallet_database_columns', 'GET', '/altchain_wallet_database/columns', 'direct', JSON_ONLY, 'alt'),
  r('altchain_wallet_activity', 'GET', '/altchain_wallets/{address}/activity', 'direct', JSON_ONLY, 'alt'),
];

interface Compiled {
  readonly ep: Endpoint;
  readonly re: RegExp;
  readonly names: readonly string[];
}

const COMPILED: readonly Compiled[] = ROUTES.map((ep) => {
  const names: string[] = [];
  const pattern = ep.path
    .split(/(\{[^}]+\})/u)
    .map((part) => {
      const name = /^\{([^}]+)\}$/u.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\{}]/gu, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { ep, re: new RegExp(`^${pattern}/?$`, 'u'), names };
});

export type Routed =
  | { readonly kind: 'found'; readonly ep: Endpoint; readonly params: Readonly<Record<string, string>> }
  /** The path exists with another method. */
  | { readonly kind: 'wrongMethod'; readonly ep: Endpoint }
  | { readonly kind: 'none' };

/**
 * The route of a request. Path parameters come back decoded; a malformed %-escape in one
 * throws URIError (the caller answers 400: the path is not valid URL encoding).
 */
export function routeOf(method: string, pathname: string): Routed {
  let other: Endpoint | undefined;
  for (const c of COMPILED) {
    const m = c.re.exec(pathname);
    if (!m) continue;
    if (c.ep.method !== method) {
      other ??= c.ep;
      continue;
    }
    return { kind: 'found', ep: c.ep, params: Object.fromEntries(c.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])) };
  }
  return other ? { kind: 'wrongMethod', ep: other } : { kind: 'none' };
}

const BY_ID = new Map(ROUTES.map((x) => [x.id, x]));

/** The endpoint with this id; throws for an unknown id (a programming error). */
export function endpointById(id: string): Endpoint {
  const x = BY_ID.get(id);
  if (!x) throw new Error(`no sandbox route ${id}`);
  return x;
}
