/**
 * Keys and what hangs on them: the credit balance (one per key, shared by every family,
 * reset to full at the end of each period with no roll-over, §8.1), the ledger of charges,
 * the IP address the key is bound to (§5.3), and the per-key rate limit.
 */
import type { LedgerEntry } from './types';

interface Account {
  balance: number;
  periodStart: number;
  /** The IP the key is bound to; undefined until the first call after start or a reset. */
  ip: string | undefined;
  /** Arrival times (monotonic ms) in the current rate-limit window. */
  recent: number[];
}

export class Accounts {
  private readonly accounts = new Map<string, Account>();
  private readonly entries: LedgerEntry[] = [];

  constructor(
    keys: readonly string[],
    private readonly startBalance: number,
    private readonly periodMs: number,
    private readonly now: () => number,
  ) {
    const t = now();
    for (const k of keys) this.accounts.set(k, { balance: startBalance, periodStart: t, ip: undefined, recent: [] });
  }

  isKey(key: string): boolean {
    return this.accounts.has(key);
  }

  private account(key: string): Account {
    const a = this.accounts.get(key);
    if (!a) throw new Error('unknown key');
    // A new period: the balance goes back to full; what was left is lost (§8.1.2).
    const elapsed = this.now() - a.periodStart;
    if (elapsed >= this.periodMs) {
      a.periodStart += Math.floor(elapsed / this.periodMs) * this.periodMs;
      a.balance = this.startBalance;
    }
    return a;
  }

  /** The key's balance now (after any period reset). */
  balance(key: string): number {
    return this.account(key).balance;
  }

  /** Takes credits at acceptance; the caller has checked the balance covers them. */
  charge(key: string, endpoint: string, credits: number, requestId?: string): void {
    const a = this.account(key);
    if (credits > a.balance) throw new Error('charge above balance');
    a.balance -= credits;
    this.entries.push({ key, endpoint, ...(requestId ? { requestId } : {}), credits, at: this.now() });
  }

  ledger(): readonly LedgerEntry[] {
    return this.entries;
  }

  /** Binds the key to ip on first use; answers the bound ip when it is another one. */
  checkIp(key: string, ip: string): string | undefined {
    const a = this.account(key);
    if (a.ip === undefined) a.ip = ip;
    return a.ip === ip ? undefined : a.ip;
  }

  /** Forgets the key's IP: the next call binds it again. */
  resetIp(key: string): void {
    this.account(key).ip = undefined;
  }

  /** Counts a call against the per-second limit; answers the seconds to wait when over it. */
  rateLimited(key: string, perSecond: number, monotonicMs: number): number | undefined {
    if (perSecond <= 0) return undefined;
    const a = this.account(key);
    while (a.recent.length > 0 && monotonicMs - (a.recent[0] ?? 0) >= 1000) a.recent.shift();
    if (a.recent.length >= perSecond) return Math.max(1, Math.ceil((1000 - (monotonicMs - (a.recent[0] ?? 0))) / 1000));
    a.recent.push(monotonicMs);
    return undefined;
  }
}
