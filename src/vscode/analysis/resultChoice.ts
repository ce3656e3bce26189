/**
 * Choosing results to compare or combine: the finished results of this extension (newest first),
 * files handed over by the Explorer, or any .csv, .txt or .json file picked from disk. Shared by
 * "Compare Results…" and "Address Sets…" (src/vscode/analysis/).
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { JobRecord } from '../../core/jobs/job';
import { endpointTitle } from '../../core/history/format';
import { tableFilesIn } from '../../core/results/files';
import type { PersonQuestions } from '../base/personQuestions';
import { l10n } from '../../shared/l10n';

export interface AnalysisDeps {
  /** Finished jobs of this window's store (those with a result file are offered). */
  readonly doneJobs: () => readonly JobRecord[];
  /** The result file of a Requests item (downloaded first when needed, free). */
  readonly resultOfRequest: (requestId: string) => Promise<string>;
  /** The folder results are written to now. */
  readonly resultsFolder: () => string;
  /** Asks the person (a stand-in under the test runner): which file of a result of several. */
  readonly persons: PersonQuestions;
}

export interface ResultItem extends vscode.QuickPickItem {
  readonly file?: string;
  /** The "choose files" entry. */
  readonly browse?: true;
}

const exists = (p: string): Promise<boolean> => fs.stat(p).then(() => true, () => false);

/** The finished results on disk, newest first, as pick items (extra files, e.g. from the Explorer, first). */
export async function resultItems(deps: AnalysisDeps, extra: readonly string[] = []): Promise<ResultItem[]> {
  const jobs = deps
    .doneJobs()
    .filter((j) => j.resultPath)
    .sort((a, b) => (b.completedAt ?? '').localeCompare(a.completedAt ?? ''));
  const seen = new Set<string>();
  const items: ResultItem[] = [];
  for (const f of extra) {
    if (seen.has(f)) continue;
    seen.add(f);
    items.push({ label: path.basename(f), description: path.dirname(f), file: f });
  }
  for (const j of jobs) {
    const p = j.resultPath ?? '';
    if (seen.has(p) || !(await exists(p))) continue;
    seen.add(p);
    items.push({ label: path.basename(p), description: endpointTitle(j.endpointId), detail: j.completedAt ? l10n.t('finished {0}', j.completedAt.replace('T', ' ').slice(0, 16)) : undefined, file: p });
  }
  items.push({ label: l10n.t('$(folder-opened) Choose files…'), description: l10n.t('.csv, .txt or .json'), alwaysShow: true, browse: true });
  return items;
}

/** Files chosen from disk (several when `many`). */
export async function browseFiles(title: string, many: boolean): Promise<string[]> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: many,
    filters: { 'Results': ['csv', 'txt', 'json'], 'All files': ['*'] },
  });
  return (picked ?? []).map((u) => u.fsPath);
}

/** One result, from a pick among `items` (or the disk); undefined when dismissed. */
export async function pickOneResult(items: readonly ResultItem[], options: { title: string; placeHolder: string }): Promise<string | undefined> {
  const pick = await vscode.window.showQuickPick(items, { ...options, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true });
  if (!pick) return undefined;
  if (pick.browse) return (await browseFiles(options.title, false))[0];
  return pick.file;
}

/**
 * The table file of a result path: the file itself, or for an extracted .zip folder the one of its
 * files the person picks (issue 35 item 8: the first of 100 was taken silently); undefined when
 * the pick is dismissed. `side` names which result is asked about ("A", "B").
 */
export async function tableFile(deps: AnalysisDeps, p: string, side: string): Promise<string | undefined> {
  const st = await fs.stat(p);
  const files = st.isDirectory() ? await tableFilesIn(p) : [p];
  const [only] = files;
  if (!only) throw new Error(`${path.basename(p)} holds no .csv, .txt or .json file.`);
  if (files.length === 1) return only;
  const items = files.map((f) => ({ label: path.relative(p, f), file: f }));
  const label = await deps.persons.choose('resultFile', items, {
    title: l10n.t('Compare: which file of {0} ({1})?', path.basename(p), side),
    placeHolder: l10n.t('{0} holds {1} files; the comparison takes one', path.basename(p), files.length),
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return items.find((i) => i.label === label)?.file;
}

/** Paths handed to a command by a menu: an Explorer selection (clicked Uri, selected Uris), Requests items, or strings. */
export async function targetPaths(deps: AnalysisDeps, target: unknown, selection: unknown): Promise<string[]> {
  const one = async (t: unknown): Promise<string | undefined> => {
    if (t instanceof vscode.Uri) return t.fsPath;
    if (typeof t === 'string') return t;
    if (typeof t === 'object' && t !== null && 'requestId' in t && typeof t.requestId === 'string') return deps.resultOfRequest(t.requestId);
    return undefined;
  };
  const list = Array.isArray(selection) && selection.length > 0 ? selection : Array.isArray(target) ? target : [target];
  const out: string[] = [];
  for (const t of list as unknown[]) {
    const p = await one(t);
    if (p !== undefined && !out.includes(p)) out.push(p);
  }
  return out;
}
