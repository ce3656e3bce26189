/**
 * Long input lists kept in files of the extension's storage folder instead of the window's state.
 * VS Code calls activate() only once the extension's whole globalState has crossed from the
 * workbench to the extension host (`_loadExtensionContext`), and every write sends all of it back:
 * with a job record keeping each job's inputs whole, 20 MB of finished jobs (forty PnL jobs of 10,000
 * wallets) held activation back 4.4 s against 0.14 s for an empty list (bench/activationBench.ts,
 * WA_BENCH_SEED_MB). So a list longer than KEEP_INLINE_ITEMS goes to `inputs/<sha-256 of its JSON>.json`
 * in the storage folder, written atomically by the one file writer (core/files), and the record keeps
 * what the server's history keeps of a long list, `{ count, first }`, plus the file's name: summaries
 * count it as before, and the whole list is read back from the file when a job needs it (its download's
 * sidecar, a re-run, Copy as Code). A file is named by its content and never rewritten, so windows
 * sharing the folder never race on it; it is written before the state that names it, so a crash in
 * between leaves the record whole, as before. Pure Node: no vscode import.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleInside, touchInside, writeNewInside } from '../files/writeInside';
import { packedJsonPieces } from '../spec/jsonText';
import { isPackedList, type PackedList } from '../spec/packedList';

/** Lists up to this many items stay in the record (a few addresses, a token or two). */
export const KEEP_INLINE_ITEMS = 100;
/** How many of a kept list's items the record shows, as the server's shortened lists do. */
const FIRST_ITEMS = 3;
/** The folder inside the storage folder. */
const FOLDER = 'inputs';
const FILE_NAME = /^[0-9a-f]{64}\.json$/u;
/**
 * A file no saved record or recent input names is deleted once it is this old: a window writes a
 * list's file before the state that names it, and a file found already there (the same list again)
 * is touched, so no window deletes a file another is about to name.
 */
const UNNAMED_KEPT_MS = 24 * 60 * 60 * 1000;

/** A long list as a record keeps it: its length, its first items, and the file holding all of it. */
interface KeptList {
  readonly count: number;
  readonly first: readonly unknown[];
  readonly file: string;
}

function keptList(v: unknown): KeptList | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Partial<KeptList>;
  return typeof o.count === 'number' && Array.isArray(o.first) && typeof o.file === 'string' && FILE_NAME.test(o.file) ? (o as KeptList) : undefined;
}

/** A list an input keeps in a file: an array, or a list carried packed (spec/packedList.ts), longer than KEEP_INLINE_ITEMS. */
type LongList = unknown[] | PackedList;
const isLong = (v: unknown): v is LongList => (Array.isArray(v) || isPackedList(v)) && v.length > KEEP_INLINE_ITEMS;

/**
 * A list's JSON text (the array's, byte for byte) and the sha-256 of it. A packed list's is
 * written and hashed a slice a turn (its JSON and hash in one turn were 18 ms of the host's loop
 * for 100,000 addresses: issue 34 item 4), then joined once for the file.
 */
async function textAndHash(list: LongList): Promise<{ text: string; hash: string }> {
  if (!isPackedList(list)) {
    const text = JSON.stringify(list);
    return { text, hash: createHash('sha256').update(text).digest('hex') };
  }
  const hash = createHash('sha256');
  const pieces: string[] = [];
  await packedJsonPieces(list, (t) => {
    hash.update(t);
    pieces.push(t);
  });
  return { text: pieces.join(''), hash: hash.digest('hex') };
}

/** Whether any of the inputs is a list too long to keep in a record. */
export function hasLongList(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).some(isLong);
}

/** The files the inputs' kept lists name. */
export function filesNamedBy(inputs: Record<string, unknown>): string[] {
  return Object.values(inputs).flatMap((v) => keptList(v)?.file ?? []);
}

/** Whether any of the inputs is a list kept in a file. */
function hasKeptList(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).some((v) => keptList(v) !== undefined);
}

/** The long input lists of one storage folder: written out before a record is saved, read back when a job needs them. */
export class InputFiles {
  /** Each list's file being written (by the list itself: a job's inputs are saved again at each change, hashed once). */
  private readonly writing = new WeakMap<LongList, Promise<KeptList>>();
  /** Each list whose file is written. */
  private readonly written = new WeakMap<LongList, KeptList>();

  /** `root`: the extension's storage folder (context.globalStorageUri). */
  constructor(private readonly root: string) {}

  /** Writes the files of the inputs' long lists that are not written yet (a list whose file cannot be written is left out). */
  async write(inputs: Record<string, unknown>): Promise<void> {
    for (const v of Object.values(inputs)) if (isLong(v)) await this.keepList(v).catch(() => undefined);
  }

  /**
   * The inputs as a record keeps them, at once (no await between a read of the saved list and its
   * write): each long list whose file is written as its kept form, any other as it is (whole, as before).
   */
  keptNow(inputs: Record<string, unknown>): Record<string, unknown> {
    if (!hasLongList(inputs)) return inputs;
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const [k, v] of Object.entries(inputs)) {
      const kept = isLong(v) ? this.written.get(v) : undefined;
      changed ||= kept !== undefined;
      out[k] = kept ?? v;
    }
    // The same object when nothing is kept yet: its id (core/storage.ts) is then computed once.
    return changed ? out : inputs;
  }

  /** The inputs whole: each kept list read back from its file; one whose file is gone or unreadable stays as kept. */
  async whole(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!hasKeptList(inputs)) return inputs;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(inputs)) {
      const kept = keptList(v);
      out[k] = kept ? ((await this.read(kept)) ?? v) : v;
    }
    return out;
  }

  private keepList(list: LongList): Promise<KeptList> {
    let p = this.writing.get(list);
    if (!p) {
      p = (async () => {
        const { text, hash } = await textAndHash(list);
        const file = `${hash}.json`;
        // False when the name is taken: the same content, by another save or another window; it is
        // touched then, so a window cleaning the folder does not take it for an old one no state names.
        if (!(await writeNewInside(this.root, `${FOLDER}/${file}`, text))) await touchInside(this.root, `${FOLDER}/${file}`);
        const kept = { count: list.length, first: isPackedList(list) ? list.items(0, FIRST_ITEMS) : list.slice(0, FIRST_ITEMS), file };
        this.written.set(list, kept);
        return kept;
      })();
      // A failed write is tried again at the next save; until then the record keeps the list whole.
      p.catch(() => this.writing.delete(list));
      this.writing.set(list, p);
    }
    return p;
  }

  /**
   * Deletes the files no state names (`named`: the files the saved jobs and recent inputs name, read
   * after this window moved its old lists) once they are UNNAMED_KEPT_MS old: a job trimmed from the
   * records, an input no longer recent. How many it deleted.
   */
  prune(named: ReadonlySet<string>, now = Date.now()): Promise<number> {
    return removeStaleInside(this.root, FOLDER, (name) => named.has(name) || !FILE_NAME.test(name), UNNAMED_KEPT_MS, now);
  }

  private async read(kept: KeptList): Promise<unknown[] | undefined> {
    try {
      const list: unknown = JSON.parse(await readFile(join(this.root, FOLDER, kept.file), 'utf8'));
      return Array.isArray(list) && list.length === kept.count ? list : undefined;
    } catch {
      return undefined;
    }
  }
}
