/**
 * The free "read a result" tool's work (issue 33): a result file is opened in the table worker
 * (core/table/remoteTable.ts), the same engine the Table uses, and only what was asked is read
 * back: the counts, chosen columns of the first rows or of the top rows by a column (sorted in the
 * worker), or one column's profile. A 722 MB file is indexed in the worker and never crosses to the
 * host whole. The answer is bounded text (core/agents/toolText.ts) with the file's cells marked as
 * data, and it names the file so the person can open it in the Table. Host-independent: the VS Code
 * tool and the runner's MCP server call the same function.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RemoteTable } from '../table/remoteTable';
import { clip, rowsText, toolAnswer } from './toolText';
import { l10n } from '../l10n';
import { thousands } from '../numberText';

/** What the model asked to read. */
interface ReadRequest {
  readonly path: string;
  readonly columns?: readonly string[];
  readonly rows?: number;
  readonly sortBy?: string;
  readonly ascending?: boolean;
  readonly profile?: string;
}

/** The most rows shown, and the columns shown when none are named. */
const MAX_ROWS = 50;
const DEFAULT_COLUMNS = 8;

/** Options of the host: the worker bundle (default: dist/tableWorker.js beside the bundle), a cancel signal. */
interface ReadHost {
  readonly workerFile?: string;
  readonly signal?: AbortSignal;
  /** What the person can do to see it all ("Open it in the Table: …"), in the host's words. */
  readonly openHint: (path: string) => string;
}

/** A column's index by its name (case-insensitive), or -1. */
function columnIndex(columns: readonly string[], name: string): number {
  return columns.findIndex((c) => c.toLowerCase() === name.trim().toLowerCase());
}

/** The answer when a named column is not in the file: the file's column names, as data (they are the file's text). */
function noSuchColumn(head: readonly string[], hint: string, columns: readonly string[]): string {
  return toolAnswer([...head, 'No column has that name; the file’s columns are listed below.', hint], [clip(columns.join('\n'), 2_000)]);
}

/** A folder (an extracted zip): its files, to read one of them. */
async function folderAnswer(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort().slice(0, 40);
  return toolAnswer([`${dir} is a folder (an extracted zip result). Read one of its files with this tool:`], [names.map((n) => join(dir, n)).join('\n')]);
}

/** Reads what `req` asks of a result file through the table worker; bounded text, file cells fenced as data. */
export async function readResultText(req: ReadRequest, host: ReadHost): Promise<string> {
  const info = await stat(req.path);
  if (info.isDirectory()) return folderAnswer(req.path);
  const table = await RemoteTable.open(req.path, { signal: host.signal, prepareColumns: false, ...(host.workerFile ? { workerFile: host.workerFile } : {}) });
  try {
    await table.indexed;
    const cols = table.columns;
    const head = [l10n.t('File: {0} ({1} bytes)', req.path, thousands(info.size)), l10n.t('{0} rows × {1} columns.', thousands(table.rowCount), cols.length)];
    const hint = host.openHint(req.path);
    if (req.profile !== undefined) {
      const c = columnIndex(cols, req.profile);
      if (c < 0) return noSuchColumn(head, hint, cols);
      const p = await table.profile(c, { signal: host.signal });
      const lines = [
        `type: ${p.type}; rows: ${p.count}; empty: ${p.empty}; distinct: ${p.distinct}`,
        ...(p.min !== undefined ? [`min: ${p.minText ?? p.min}; max: ${p.maxText ?? p.max}; mean: ${p.mean ?? ''}; median: ${p.median ?? ''}; p5: ${p.p5 ?? ''}; p95: ${p.p95 ?? ''}`] : []),
        `most frequent: ${p.top.map((t) => `${clip(t.value, 80)} (${t.count})`).join('; ')}`,
      ];
      return toolAnswer([...head, l10n.t('Profile of column {0}:', c + 1), hint], [l10n.t('column: {0}\n{1}', clip(p.name, 120), lines.join('\n'))]);
    }
    const chosen: number[] = [];
    for (const name of req.columns ?? []) {
      const c = columnIndex(cols, name);
      if (c < 0) return noSuchColumn(head, hint, cols);
      chosen.push(c);
    }
    const show = chosen.length > 0 ? chosen : cols.slice(0, DEFAULT_COLUMNS).map((_, i) => i);
    let order = 'first';
    if (req.sortBy !== undefined) {
      const c = columnIndex(cols, req.sortBy);
      if (c < 0) return noSuchColumn(head, hint, cols);
      await table.apply({ sort: [{ column: c, descending: req.ascending !== true }] }, { signal: host.signal });
      order = `top (by column ${c + 1}, ${req.ascending === true ? 'ascending' : 'descending'})`;
    }
    const n = Math.min(Math.max(0, Math.floor(req.rows ?? 10)), MAX_ROWS, table.rowCount);
    const w = n > 0 ? await table.window(0, n, show, host.signal) : { cells: [] };
    const more = cols.length > show.length ? l10n.t(' Columns not shown: {0} (name them in "columns").', cols.length - show.length) : '';
    return toolAnswer(
      [...head, l10n.t('The {0} {1} rows, {2} columns.{3}', order, n, show.length, more), hint],
      [rowsText(show.map((i) => cols[i] ?? ''), w.cells)],
    );
  } finally {
    await table.close();
  }
}
