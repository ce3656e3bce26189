/**
 * A pipeline cell's result in the notebook (issue 24): the output it gets (our renderer's JSON item,
 * with the Markdown summary as the fallback a notebook without the renderer shows), and the host's
 * side of the renderer's messaging: a page of rows read by the table engine's worker
 * (core/results/readResult.ts), and "Open as Table" through the pipeline's own command.
 *
 * A page request names a cell, not a file: the host finds that cell's record beside the notebook
 * that asked (`recordOf`), so a renderer reads nothing its notebook's cells did not produce. A few
 * results stay open in their workers for a minute after their last page, so paging is quick.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { summaryMarkdown } from '../../core/pipeline/output';
import type { CellRecord } from '../../core/pipeline/run';
import { tableFileOf } from '../../core/results/files';
import { ResultReader } from '../../core/results/readResult';
import { CELL_RESULT_MIME, CELL_RESULT_RENDERER_ID, MAX_COLUMNS, PAGE_ROWS, pageStart, parseCellResultRequest, type CellResultReply } from '../../shared/cellResultProtocol';
import { readSettings } from '../base/settings';
import { CommandIds } from '../base/ids';
import { cellResultOf, pageCells } from './cellResultData';
import { errorText } from '../../core/errors';

const MARKDOWN_PREVIEW = 5;

/**
 * The output of a cell that ran (or was reused): the renderer's item first, the Markdown summary as
 * the fallback. A reused cell charged nothing in this run, so it shows no credits (its record keeps
 * what its first run cost).
 */
export async function cellResultOutput(cell: string, record: CellRecord, reused: boolean): Promise<vscode.NotebookCellOutput> {
  const file = path.basename(record.resultPath);
  const status = reused ? 'reused from disk (free)' : 'done';
  const credits = reused ? 0 : record.credits;
  try {
    const table = (await tableFileOf(record.resultPath)) ?? record.resultPath;
    const read = await withReader(table, (r) => Promise.resolve({ rows: r.rowCount, columns: r.columns, sample: r.sample }), { sample: true });
    const result = cellResultOf(cell, status, credits, file, read, readSettings().tableColorGainsAndLosses);
    const md = summaryMarkdown({ status, credits, rows: read.rows, columns: read.columns, preview: read.sample.slice(0, MARKDOWN_PREVIEW), file });
    return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.json(result, CELL_RESULT_MIME), vscode.NotebookCellOutputItem.text(md, 'text/markdown')]);
  } catch {
    // The file cannot be read as a table: what the record says, as text.
    const md = summaryMarkdown({ status, credits, rows: record.size, columns: [], preview: [], file });
    return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(md, 'text/markdown')]);
  }
}

async function withReader<T>(file: string, use: (r: ResultReader) => Promise<T>, options: { sample?: boolean } = {}): Promise<T> {
  const r = await ResultReader.open(file, options);
  try {
    return await use(r);
  } finally {
    await r.close();
  }
}

const IDLE_MS = 60_000;
const MAX_OPEN = 2;

/** Results open in their workers while the person pages through them; the least recent closes first. */
class OpenResults implements vscode.Disposable {
  private readonly open = new Map<string, { reader: Promise<ResultReader>; timer: NodeJS.Timeout }>();

  async page(file: string, start: number): Promise<{ rows: string[][]; total: number; start: number }> {
    const reader = await this.get(file);
    const first = pageStart(start, reader.rowCount);
    const width = Math.min(reader.columns.length, MAX_COLUMNS);
    return { rows: pageCells(await reader.page(first, PAGE_ROWS, { columns: width }), width), total: reader.rowCount, start: first };
  }

  private get(file: string): Promise<ResultReader> {
    const had = this.open.get(file);
    if (had) clearTimeout(had.timer);
    const reader = had?.reader ?? ResultReader.open(file);
    this.open.delete(file);
    this.open.set(file, { reader, timer: setTimeout(() => this.close(file), IDLE_MS) });
    reader.catch(() => this.close(file));
    for (const old of [...this.open.keys()].slice(0, Math.max(0, this.open.size - MAX_OPEN))) this.close(old);
    return reader;
  }

  private close(file: string): void {
    const had = this.open.get(file);
    if (!had) return;
    this.open.delete(file);
    clearTimeout(had.timer);
    had.reader.then((r) => r.close()).catch(() => undefined);
  }

  dispose(): void {
    for (const f of [...this.open.keys()]) this.close(f);
  }
}

/** The record of `cell` in `notebook` (undefined when it is not a pipeline or the cell has no result). */
type RecordOf = (notebook: vscode.NotebookDocument, cell: string) => Promise<CellRecord | undefined>;

/** Answers the renderer: pages of a cell's result, and "Open as Table" (the pipeline's Open Result command on that cell). */
export function registerCellResultMessaging(context: vscode.ExtensionContext, recordOf: RecordOf, cellNamed: (notebook: vscode.NotebookDocument, name: string) => vscode.NotebookCell | undefined): void {
  const messaging = vscode.notebooks.createRendererMessaging(CELL_RESULT_RENDERER_ID);
  const results = new OpenResults();
  const reply = (m: CellResultReply, editor: vscode.NotebookEditor): void => void messaging.postMessage(m, editor);
  context.subscriptions.push(
    results,
    messaging.onDidReceiveMessage(async ({ editor, message }) => {
      const m = parseCellResultRequest(message);
      if (!m) return;
      if (m.type === 'openTable') {
        const cell = cellNamed(editor.notebook, m.cell);
        if (cell) await vscode.commands.executeCommand(CommandIds.pipelineOpenResult, cell);
        return;
      }
      try {
        const record = await recordOf(editor.notebook, m.cell);
        if (!record) return reply({ type: 'pageError', requestId: m.requestId, cell: m.cell, message: 'This result is no longer on disk: run the cell again.' }, editor);
        if (path.basename(record.resultPath) !== m.file) return reply({ type: 'pageError', requestId: m.requestId, cell: m.cell, message: 'This cell has a newer result: run it again to see it here.' }, editor);
        const file = (await tableFileOf(record.resultPath)) ?? record.resultPath;
        const page = await results.page(file, m.start);
        reply({ type: 'page', requestId: m.requestId, cell: m.cell, ...page }, editor);
      } catch (e) {
        reply({ type: 'pageError', requestId: m.requestId, cell: m.cell, message: `These rows could not be read: ${errorText(e)}`.slice(0, 900) }, editor);
      }
    }),
  );
}
