/**
 * Export of a view (its rows, in its order; chosen columns) to a CSV file, and copy of a
 * rectangular selection as TSV or CSV. Export streams: a few hundred rows are read, formatted
 * and written at a time, into a temporary file beside the target that is renamed over it at the
 * end, so a failed or cancelled export never leaves a half-written file under the chosen name.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { abortable, throwIfCancelled } from '../abort';
import { formatLine } from './csvFormat';
import type { TableView } from './tableView';
import type { TaskOptions } from './types';
import { l10n } from '../l10n';

export interface ExportOptions extends TaskOptions {
  /** Columns to write, in this order (default: all, in source order). */
  readonly columns?: readonly number[];
  /** Prefix formula-like cells with `'` (default true; see neutraliseFormula). */
  readonly neutraliseFormulas?: boolean;
  /** Write the column names first (default true). */
  readonly header?: boolean;
  /** Line ending (default CRLF, as RFC 4180 and spreadsheets write). */
  readonly lineEnding?: '\n' | '\r\n';
}

export interface ExportResult {
  readonly rows: number;
  readonly bytes: number;
}

/** Cells per batch: bounds memory whatever the column count (≈20 rows of 640 columns; bigger batches only raise the peak heap)… */
const BATCH_CELLS = 12_000;
/**
 * …and row bytes per batch, whatever the row length: 16 KB (~80 rows of 200 bytes). A batch's
 * strings live across its awaits, and 1,000 rows a batch grew V8's young generation by ~20 MB
 * on the 1,000,000-row benchmark file's export (and took longer: 400 against 260 ms).
 */
const BATCH_BYTES = 16 << 10;

/** Writes the view to `target` as CSV; resolves when the file is in place. */
export async function exportView(view: TableView, target: string, options: ExportOptions = {}): Promise<ExportResult> {
  const { signal, onProgress } = options;
  const columns = options.columns ?? view.source.columns.map((_, i) => i);
  const neutralise = options.neutraliseFormulas ?? true;
  const eol = options.lineEnding ?? '\r\n';
  await abortable(view.source.indexed, signal); // a view over a file still being indexed has only its first rows
  const ids = view.rowIds();
  const batchRows = Math.max(1, Math.floor(BATCH_CELLS / Math.max(1, columns.length)));
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(temp, 'wx');
  let bytes = 0;
  let done = false;
  try {
    // One output buffer for every batch (grown for a bigger one): a Buffer per batch is garbage
    // outside the heap, which the collector is slow to count.
    let out = Buffer.allocUnsafe(64 << 10);
    const write = async (text: string): Promise<void> => {
      const need = Buffer.byteLength(text, 'utf8');
      if (need > out.length) out = Buffer.allocUnsafe(Math.max(need, 2 * out.length));
      const n = out.write(text, 0, 'utf8');
      bytes += n;
      for (let at = 0; at < n; ) at += (await fh.write(out, at, n - at)).bytesWritten;
    };
    if (options.header ?? true) {
      await write(formatLine(columns.map((c) => view.source.columns[c] ?? ''), ',', neutralise) + eol);
    }
    for (let first = 0; first < ids.length; ) {
      throwIfCancelled(signal);
      let last = first + 1;
      for (let bytes = view.source.rowBytes?.(ids[first] ?? 0) ?? 0; last < ids.length && last - first < batchRows; last++) {
        bytes += view.source.rowBytes?.(ids[last] ?? 0) ?? 0;
        if (bytes > BATCH_BYTES) break;
      }
      const batch = ids.subarray(first, last);
      first = last;
      await write(formatLines(await view.source.readCells(batch, columns, signal), neutralise, eol));
      onProgress?.({ task: 'export', done: first, total: ids.length });
    }
    throwIfCancelled(signal); // cancelled after the last batch: still no file
    await fh.close();
    done = true;
    await rename(temp, target);
    return { rows: ids.length, bytes };
  } catch (e) {
    if (!done) await fh.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}

/** The batch's CSV text (a function of its own, so the batch's cells are garbage before the write is awaited). */
function formatLines(cells: readonly (readonly string[])[], neutralise: boolean, eol: string): string {
  let text = '';
  for (const row of cells) text += formatLine(row, ',', neutralise) + eol;
  return text;
}

export interface CopyOptions {
  readonly format: 'tsv' | 'csv';
  /** Start with the column names (default true). */
  readonly header?: boolean;
  /** As for export (default true): pasting into a spreadsheet runs formulas too. */
  readonly neutraliseFormulas?: boolean;
}

/** Most cells a copy may hold; a bigger selection should be exported instead. */
export const COPY_MAX_CELLS = 1_000_000;

/** View rows [first, last) × `columns` as TSV or CSV text, lines ending in LF. */
export async function copySelection(
  view: TableView,
  first: number,
  last: number,
  columns: readonly number[],
  options: CopyOptions,
): Promise<string> {
  const rows = Math.max(0, Math.min(last, view.length) - Math.max(0, first));
  if (rows * columns.length > COPY_MAX_CELLS) {
    throw new RangeError(l10n.t('The selection has {0} cells; copy at most {1}, or export the view instead.', rows * columns.length, COPY_MAX_CELLS));
  }
  const delimiter = options.format === 'tsv' ? '\t' : ',';
  const neutralise = options.neutraliseFormulas ?? true;
  const lines: string[] = [];
  if (options.header ?? true) lines.push(formatLine(columns.map((c) => view.source.columns[c] ?? ''), delimiter, neutralise));
  const { cells } = await view.window(first, last, columns);
  for (const row of cells) lines.push(formatLine(row, delimiter, neutralise));
  return lines.join('\n') + '\n';
}
