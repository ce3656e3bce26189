import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pickAddressColumn } from '../../core/table/columnKind';
import type { JobRecord } from '../../core/jobs/job';
import { withResultReader } from '../../core/results/readResult';
import { pickStep, type StepTitle } from './multiStep';
import { l10n } from '../../shared/l10n';

/** Where a list of addresses can come from. */
export type ListSource = 'paste' | 'selection' | 'activeFile' | 'file' | 'result' | 'recent';

/**
 * Reads the text of a list source (a file's or result's column as its cells, one a line: never
 * joined into one string and split again on this thread); undefined when the person backs out of
 * a sub-step.
 */
export async function readListSource(
  source: ListSource,
  t: StepTitle,
  deps: { doneJobs: () => readonly JobRecord[] },
): Promise<string | readonly string[] | undefined> {
  switch (source) {
    case 'selection': {
      const ed = vscode.window.activeTextEditor;
      return ed ? ed.selections.map((s) => ed.document.getText(s)).join('\n') : '';
    }
    case 'activeFile':
      return vscode.window.activeTextEditor?.document.getText() ?? '';
    case 'file': {
      const picked = await vscode.window.showOpenDialog({
        title: l10n.t('{0}: choose a .txt or .csv file', t.title),
        canSelectMany: false,
        filters: { 'Address lists': ['txt', 'csv'], 'All files': ['*'] },
      });
      const file = picked?.[0];
      return file ? readAddressFile(file.fsPath, t) : undefined;
    }
    case 'result': {
      const jobs = deps.doneJobs().filter((j) => j.resultPath);
      const chosen = await pickStep(
        t,
        jobs.map((j) => ({ label: path.basename(j.resultPath ?? ''), description: j.endpointId, detail: j.completedAt, value: j })),
        { placeholder: jobs.length ? l10n.t('Take the addresses of a previous result') : l10n.t('No finished results yet') },
      );
      const job = chosen?.[0];
      if (!job?.resultPath) return undefined;
      return readAddressFile(await firstTabularFile(job.resultPath), t);
    }
    default:
      return undefined;
  }
}

/** A result folder (an extracted .zip) is read through its first .csv or .txt file. */
async function firstTabularFile(p: string): Promise<string> {
  const st = await fs.stat(p);
  if (!st.isDirectory()) return p;
  const names = (await fs.readdir(p)).filter((n) => /\.(csv|txt)$/iu.test(n)).sort();
  if (!names[0]) throw new Error(`The result folder ${p} holds no .csv or .txt file.`);
  return path.join(p, names[0]);
}

/**
 * A .txt list's lines, or a .csv's column: the one classifier's address column first, the person
 * picks. Read in a table worker (core/results/readResult.ts), never as one string on this thread.
 */
async function readAddressFile(file: string, t: StepTitle): Promise<readonly string[] | undefined> {
  return withResultReader(file, async (reader) => {
    const header = reader.columns;
    if (header.length === 0) return [];
    let idx: number | undefined = 0;
    if (/\.csv$/iu.test(file)) {
      const guess = pickAddressColumn(header, reader.sample)?.column ?? -1;
      const order = header.map((h, i) => ({ h, i })).sort((a, b) => (a.i === guess ? -1 : b.i === guess ? 1 : a.i - b.i));
      const col = await pickStep(
        t,
        order.map(({ h, i }) => ({ label: h || `(column ${i + 1})`, description: reader.sample[0]?.[i] ?? '', value: i })),
        { placeholder: l10n.t('Which column of {0} holds the addresses?', path.basename(file)) },
      );
      idx = col?.[0];
    }
    if (idx === undefined) return undefined;
    return reader.columnText(idx);
  });
}
