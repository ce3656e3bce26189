/**
 * A new pipeline has a name and a place from the start (issue 35 item 3): New Pipeline… opened an
 * untitled notebook, Save As proposed `Untitled-1.json` (not a pipeline: it reopened as plain JSON),
 * and the results of the runs before the save were left behind, so the next Run All paid again.
 *
 * Now it writes `pipeline.wapipe.json` (`pipeline-2.wapipe.json`… when taken; files/writeInside.ts)
 * in the first workspace folder, or the results folder when no folder is open, and opens it: its
 * results are `pipeline.results/` beside it from the first run. A pipeline saved under a new name
 * (Save As, from a file or from an untitled notebook) takes its results along (core/pipeline/carry.ts).
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { examplePipeline, PIPELINE_EXTENSION, serializePipeline } from '../../core/pipeline/format';
import { carryResults } from '../../core/pipeline/carry';
import { resultsDirOf, untitledResultsDir } from '../../core/pipeline/run';
import { writeNewNamed } from '../../core/files/writeInside';
import { nthName } from '../../core/files/naming';

/** Writes a new example pipeline in its place and returns its Uri (opening it is the caller's). */
export async function newPipelineFile(resultsFolder: string): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? resultsFolder;
  const file = await writeNewNamed(folder, '', (i) => nthName(`pipeline${PIPELINE_EXTENSION}`, i, PIPELINE_EXTENSION), serializePipeline(examplePipeline()));
  return vscode.Uri.file(file);
}

/** How long a closed pipeline is remembered as the source of a Save As (the new one opens as the old closes). */
const SAVE_AS_WINDOW_MS = 10_000;

/**
 * Carries a pipeline's results to the file it was saved as: when a pipeline file opens with no
 * results of its own, and a pipeline open or closed a moment ago holds the same cells and has
 * results, they are copied beside the new file. `text` gives a notebook's cells as the file holds them.
 */
export function followSaveAs(
  type: string,
  storage: string,
  roots: () => readonly string[],
  text: (nb: vscode.NotebookDocument) => string,
  done: (cells: readonly string[], to: vscode.Uri) => void = () => undefined,
): vscode.Disposable {
  const closed: { uri: string; text: string; at: number }[] = [];
  const dirOf = async (uri: vscode.Uri): Promise<string> => (uri.scheme === 'file' ? resultsDirOf(uri.fsPath) : untitledResultsDir(storage));
  const carry = async (nb: vscode.NotebookDocument): Promise<void> => {
    if (nb.notebookType !== type || nb.uri.scheme !== 'file') return;
    const to = resultsDirOf(nb.uri.fsPath);
    if (existsSync(to)) return;
    const mine = text(nb);
    const now = Date.now();
    const open = vscode.workspace.notebookDocuments.filter((d) => d !== nb && d.notebookType === type).map((d) => ({ uri: d.uri, text: text(d) }));
    const recent = closed.filter((c) => now - c.at <= SAVE_AS_WINDOW_MS).map((c) => ({ uri: vscode.Uri.parse(c.uri), text: c.text }));
    for (const source of [...recent.reverse(), ...open]) {
      if (source.text !== mine || source.uri.toString() === nb.uri.toString()) continue;
      const from = await dirOf(source.uri);
      if (!existsSync(from)) continue;
      const cells = await carryResults(from, to, roots());
      if (cells.length) done(cells, nb.uri);
      return;
    }
  };
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenNotebookDocument((nb) => void carry(nb).catch(() => undefined)),
    vscode.workspace.onDidCloseNotebookDocument((nb) => {
      if (nb.notebookType !== type) return;
      closed.push({ uri: nb.uri.toString(), text: text(nb), at: Date.now() });
      if (closed.length > 10) closed.shift();
    }),
  );
}
