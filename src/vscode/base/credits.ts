import * as vscode from 'vscode';
import { MergedList } from '../../core/mergedList';
import { parseScope } from '../../core/profiles';
import { nextReset } from '../../core/quota';

/** One paid call the extension made, for the per-endpoint spend breakdown. */
export interface SpendEntry {
  readonly endpointId: string;
  readonly credits: number;
  readonly at: number;
  readonly baseUrl: string;
  /** The profile scope it was spent under (core/profiles.ts); absent on entries saved before profiles: the Default profile's. */
  readonly scope?: string;
  /** Unique per entry, so windows merge their ledgers (core/mergedList.ts); absent on entries saved before: made from the entry. */
  readonly id?: string;
}

const entryId = (e: SpendEntry): string => e.id ?? `${e.at}:${e.scope ?? e.baseUrl}:${e.endpointId}:${e.credits}`;

const LEDGER_KEY = 'walletAnalytics.ledger';
const ANCHOR_KEY = 'walletAnalytics.quotaAnchor';
const MAX_LEDGER = 5_000;

/**
 * The credits balance (fetched from the free `GET /credits`, cached for a minute), the local
 * ledger of what this extension spent, and the anchor from which 30-day resets are counted; all
 * per profile scope (Connection.scope: a bare base URL for the Default profile, as before profiles).
 */
export class CreditsService implements vscode.Disposable {
  private balance: { value: number; at: number; baseUrl: string } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** The ledger: a stale read of globalState never loses an entry this window wrote. */
  private readonly spent: MergedList<SpendEntry>;

  constructor(
    private readonly state: vscode.Memento,
    private readonly fetchCredits: () => Promise<number>,
    private readonly baseUrl: () => string,
    private readonly periodStartSetting: () => string,
  ) {
    this.spent = new MergedList<SpendEntry>({
      read: () => this.state.get<SpendEntry[]>(LEDGER_KEY, []),
      write: (items) => this.state.update(LEDGER_KEY, items),
      id: entryId,
      order: (a, b) => a.at - b.at,
      max: MAX_LEDGER,
    });
  }

  /** The last balance known for the current base URL, however old. */
  peek(): { value: number; at: number } | undefined {
    return this.balance && this.balance.baseUrl === this.baseUrl() ? this.balance : undefined;
  }

  /** The balance, fetched if the cached one is older than maxAgeMs (GET /credits is free). */
  async get(maxAgeMs = 60_000): Promise<number> {
    const b = this.peek();
    if (b && Date.now() - b.at < maxAgeMs) return b.value;
    return this.refresh();
  }

  async refresh(): Promise<number> {
    const value = await this.fetchCredits();
    const baseUrl = this.baseUrl();
    this.balance = { value, at: Date.now(), baseUrl };
    const anchors = this.state.get<Record<string, number>>(ANCHOR_KEY, {});
    if (anchors[baseUrl] === undefined) await this.state.update(ANCHOR_KEY, { ...anchors, [baseUrl]: Date.now() });
    this.changed.fire();
    return value;
  }

  /** The next monthly reset, and whether it is estimated (no period start set). */
  nextReset(): { date: Date; estimated: boolean } | undefined {
    const setting = Date.parse(this.periodStartSetting());
    if (!Number.isNaN(setting)) return { date: nextReset(setting, Date.now()), estimated: false };
    const anchor = this.state.get<Record<string, number>>(ANCHOR_KEY, {})[this.baseUrl()];
    return anchor === undefined ? undefined : { date: nextReset(anchor, Date.now()), estimated: true };
  }

  /** Records a charge in the local ledger and lowers the cached balance until the next refresh. */
  async record(endpointId: string, credits: number): Promise<void> {
    if (credits <= 0) return;
    const scope = this.baseUrl();
    const at = Date.now();
    const entry: SpendEntry = { endpointId, credits, at, baseUrl: parseScope(scope).baseUrl, scope, id: `${at.toString(36)}-${Math.random().toString(36).slice(2, 10)}` };
    await this.spent.put(entry);
    if (this.balance && this.balance.baseUrl === scope) this.balance = { ...this.balance, value: this.balance.value - credits };
    this.changed.fire();
  }

  ledger(): readonly SpendEntry[] {
    return this.spent.all();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
