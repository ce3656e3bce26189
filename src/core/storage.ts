/**
 * Every value the extension keeps in VS Code's globalState or workspaceState, in one typed map
 * (name, scope, value type), and the one way to read and write them. VS Code hands every window
 * the same globalState and can answer a read with an older value for a moment after a write
 * (the echo of an earlier write arriving late), so a plain read-modify-write can lose what this
 * window had just written: lists go through MergedList and records through MergedRecord
 * (core/mergedList.ts), which lay this window's own writes over what is read. A value written
 * whole (the active profile, a table's layout) is set, never read-modified-written.
 *
 * A test (test/unit/house/owners.test.ts) fails when another file touches globalState or workspaceState
 * or spells one of these keys. Pure: no vscode import; VS Code's Memento fits KeyValueStore.
 */
import { MergedList, MergedRecord, type MergedListOptions } from './mergedList';

/** The part of VS Code's Memento used here (core never imports vscode). */
interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

type StorageScope = 'global' | 'workspace';

/** One stored value: its key, its scope and (as a type only) what it holds. */
export interface StorageKey<T> {
  readonly key: string;
  readonly scope: StorageScope;
  /** Never set: carries the value's type. */
  readonly value?: T;
}

/** A family of keys, one per member (an endpoint, a table scope): prefix + member. */
interface StorageFamily<T> {
  readonly prefix: string;
  readonly scope: StorageScope;
  readonly value?: T;
}

const global = <T>(key: string): StorageKey<T> => ({ key, scope: 'global' });
const globalFamily = <T>(prefix: string): StorageFamily<T> => ({ prefix, scope: 'global' });

/** A remembered input of an endpoint, with when it was last used. */
interface RecentInput {
  readonly input: Record<string, unknown>;
  readonly at: number;
}

/**
 * Every single key. Values read back are what some version of the extension wrote, so the
 * owners of unchecked shapes (profiles, saved views, ledger, unsettled calls) parse them on read.
 */
export const StorageKeys = {
  /**
   * Jobs tracked (core/jobs/store.ts merges by requestId and rev itself). Their shape is the jobs'
   * own (core/jobs/job.ts), so this floor, below the jobs, does not name it.
   */
  jobs: global<unknown[]>('walletAnalytics.jobs'),
  /** The spend ledger: charges and holds (core/money/spendLedger.ts), a MergedList. */
  ledger: global<unknown[]>('walletAnalytics.ledger'),
  /** What AI agents spent within their allowance, and their holds (core/money/agentAllowance.ts), a MergedList. */
  agentLedger: global<unknown[]>('walletAnalytics.agentLedger'),
  /** Paid calls that ended without a clear answer (core/money/ambiguousCalls.ts), a MergedList. */
  ambiguousCalls: global<unknown[]>('walletAnalytics.ambiguousCalls'),
  /** The added profiles (core/transport/profiles.ts parses them), a MergedList. */
  profiles: global<unknown[]>('walletAnalytics.profiles'),
  /** The profile a new window starts in (written whole). */
  activeProfile: global<string>('walletAnalytics.activeProfile'),
  /** Per profile scope: when its first balance was read, from which 30-day resets are estimated. */
  quotaAnchors: global<Record<string, number>>('walletAnalytics.quotaAnchor'),
  /** Credits notifications shown, `<scope>|<period>|<level>` → when: each is shown once across windows. */
  creditsWarned: global<Record<string, number>>('walletAnalytics.creditsWarned'),
  /** Ignored workspace settings already said, `<file>|<keys>` → when. */
  ignoredWorkspaceSettings: global<Record<string, number>>('walletAnalytics.ignoredWorkspaceSettings'),
  /** The language Copy as Code last used (written whole). */
  copyAsCodeLanguage: global<string>('walletAnalytics.copyAsCode.language'),
  /** Saved table views, per table scope (core/table/savedViews.ts parses them). */
  savedViews: global<Record<string, unknown>>('walletAnalytics.table.savedViews'),
} as const;

