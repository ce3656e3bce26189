/**
 * Results on disk, read and moved: whether a path exists, the table
 * files of a result folder, which endpoint made a table file and which other files share its
 * extracted `.zip`, and setting a result aside while it is downloaded again.
 * Pure Node: no vscode import.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { sidecarEndpoint } from './meta';
import { endpointFromName, isTableFile, partsOf, sidecarOf } from './names';

/** Whether anything (a file, a folder) is at p. */
export function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

interface ResultInfo {
  /** Endpoint id, when the file is a result of this extension. */
  readonly endpoint?: string;
  /** Table files of the same extracted .zip result (absolute, sorted), or just the file itself. */
  readonly files: readonly string[];
}

/** Table files directly in `dir` or one level down, sorted, sidecars left out. */
export async function tableFilesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isFile() && isTableFile(e.name)) out.push(p);
    else if (e.isDirectory()) {
      for (const f of await fs.readdir(p, { withFileTypes: true }).catch(() => [])) {
        if (f.isFile() && isTableFile(f.name)) out.push(path.join(p, f.name));
      }
    }
  }
  // CSV first (the data), then lists and JSON; by name within a kind.
  const rank = (f: string): number => (/\.csv$/iu.test(f) ? 0 : /\.txt$/iu.test(f) ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The folder of an extracted .zip result holding `file`, if it is one (its `<dir>.zip` or sidecar is beside it). */
async function zipResultDir(file: string): Promise<string | undefined> {
  for (let dir = path.dirname(file), depth = 0; depth < 2; dir = path.dirname(dir), depth++) {
    if ((await exists(sidecarOf(`${dir}.zip`))) || (await exists(`${dir}.zip`))) return dir;
  }
  return undefined;
}

/**
 * Where a table file comes from: the endpoint that produced it (from the `.meta.json` sidecar the
 * downloader writes, or the `<endpoint>-<yyyymmdd-hhmmss>` name direct results are saved under),
 * and, for a file of an extracted `.zip` result, the other table files of that result.
 */
export async function resultInfo(file: string): Promise<ResultInfo> {
  const zipDir = await zipResultDir(file);
  if (zipDir) {
    const files = await tableFilesIn(zipDir).catch(() => [file]);
    return { endpoint: (await sidecarEndpoint(sidecarOf(`${zipDir}.zip`))) ?? endpointFromName(zipDir), files: files.includes(file) ? files : [file, ...files] };
  }
  return { endpoint: (await sidecarEndpoint(sidecarOf(file))) ?? endpointFromName(file), files: [file] };
}

/** The file a result path opens in the table: the file itself, or the first table file of a result folder. */
export async function tableFileOf(p: string): Promise<string | undefined> {
  const st = await fs.stat(p);
  if (!st.isDirectory()) return p;
  return (await tableFilesIn(p))[0];
}

/** The files of a result that can hold addresses: the file itself, or a result folder's .csv and .txt files (directly in it, by name). */
export async function addressFilesOf(p: string): Promise<string[]> {
  const st = await fs.stat(p);
  if (!st.isDirectory()) return [p];
  return (await fs.readdir(p))
    .filter((n) => /\.(csv|txt)$/iu.test(n))
    .sort()
    .map((n) => path.join(p, n));
}

/**
 * Moves a result aside (every part of it: partsOf) so a new download lands on the same names (the
 * downloader never overwrites a file, it would write `name-2.txt` beside it); returns how to put
 * it back or drop it.
 */
export async function setAside(resultPath: string): Promise<{ restore(): Promise<void>; drop(): Promise<void> }> {
  const moved: [string, string][] = [];
  for (const p of partsOf(resultPath)) {
    if (!(await exists(p))) continue;
    const aside = `${p}.previous-${Date.now()}`;
    await fs.rename(p, aside);
    moved.push([p, aside]);
  }
  return {
    restore: async () => {
      for (const [p, aside] of moved) {
        await fs.rm(p, { recursive: true, force: true });
        await fs.rename(aside, p);
      }
    },
    drop: async () => {
      for (const [, aside] of moved) await fs.rm(aside, { recursive: true, force: true });
    },
  };
}
