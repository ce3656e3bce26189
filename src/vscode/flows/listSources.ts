import * as vscode from 'vscode';
import Papa from 'papaparse';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pickAddressColumn, SAMPLE_ROWS } from '../../core/columnKind';
import type { JobRecord } from '../../core/jobs/job';
import { pickStep, type StepTitle } from './multiStep';

/** Where a list of addresses can come from. */
export type ListSource = 'paste' | 'selection' | 'activeFile' | 'file' | 'result' | 'recent';

/** Reads the text of a list source; undefined when the person backs out of a sub-step. */
export async function readListSource(
  source: ListSource,
  t: StepTitle,
  deps: { doneJobs: () => readonly JobRecord[] },
): Promise<string | undefined> {
  switch (source) {
    case 'selection': {
      const ed = vscode.window.activeTextEditor;
      return ed ? ed.selections.map((s) => ed.document.getText(s)).join('\n') : '';
    }
    case 'activeFile':
      return vscode.window.activeTextEditor?.document.getText() ?? '';
    case 'file': {
      const picked = await vscode.window.showOpenDialog({
        title: `${t.title}: choose a .txt or .csv file`,
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
        { placeholder: jobs.length ? 'Take the addresses of a previous result' : 'No finished results yet' },
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

/** A .txt is taken whole; a .csv asks which column holds the addresses (the one classifier's address column first: core/columnKind.ts). */
export async function readAddressFile(file: string, t: StepTitle): Promise<string | undefined> {
  const text = await fs.readFile(file, 'utf8');
  if (!/\.csv$/iu.test(file)) return text;
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/u, ''), { skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  if (!header) return '';
  const guess = pickAddressColumn(header, rows.slice(0, SAMPLE_ROWS))?.column ?? -1;
  const order = header.map((h, i) => ({ h, i })).sort((a, b) => (a.i === guess ? -1 : b.i === guess ? 1 : a.i - b.i));
  const col = await pickStep(
    t,
    order.map(({ h, i }) => ({ label: h || `(column ${i + 1})`, description: rows[0]?.[i] ?? '', value: i })),
    { placeholder: `Which column of ${path.basename(file)} holds the addresses?` },
  );
  const idx = col?.[0];
  if (idx === undefined) return undefined;
  return rows.map((r) => r[idx] ?? '').join('\n');
}
