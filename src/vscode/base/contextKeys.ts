import { vscodeApi } from './vscodeLater';
import type { ContextKeys } from './ids';

type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/**
 * Sets the extension's context keys (for `when` clauses) and remembers the last value set.
 * VS Code has no API to read a context key back, so the integration tests read this record;
 * it holds only what was handed to `setContext`, after VS Code accepted it.
 */
export class ContextKeySetter {
  private readonly last = new Map<ContextKey, unknown>();

  /** `onSet` hears each key as it is set, before the set is sent (the entry's early answer stops there: src/vscode/base/firstAnswer.ts). */
  constructor(private readonly onSet?: (key: ContextKey) => void) {}

  async set(key: ContextKey, value: unknown): Promise<void> {
    this.onSet?.(key);
    await vscodeApi().commands.executeCommand('setContext', key, value);
    this.last.set(key, value);
  }

  /** The value last set for key, or undefined if the extension never set it. */
  get(key: ContextKey): unknown {
    return this.last.get(key);
  }
}
