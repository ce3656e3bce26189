/**
 * What the sandbox charges, transcribed from the spec on its own (§8.2 queued prices, §4.2
 * direct prices, §4.3 rule 5 "credit costs of these endpoints equal those of the first-chain
 * endpoints"). It deliberately shares nothing with the client's price rules
 * (src/core/spec/catalog.ts, src/core/money/pricing.ts): the contract test compares the client's quote
 * with what this server takes, and that comparison only means something if the two sides can
 * disagree.
 */

/** How one endpoint is billed, in the spec's own words. */
type Price =
  /** Account endpoints and the column lists (§4.1 account, §4.2, §8.2 last row). */
  | { readonly kind: 'free' }
  /** "N" per call. */
  | { readonly kind: 'perCall'; readonly credits: number }
  /** "N per wallet" / "N per token": per distinct entry of the list parameter `list`. */
  | { readonly kind: 'perListed'; readonly list: string; readonly credits: number }
  /** "100 credits per matching address, whatever the limit; 100 flat when nothing matches" (§4.2). */
  | { readonly kind: 'perMatch'; readonly credits: number; readonly whenNone: number }
  /** "100 credits per address returned" (§4.2, token creators). */
  | { readonly kind: 'perReturned'; readonly credits: number }
  /** "1 credit per page" (§4.2, activity). */
  | { readonly kind: 'perPage'; readonly credits: number };

const free: Price = { kind: 'free' };
const perCall = (credits: number): Price => ({ kind: 'perCall', credits });
const perWallet = (credits: number): Price => ({ kind: 'perListed', list: 'wallets', credits });
const perToken = (credits: number): Price => ({ kind: 'perListed', list: 'tokens', credits });

/** The price of every endpoint, by id. */
export const PRICES: Readonly<Record<string, Price>> = {
  // §8.2, in the spec's order
  pnl: perWallet(5),
  toptraders: perToken(100),
  earlybuyers: perToken(50),
  alltraders: perToken(150),
  athmcap: perToken(100),
  trending: perCall(50),
  migratedtokens: perCall(100),
  mcaptokens: perCall(500),
  mcap: perCall(500),
  timestamp: perCall(500),
  buysellfilter: perCall(1_000),
  // One price for the whole list of tokens and windows: the spec gives 100, not "per token".
  tokensoverlap: perCall(100),
  firstbuysanalyze: perCall(1_000),
  botwallets: perCall(500),
  dexwallets: perCall(500),
  programstats: perCall(50),
  programswaps: perCall(500),
  lookuptablestats: perCall(50),
  lookuptableswaps: perCall(500),
  findaddress: perCall(500),
  request: free,
  requests: free,
  credits: free,
  reset_ip: free,
  // §4.2
  wallet_database: { kind: 'perMatch', credits: 100, whenNone: 100 },
  wallet_database_columns: free,
  token_creators: { kind: 'perReturned', credits: 100 },
  token_creator: perCall(100),
  wallet_activity: { kind: 'perPage', credits: 1 },
  // §4.3 rule 5: as on the first chain.
  altchain_dexwallets: perCall(500), // as /dexwallets
  altchain_pnlplus: perWallet(5), // as /pnl
  // The spec gives no first-chain twin for "all metrics for one wallet, answered immediately";
  // we read it as /pnl on a list of one wallet: 5 credits (the client's catalog reads it the same way).
  altchain_pnl: perCall(5),
  altchain_wallet_database: { kind: 'perMatch', credits: 100, whenNone: 100 }, // as /wallet_database
  altchain_wallet_database_columns: free,
  altchain_wallet_activity: { kind: 'perPage', credits: 1 }, // as /wallets/{address}/activity
};

/** What the answer tells that a price needs: matches found, creators returned, pages read. */
interface Outcome {
  readonly matches?: number;
  readonly returned?: number;
  readonly pages?: number;
}

/** The price of an endpoint; throws for an id without one (a programming error). */
function priceOf(id: string): Price {
  const p = PRICES[id];
  if (!p) throw new Error(`no sandbox price for ${id}`);
  return p;
}

/**
 * The credits a call costs, from its validated input (lists already de-duplicated) and, for
 * the direct rules, what the answer held. Throws when a rule's count is missing: charging a
 * guess would hide a bug.
 */
export function chargeFor(id: string, input: Readonly<Record<string, unknown>>, outcome: Outcome = {}): number {
  const p = priceOf(id);
  const need = (n: number | undefined, what: string): number => {
    if (n === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${id}: the charge needs ${what}`);
    return n;
  };
  switch (p.kind) {
    case 'free':
      return 0;
    case 'perCall':
      return p.credits;
    case 'perListed': {
      const list = input[p.list];
      if (!Array.isArray(list)) throw new Error(`${id}: the charge needs the list ${p.list}`);
      return list.length * p.credits;
    }
    case 'perMatch': {
      const matches = need(outcome.matches, 'the match count');
      return matches === 0 ? p.whenNone : matches * p.credits;
    }
    case 'perReturned':
      return need(outcome.returned, 'the count returned') * p.credits;
    case 'perPage':
      return need(outcome.pages, 'the pages read') * p.credits;
  }
}
