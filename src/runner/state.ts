/**
 * Where the runner keeps what must outlive one run, beside the pipeline's results: the jobs it
 * follows (a job paid for before a crash is adopted, not paid again), the spend ledger, and the
 * memory of paid calls that may have been charged. It is the window's globalState for a host with
 * no window: one JSON file, `runner-state.json` in `<name>.results/`, read once and written whole
 * after every change through the one owner of writing (core/files/writeInside.ts: never through a
 * link). The core's Storage (core/storage.ts) stands on it unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceInside } from '../core/files/writeInside';
import { storageOn, type Storage } from '../core/storage';

const STATE_FILE = 'runner-state.json';

/** The Storage of a results folder, and a promise that settles once every write so far is on disk. */
export function stateStorage(resultsDir: string): { readonly storage: Storage; readonly flushed: () => Promise<void> } {
  const values = new Map<string, unknown>(Object.entries(readState(join(resultsDir, STATE_FILE))));
  let writing: Promise<void> = Promise.resolve();
  const store = {
    get: <T>(key: string): T | undefined => values.get(key) as T | undefined,
    update: (key: string, value: unknown): Promise<void> => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      const text = `${JSON.stringify(Object.fromEntries(values), null, 2)}\n`;
      writing = writing.then(() => replaceInside(resultsDir, STATE_FILE, text)).then(() => undefined);
      return writing;
    },
  };
  return { storage: storageOn(store), flushed: () => writing };
}

function readState(file: string): Record<string, unknown> {
  try {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  } catch {
    // No state yet (a first run), or one a person broke: start clean; the server's history is the record.
    return {};
  }
}