/** Every family of keys. */
export const StorageFamilies = {
  /** An endpoint's recent inputs (member: the endpoint id), newest last. */
  recentInputs: globalFamily<RecentInput[]>('walletAnalytics.recent.'),
  /** A table's column layout (member: the table scope, an endpoint id or a hash of its columns; written whole). */
  tableLayout: globalFamily<unknown>('walletAnalytics.table.layout.'),
} as const;

/** The key of one member of a family. */
export function memberKey<T>(family: StorageFamily<T>, member: string): StorageKey<T> {
  return { key: family.prefix + member, scope: family.scope };
}

/** How many inputs an endpoint remembers. */
export const RECENT_INPUTS_MAX = 5;

/**
 * A recent input's id, by the input itself: its JSON, written once per input. The ids were written
 * again for every recent input at each call (a list of 100,000 addresses is 4.7 MB of JSON, 40–100 ms
 * at load 13 each, up to six in one turn of the host's loop: issue 34 item 4); the list read back is
 * the objects written, so each is written once. The text lives as long as its input (a hash would
 * keep less, but node:crypto is not for the activation path this file is on: thinEntry.test).
 */
const inputIds = new WeakMap<object, string>();
function inputId(input: Record<string, unknown>): string {
  let id = inputIds.get(input);
  if (id === undefined) {
    id = JSON.stringify(input);
    inputIds.set(input, id);
  }
  return id;
}

const isRecentInput = (v: unknown): v is RecentInput =>
  typeof v === 'object' && v !== null && typeof (v as RecentInput).at === 'number' && typeof (v as RecentInput).input === 'object' && (v as RecentInput).input !== null;

/**
 * The Storage of a host with one store for both scopes (the command-line runner's state file,
 * src/runner/state.ts): the same typed keys and merged lists, with no window around them.
 */
export function storageOn(store: KeyValueStore): Storage {
  return new Storage({ globalState: store, workspaceState: store });
}

/**
 * Where long input lists go instead of the state, and come back from (core/jobs/inputFiles.ts's
 * InputFiles, over the extension's storage folder): VS Code sends the whole globalState to the host
 * before it calls activate(), so a remembered list of 10,000 wallets is not kept in it.
 */
export interface ListFiles {
  /** Writes the files of the inputs' long lists (before the state that names them). */
  write(inputs: Record<string, unknown>): Promise<void>;
  /** The inputs as the state keeps them, at once: each long list whose file is written named by it. */
  keptNow(inputs: Record<string, unknown>): Record<string, unknown>;
  /** The inputs whole, each kept list read back from its file. */
  whole(inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Both scopes' stores, as a window has them (VS Code's ExtensionContext fits). */
interface Stores {
  readonly globalState: KeyValueStore;
  readonly workspaceState: KeyValueStore;
}

/** The stored value, as stored: Storage.get, for the thin entry (src/vscode/base/firstAnswer.ts), which reads one key without the merged lists. */
export function readStored<T>(stores: Stores, k: StorageKey<T>): T | undefined {
  return (k.scope === 'global' ? stores.globalState : stores.workspaceState).get<T>(k.key);
}

/** globalState and workspaceState behind the typed keys; one per window, so each merged value has one memory of this window's writes. */
export class Storage {
  private readonly merged = new Map<string, MergedList<unknown>>();
  private readonly records = new Map<string, MergedRecord<unknown>>();

  /** `lists`: the window's (recent inputs' long lists in files); the runner's state file keeps them whole. */
  constructor(
    private readonly stores: Stores,
    private readonly lists?: ListFiles,
  ) {}

  private store(scope: StorageScope): KeyValueStore {
    return scope === 'global' ? this.stores.globalState : this.stores.workspaceState;
  }

  /** The stored value, as stored. */
  get<T>(k: StorageKey<T>): T | undefined {
    return readStored(this.stores, k);
  }

  /** Writes a value whole (no read before it, so nothing to merge); undefined removes it. */
  async set<T>(k: StorageKey<T>, value: T | undefined): Promise<void> {
    await this.store(k.scope).update(k.key, value);
  }

