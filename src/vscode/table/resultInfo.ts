/**
 * Where a table file comes from: the endpoint that produced it (from the `.meta.json` sidecar the
 * downloader writes, or the `<endpoint>-<yyyymmdd-hhmmss>` name direct results are saved under),
 * and, for a file of an extracted `.zip` result, the other table files of that result.
 * No vscode import.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ENDPOINTS } from '../../core/catalog';

/** Files the table opens. */
export const TABLE_FILE = /\.(csv|txt|json)$/iu;
const SIDECAR = /\.meta\.json$/iu;

export interface ResultInfo {
  /** Endpoint id, when the file is a result of this extension. */
  readonly endpoint?: string;
  /** Table files of the same extracted .zip result (absolute, sorted), or just the file itself. */
  readonly files: readonly string[];
}

async function readEndpoint(sidecar: string): Promise<string | undefined> {
  try {
    const meta = JSON.parse(await fs.readFile(sidecar, 'utf8')) as { endpoint?: unknown };
    return typeof meta.endpoint === 'string' ? meta.endpoint : undefined;
  } catch {
    return undefined;
  }
}

const exists = (p: string): Promise<boolean> =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

/** The endpoint id a result file name starts with (`pnl-20261121-101500-….csv`), longest id first. */
export function endpointFromName(file: string): string | undefined {
  const base = path.basename(file);
  const ids = ENDPOINTS.map((e) => e.id).sort((a, b) => b.length - a.length);
  return ids.find((id) => base.startsWith(`${id}-`) && /^\d{8}-\d{6}/u.test(base.slice(id.length + 1)));
}

/** Table files directly in `dir` or one level down, sorted, sidecars left out. */
export async function tableFilesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isFile() && TABLE_FILE.test(e.name) && !SIDECAR.test(e.name)) out.push(p);
    else if (e.isDirectory()) {
      for (const f of await fs.readdir(p, { withFileTypes: true }).catch(() => [])) {
        if (f.isFile() && TABLE_FILE.test(f.name) && !SIDECAR.test(f.name)) out.push(path.join(p, f.name));
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
    if ((await exists(`${dir}.zip.meta.json`)) || (await exists(`${dir}.zip`))) return dir;
  }
  return undefined;
}

/** Endpoint and sibling files of a table file. */
export async function resultInfo(file: string): Promise<ResultInfo> {
  const zipDir = await zipResultDir(file);
  if (zipDir) {
    const files = await tableFilesIn(zipDir).catch(() => [file]);
    return { endpoint: (await readEndpoint(`${zipDir}.zip.meta.json`)) ?? endpointFromName(zipDir), files: files.includes(file) ? files : [file, ...files] };
  }
  return { endpoint: (await readEndpoint(`${file}.meta.json`)) ?? endpointFromName(file), files: [file] };
}

/** The file a result path opens in the table: the file itself, or the first table file of a result folder. */
export async function tableFileOf(p: string): Promise<string | undefined> {
  const st = await fs.stat(p);
  if (!st.isDirectory()) return p;
  return (await tableFilesIn(p))[0];
}
