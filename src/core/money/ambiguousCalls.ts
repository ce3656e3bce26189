/**
 * Paid calls that ended without a clear answer (no answer in time, a connection lost after
 * sending, a 5xx): they may have been charged. They are remembered per service, endpoint and
 * inputs for a day, in globalState so every window sees them, and running the same call again
 * first asks for an explicit "may charge again".
 */
import { createHash } from 'node:crypto';
import { arrayPieces, packedJsonPieces } from '../spec/jsonText';
import { isPackedList } from '../spec/packedList';
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

/**
 * `stable(v)`'s text, handed to `put` in pieces, the loop given back between slices of a long array
 * (a list of 100,000 addresses: its id was one stretch of 100–600 ms at load 13, before a paid
 * call's price and again after its send; issue 34 item 4). The same text: a slice of items none of
 * which is an object is JSON.stringify's, which writes each such item as stable does.
 */
async function stablePieces(v: unknown, put: (text: string) => void): Promise<void> {
  // A long list carried packed (spec/packedList.ts): its items are strings, so stable's text is the array's JSON.
  if (isPackedList(v)) {
    await packedJsonPieces(v, put);
    return;
  }
  if (Array.isArray(v)) {
    await arrayPieces(v, put, (part) => (part.some((x) => x !== null && typeof x === 'object') ? part.map(stable).join(',') : JSON.stringify(part).slice(1, -1)));
    return;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    put('{');
    let first = true;
    for (const k of Object.keys(o).sort()) {
      put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      await stablePieces(o[k], put);
    }
    put('}');
    return;
  }
  put(stable(v));
}

/** The id of a call: a hash of its service, endpoint and inputs' stable text, hashed as it is written. */
async function idOf(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<string> {
  const hash = createHash('sha256').update(`${baseUrl}\n${endpointId}\n`);
  await stablePieces(input, (text) => hash.update(text));
  return hash.digest('hex').slice(0, 32);
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
  async lastAt(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<number | undefined> {
    const id = await idOf(baseUrl, endpointId, input);
    return this.entries().find((e) => e.id === id)?.at;
  }

  async remember(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<void> {
    const id = await idOf(baseUrl, endpointId, input);
    await this.list.put({ id, at: this.now() });
  }

  async forget(baseUrl: string, endpointId: string, input: Record<string, unknown>): Promise<void> {
    const id = await idOf(baseUrl, endpointId, input);
    if (this.list.all().some((e) => e.id === id)) await this.list.remove(id);
  }
}
