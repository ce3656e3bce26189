/**
 * A list kept in a store every window shares (VS Code's globalState), that a stale read can never
 * shrink. globalState replaces an extension's whole state with the value a storage event carries,
 * and the echo of an earlier write can arrive after a later one: for a moment `get` hands back an
 * older list. A read-modify-write in that moment dropped what the later write had added (seen with
 * jobs in CI). So each window keeps what it added and what it removed in memory, and every read
 * and write is the union of the saved list and its own additions, minus its own removals, by id.
 * Another window's additions arrive through the saved list; its removals, only once this window
 * forgets its own copy (entries this window added are bounded by `max`, oldest first).
 * Pure: the store is two functions.
 */

interface MergedListOptions<T> {
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
