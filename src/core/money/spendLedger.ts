/**
 * The spend ledger: every paid call this extension made (and every call approved and not yet
 * settled, as a hold), in the store every window of the profile shares (VS Code's globalState).
 * It is the record the spend budgets (core/money/budget.ts) are held against, so it is read fresh and
 * merged right before a budget check (core/mergedList.ts: a stale read never loses an entry this
 * window wrote), and written right after a charge. The budgets read it merged with the account's
 * request history (core/money/accountSpend.ts), so what other clients of the key spent counts too.
 * Pure: the store and the history are functions.
 */
import { budgetRefusal, budgetStates, type Budgets, type BudgetState } from './budget';
import { accountSpend, type SpendEntry } from './accountSpend';
import type { RequestRecord } from '../spec/wire';
import { MergedList } from '../mergedList';

export type { SpendEntry } from './accountSpend';

/** The store the ledger lives in (globalState's get/update for one key). */
interface LedgerStore {
  read(): readonly SpendEntry[];
  write(items: SpendEntry[]): PromiseLike<void>;
}

const entryId = (e: SpendEntry): string => e.id;
const MAX_LEDGER = 5_000;
const newId = (at: number): string => `${at.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export class SpendLedger {
  private readonly list: MergedList<SpendEntry>;
  /** The holds this window placed and has not released. */
  private readonly mine = new Set<string>();

  constructor(
    store: LedgerStore,
    private readonly now: () => number = Date.now,
    /** The scope's last request history (the window's one reader), or undefined before it was read. */
    private readonly history: (scope: string) => readonly RequestRecord[] | undefined = () => undefined,
  ) {
    this.list = new MergedList<SpendEntry>({ read: () => store.read(), write: (items) => store.write(items), id: entryId, order: (a, b) => a.at - b.at, max: MAX_LEDGER });
  }

  /** The charges (holds left out), read fresh from the store and merged with this window's. */
  charges(): SpendEntry[] {
    return this.list.all().filter((e) => !e.hold);
  }

  /** Charges and holds, read fresh. */
  all(): SpendEntry[] {
    return this.list.all();
  }

  /** The charges of every scope, with what the scope's request history adds (other clients of the key), each once. */
  spend(scope: string): SpendEntry[] {
    return accountSpend(this.charges(), this.history(scope), scope);
  }

  /**
   * Records a charge under the scope it was spent in. A hold this window placed for the same call
   * shrinks by the charge (gone once the charge reaches it), so a charge and its hold are never
   * counted twice, and a paged read stays held for the pages still to come.
   */
  async record(endpointId: string, credits: number, scope: string, requestId?: string): Promise<void> {
    if (credits <= 0) return;
    const at = this.now();
    const hold = this.list.all().find((e) => e.hold && this.mine.has(e.id) && e.endpointId === endpointId && e.scope === scope);
    if (hold) {
      if (hold.credits > credits) await this.list.put({ ...hold, credits: hold.credits - credits });
      else await this.release(hold.id);
    }
    await this.list.put({ endpointId, credits, at, scope, id: newId(at), ...(requestId !== undefined ? { requestId } : {}) });
  }

  /** Each budget of a scope as it stands now (charges and fresh holds, in every window, and the account's history). */
  budgets(b: Budgets, scope: string, reset: Date | undefined): BudgetState[] {
    return budgetStates(b, accountSpend(this.list.all(), this.history(scope), scope), scope, this.now(), reset);
  }

  /**
   * Holds `credits` against the budgets for a call about to be sent, after checking them afresh
   * (another window may have spent since its price was shown): the hold's id, or the refusal.
   */
  async hold(endpointId: string, credits: number, scope: string, b: Budgets, reset: Date | undefined): Promise<{ id: string } | { refused: string; setting: string }> {
    const over = budgetRefusal(credits, this.budgets(b, scope, reset));
    if (over) return { refused: over.message, setting: over.setting };
    const at = this.now();
    const id = `hold-${newId(at)}`;
    if (credits > 0 && (b.perDay > 0 || b.perPeriod > 0)) {
      this.mine.add(id);
      await this.list.put({ endpointId, credits, at, scope, id, hold: true });
    }
    return { id };
  }

  /** Ends a hold once its call settled (its charges are recorded by then). */
  async release(id: string): Promise<void> {
    if (!this.mine.delete(id)) return;
    await this.list.remove(id);
  }
}
