/**
 * A list kept in a store every window shares (VS Code's globalState), that a stale read can never
 * shrink. globalState replaces an extension's whole state with the value a storage event carries,
 * and the echo of an earlier write can arrive after a later one: for a moment `get` hands back an
 * older list. A read-modify-write in that moment dropped what the later write had added (seen with
 * jobs in CI). So each window keeps what it added and what it removed in memory, and every read
 * and write is the union of the saved list and its own additions, minus its own removals, by id.
 * Another window's additions arrive through the saved list; its removals, only once this window
 * forgets its own copy (entries this window added are bounded by `max`, oldest first).
 * Pure: the store is two functions. MergedRecord, below, does the same for a record of named values.
 */

export interface MergedListOptions<T> {
  read(): readonly T[];
  write(items: T[]): PromiseLike<void>;
  id(item: T): string;
  /** Sort order of the list (what `max` keeps is the last `max` in this order). */
  order(a: T, b: T): number;
  max: number;
}

export class MergedList<T> {
  private readonly added = new Map<string, T>();
  private readonly removed = new Set<string>();

  constructor(private readonly o: MergedListOptions<T>) {}

  /** The saved list, with this window's additions and without its removals, in order, the last `max`. */
  all(): T[] {
    const byId = new Map<string, T>();
    for (const t of this.o.read()) byId.set(this.o.id(t), t);
    // This window's copy of an item it wrote wins over a saved one, which may be the stale read.
    for (const [id, t] of this.added) byId.set(id, t);
    for (const id of this.removed) byId.delete(id);
    return [...byId.values()].sort(this.o.order).slice(-this.o.max);
  }

  /** Adds or replaces an item (by id) and saves the merged list. */
  async put(item: T): Promise<void> {
    const id = this.o.id(item);
    this.removed.delete(id);
    this.added.delete(id);
    this.added.set(id, item);
    // Bounded memory: the oldest additions of this window are left to the saved list.
    while (this.added.size > this.o.max) {
      const first = this.added.keys().next().value;
      if (first === undefined) break;
      this.added.delete(first);
    }
    await this.o.write(this.all());
  }

  /** Removes an item by id (if this window or the saved list has it) and saves the merged list. */
  async remove(id: string): Promise<void> {
    this.added.delete(id);
    this.removed.add(id);
    if (this.removed.size > this.o.max) {
      const first = this.removed.values().next().value;
      if (first !== undefined) this.removed.delete(first);
    }
    await this.o.write(this.all());
  }
}

export interface MergedRecordOptions<V> {
  /** The saved value as stored (anything: a value that is not a plain object reads as empty). */
  read(): unknown;
  write(record: Record<string, V>): PromiseLike<void>;
  /** How many of this window's own entries (set or deleted) are remembered over the saved value. */
  max: number;
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record (one value per name) kept in the same shared store, with the same promise as MergedList:
 * a stale read never undoes this window's own writes. Each window keeps the entries it set or
 * deleted; every read and write is the saved record with those laid over it. A read-modify-write
 * (modify) writes back only what it changed, entry by entry, so an entry another window wrote
 * meanwhile comes through. Pure: the store is two functions.
 */
export class MergedRecord<V> {
  /** This window's entries, oldest first: a value it set, or undefined for one it deleted. */
  private readonly own = new Map<string, { readonly value: V } | undefined>();

  constructor(private readonly o: MergedRecordOptions<V>) {}

  /** The saved record with this window's own entries over it. */
  all(): Record<string, V> {
    const saved = this.o.read();
    const out = new Map<string, V>(isPlainRecord(saved) ? (Object.entries(saved) as [string, V][]) : []);
    for (const [k, v] of this.own) {
      if (v === undefined) out.delete(k);
      else out.set(k, v.value);
    }
    // fromEntries defines own properties, so a name such as "__proto__" is data like any other.
    return Object.fromEntries(out) as Record<string, V>;
  }

  get(name: string): V | undefined {
    const all = this.all();
    return Object.hasOwn(all, name) ? all[name] : undefined;
  }

  /** Sets one entry and saves the merged record. */
  set(name: string, value: V): Promise<void> {
    this.remember(name, { value });
    return this.save();
  }

  /** Deletes one entry and saves the merged record. */
  delete(name: string): Promise<void> {
    this.remember(name, undefined);
    return this.save();
  }

  /** A read-modify-write: `change` gets the merged record and returns the new one; only the entries it changed are this window's. */
  modify(change: (all: Readonly<Record<string, V>>) => Readonly<Record<string, V>>): Promise<void> {
    const before = this.all();
    const after = change(before);
    for (const [k, v] of Object.entries(after)) if (!Object.hasOwn(before, k) || JSON.stringify(before[k]) !== JSON.stringify(v)) this.remember(k, { value: v });
    for (const k of Object.keys(before)) if (!Object.hasOwn(after, k)) this.remember(k, undefined);
    return this.save();
  }

  private remember(name: string, entry: { readonly value: V } | undefined): void {
    this.own.delete(name);
    this.own.set(name, entry);
    // Bounded memory: the oldest of this window's entries are left to the saved record.
    while (this.own.size > this.o.max) {
      const first = this.own.keys().next().value;
      if (first === undefined) break;
      this.own.delete(first);
    }
  }

  private async save(): Promise<void> {
    await this.o.write(this.all());
  }
}
