/** Small JSON files on disk for the query caches: written atomically, read leniently. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A short, file-name-safe hash of a string. */
export function hashKey(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 24);
}

/** The parsed file, or undefined when it is missing or not JSON (a cache is never worth an error). */
export async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(value)}\n`);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
