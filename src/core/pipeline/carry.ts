/**
 * A pipeline's results follow it to a new name (issue 35 item 3): after Save As, the next Run All
 * paid for the whole chain again (5,805 credits) because `new.results/` was empty while
 * `old.results/` (or an untitled pipeline's private folder) held every cell's result.
 *
 * The records and the local steps' files are copied into the new folder, never over a file there;
 * a record naming a file of the old folder is rewritten to name its copy. A call's result stays in
 * the results folder, where its record already points. Only records whose result can be read (the
 * rule of readRecord: inside the old folder or `roots`) are carried. The old folder is left as it
 * was: the old file may still be open, or kept.
 */
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { isFileInside, writeNewInside } from '../files/writeInside';
import { readRecord } from './run';

/** Copies `from`'s cell records (and their files inside `from`) into `to`; returns the cells carried. */
export async function carryResults(from: string, to: string, roots: readonly string[] = []): Promise<string[]> {
  if (path.resolve(from) === path.resolve(to)) return [];
  const names = await readdir(from).catch(() => [] as string[]);
  const carried: string[] = [];
  for (const n of names) {
    // A job paid before a run was cancelled: the next run adopts it (free), under the new name too.
    if (n.endsWith('.pending.json')) {
      if (!(await isFileInside([from], path.join(from, n)))) continue;
      if (await writeNewInside(to, n, { copyOf: path.join(from, n) })) carried.push(n.slice(0, -'.pending.json'.length));
      continue;
    }
    // Records (`<cell>.json`); a Wallet Database answer's copy is carried with its record.
    if (!n.endsWith('.json') || n.endsWith('.answer.json')) continue;
    const cell = n.slice(0, -'.json'.length);
    const rec = await readRecord(from, cell, roots);
    if (!rec) continue;
    let resultPath = rec.resultPath;
    if (await isFileInside([from], rec.resultPath)) {
      const rel = path.relative(from, rec.resultPath);
      // A copy never replaces a file the new folder has: a name taken there keeps that file, and the record points to it.
      await writeNewInside(to, rel, { copyOf: rec.resultPath });
      resultPath = path.join(to, rel);
    }
    if (await writeNewInside(to, n, `${JSON.stringify({ ...rec, resultPath }, null, 2)}\n`)) carried.push(cell);
  }
  return carried;
}
