/**
 * Paid calls that ended without a clear answer (no answer in time, a connection lost after
 * sending, a 5xx): they may have been charged. They are remembered per service, endpoint and
 * inputs for a day, in globalState so every window sees them, and running the same call again
 * first asks for an explicit "may charge again".
 */
import { createHash } from 'node:crypto';
import type { MergedList } from '../mergedList';
import { StorageKeys, type Storage } from '../storage';

/** How long an unsettled call is remembered. */
const AMBIGUOUS_MEMORY_MS = 24 * 60 * 60 * 1000;
const MAX = 200;

interface Entry {
  readonly id: string;
  readonly at: number;
}

/** JSON with object keys sorted, so the same inputs give the same text. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stable(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function idOf(baseUrl: string, endpointId: string, input: Record<string, unknown>): string {
  return createHash('sha256').update(`${baseUrl}\n${endpointId}\n${stable(input)}`).digest('hex').slice(0, 32);
}

export class AmbiguousCalls {
  /** A stale read of globalState never forgets an unsettled call this window remembered. */
  private readonly list: MergedList<Entry>;

  constructor(
    storage: Storage,
    private readonly now: () => number = Date.now,
  ) {
    this.list = storage.list<Entry>(StorageKeys.ambiguousCalls, {
      parse: (raw) => (Array.isArray(raw) ? (raw as Entry[]) : []),
      id: (e) => e.id,
      order: (a, b) => a.at - b.at,
      max: MAX,
    });
  }

  private entries(): Entry[] {
    const t = this.now();
    return this.list.all().filter((e) => t - e.at >= 0 && t - e.at < AMBIGUOUS_MEMORY_MS);
  }

  /** When the same call last ended unsettled, if within the memory. */
  lastAt(baseUrl: string, endpointId: string, input: Record<string, unknown>): number | undefined {
    const id = idOf(baseUrl, endpointId, input);
    return this.entries().find((e) => e.id === id)?.at;
  }

  async remember(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<void> {
    const id = idOf(baseUrl, endpointId, input);
    await this.list.put({ id, at: this.now() });
  }

  async forget(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<void> {
    const id = idOf(baseUrl, endpointId, input);
    if (this.list.all().some((e) => e.id === id)) await this.list.remove(id);
  }
}
