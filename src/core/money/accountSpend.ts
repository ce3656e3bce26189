/**
 * What the account spent, for the budgets and "Spent this period" (issue 35 item 4): the local
 * ledger (what this editor charged, in every window, and its holds) merged with the free request
 * history (`GET /requests`), which lists the paid requests of the whole account: the exported
 * runner's, a bot's, another machine's. A budget that counted only this editor let every other
 * path spend past it.
 *
 * Each charge is counted once. A history record is the same charge as a ledger entry when:
 * 1. the entry carries the record's requestId (a queued submit this editor made, or adopted); else
 * 2. the entry has no requestId the history lists, and has the record's endpoint and credits within
 *    MATCH_WINDOW_MS of its time (a ledger entry written before requestIds were kept, or a charge the
 *    service lists under an id this editor never saw), each entry matching one record at most.
 * The ledger's own entries are always counted (a direct call the history does not list is still
 * spent); a record matched to none is added, as the account's spend from elsewhere. Records
 * without a cost or a readable time say nothing about money and are left out.
 *
 * Pure: the ledger, the history and the scope are arguments.
 */
import type { RequestRecord } from '../spec/wire';

/** One paid call the extension made, for the per-endpoint spend breakdown and the budgets. */
export interface SpendEntry {
  readonly endpointId: string;
  readonly credits: number;
  readonly at: number;
  /** The profile scope it was spent under (core/transport/profiles.ts scopeKey: the profile and its base URL). */
  readonly scope: string;
  /** Unique per entry, so windows merge their ledgers (core/mergedList.ts). */
  readonly id: string;
  /** A call approved and not yet settled (its worst known case): counted by the budgets, not as spend. */
  readonly hold?: boolean;
  /** A queued submit's request id: its record in the request history is this charge, not another. */
  readonly requestId?: string;
  /** Spent by another client of the account (the runner, a bot), read from the request history; never stored. */
  readonly elsewhere?: boolean;
}

/** How far apart the history's time and the ledger's may be for one charge: the submit's round trip and clock skew. */
export const MATCH_WINDOW_MS = 10 * 60_000;

/** The id a history record's spend entry carries (never an id of the ledger's own). */
const historyId = (requestId: string): string => `history:${requestId}`;

/**
 * The ledger (every scope) with `scope`'s history records added where the ledger does not hold
 * their charge already; `history` undefined (not read yet, or unreadable) leaves the ledger as it is.
 */
export function accountSpend(ledger: readonly SpendEntry[], history: readonly RequestRecord[] | undefined, scope: string): SpendEntry[] {
  if (!history?.length) return [...ledger];
  const listed = new Set(history.map((r) => r.requestId));
  const byId = new Set(ledger.filter((e) => e.scope === scope && e.requestId !== undefined).map((e) => e.requestId));
  // Entries that may stand for a record by endpoint, credits and time: charges of this scope whose id the history does not list.
  const loose = ledger.filter((e) => e.scope === scope && !e.hold && (e.requestId === undefined || !listed.has(e.requestId)));
  const used = new Set<SpendEntry>();
  const out = [...ledger];
  for (const r of history) {
    if (r.cost === undefined || r.cost <= 0 || byId.has(r.requestId)) continue;
    const at = r.createdAt === undefined ? Number.NaN : Date.parse(r.createdAt);
    if (Number.isNaN(at)) continue;
    const same = loose
      .filter((e) => !used.has(e) && e.endpointId === r.endpoint && e.credits === r.cost && Math.abs(e.at - at) <= MATCH_WINDOW_MS)
      .sort((a, b) => Math.abs(a.at - at) - Math.abs(b.at - at))[0];
    if (same) {
      used.add(same);
      continue;
    }
    out.push({ endpointId: r.endpoint ?? 'unknown', credits: r.cost, at, scope, id: historyId(r.requestId), requestId: r.requestId, elsewhere: true });
  }
  return out;
}
