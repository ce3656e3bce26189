/**
 * The window's agent allowance (core/money/agentAllowance.ts says what it is: the setting, the UTC
 * day, the agent ledger). This holds the agent ledger, a SpendLedger of its own in the state every
 * window shares, and reads the setting: the language-model tools hold an agent's call against it
 * before the call flow runs and record its charge after, and the Account view shows what is left.
 */
import * as vscode from 'vscode';
import { allowanceBudgets, allowanceState, type AllowanceState } from '../../core/money/agentAllowance';
import { SpendLedger, type SpendEntry } from '../../core/money/spendLedger';
import { StorageKeys, type Storage } from '../../core/storage';
import { readSettings } from './settings';

export class AgentAllowance implements vscode.Disposable {
  private readonly ledger: SpendLedger;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Something was held, spent or released. */
  readonly onDidChange = this.changed.event;

  constructor(storage: Storage) {
    this.ledger = new SpendLedger({
      read: () => (storage.get(StorageKeys.agentLedger) ?? []) as SpendEntry[],
      write: (items) => storage.set(StorageKeys.agentLedger, items),
    });
  }

  /** The allowance today for a scope (read fresh from every window), or undefined when none is set. */
  state(scope: string): AllowanceState | undefined {
    return allowanceState(readSettings().agentAllowancePerDay, this.ledger.all(), scope, Date.now());
  }

  /**
   * Holds `credits` (an agent call's worst known case) against what the allowance leaves, checked
   * afresh: the hold's id, or undefined when the allowance does not cover it (then the person is asked).
   */
  async hold(endpointId: string, credits: number, scope: string): Promise<string | undefined> {
    const perDay = readSettings().agentAllowancePerDay;
    if (perDay <= 0 || credits <= 0) return undefined;
    const h = await this.ledger.hold(endpointId, credits, scope, allowanceBudgets(perDay), undefined);
    this.changed.fire();
    return 'id' in h ? h.id : undefined;
  }

  /** Records what a call made under the allowance charged (its hold shrinks by it). */
  async record(endpointId: string, credits: number, scope: string): Promise<void> {
    await this.ledger.record(endpointId, credits, scope);
    this.changed.fire();
  }

  /** Ends a hold once its call settled. */
  async release(id: string): Promise<void> {
    await this.ledger.release(id);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