  /** The list kept under k, merged with this window's writes (the first caller's options hold for the window). */
  list<T>(k: StorageKey<unknown[]>, o: Omit<MergedListOptions<T>, 'read' | 'write'> & { parse(raw: unknown): readonly T[]; saved?(item: T): unknown }): MergedList<T> {
    const id = `${k.scope}:${k.key}`;
    let l = this.merged.get(id) as MergedList<T> | undefined;
    if (!l) {
      const saved = o.saved;
      l = new MergedList<T>({ ...o, read: () => o.parse(this.get(k)), write: (items) => this.set(k, saved ? items.map((t) => saved(t)) : items) });
      this.merged.set(id, l as MergedList<unknown>);
    }
    return l;
  }

  /** The record kept under k, merged with this window's writes, entry by entry. */
  record<V>(k: StorageKey<Record<string, V>>, max = 1_000): MergedRecord<V> {
    const id = `${k.scope}:${k.key}`;
    let r = this.records.get(id) as MergedRecord<V> | undefined;
    if (!r) {
      r = new MergedRecord<V>({ read: () => this.get(k), write: (value) => this.set(k, value), max });
      this.records.set(id, r as MergedRecord<unknown>);
    }
    return r;
  }

  /** An endpoint's recent inputs, newest first, whole (long lists read back from their files). */
  recentInputs(endpointId: string): Promise<Record<string, unknown>[]> {
    const inputs = this.recentList(endpointId).all().reverse().map((r) => r.input);
    const lists = this.lists;
    return lists ? Promise.all(inputs.map((i) => lists.whole(i))) : Promise.resolve(inputs);
  }

  /** Remembers an input of an endpoint as its newest (the same input once). */
  async rememberInput(endpointId: string, input: Record<string, unknown>, now = Date.now()): Promise<void> {
    // The files first: the state that names them is written after.
    await this.lists?.write(input);
    await this.recentList(endpointId).put({ input, at: now });
  }

  /**
   * Moves the long lists that recent inputs saved before this version keep whole into files, once
   * (the endpoints' ids: the family's members). The saved list is read again after the files are
   * written, with no await before its write, so an input another window remembered meanwhile stays.
   * How many endpoints' lists it rewrote.
   */
  async moveRecentLists(endpointIds: readonly string[]): Promise<number> {
    const lists = this.lists;
    if (!lists) return 0;
    let moved = 0;
    for (const id of endpointIds) {
      const k = memberKey(StorageFamilies.recentInputs, id);
      const raw = this.get(k);
      // Writes only what is long and not written yet.
      for (const r of Array.isArray(raw) ? raw.filter(isRecentInput) : []) await lists.write(r.input);
      const now = this.get(k);
      if (!Array.isArray(now)) continue;
      const kept = now.map((r: unknown) => (isRecentInput(r) ? { input: lists.keptNow(r.input), at: r.at } : r));
      if (kept.every((r, i) => !isRecentInput(r) || r.input === (now[i] as RecentInput).input)) continue;
      await this.set(k, kept);
      moved++;
    }
    return moved;
  }

  /** Every input the state keeps as saved: the jobs' records and these endpoints' recent inputs (what names a long list's file). */
  storedInputs(endpointIds: readonly string[]): Record<string, unknown>[] {
    const jobs: unknown = this.get(StorageKeys.jobs);
    const out: Record<string, unknown>[] = [];
    const isInputs = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    for (const j of Array.isArray(jobs) ? (jobs as unknown[]) : []) if (isInputs(j) && isInputs(j.inputs)) out.push(j.inputs);
    for (const id of endpointIds) {
      const raw = this.get(memberKey(StorageFamilies.recentInputs, id));
      for (const r of Array.isArray(raw) ? raw.filter(isRecentInput) : []) out.push(r.input);
    }
    return out;
  }

  private recentList(endpointId: string): MergedList<RecentInput> {
    const lists = this.lists;
    // As saved: a long list named by its file; the id is of that form too, so a list read back and this window's whole copy are one input.
    const saved = (r: RecentInput): RecentInput => (lists ? { input: lists.keptNow(r.input), at: r.at } : r);
    return this.list<RecentInput>(memberKey(StorageFamilies.recentInputs, endpointId), {
      parse: (raw) => (Array.isArray(raw) ? raw.filter(isRecentInput) : []),
      saved,
      id: (r) => inputId(saved(r).input),
      order: (a, b) => a.at - b.at,
      max: RECENT_INPUTS_MAX,
    });
  }
}
