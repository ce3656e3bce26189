import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { JobRecord } from '../../core/jobs/job';
import { withResultReader } from '../../core/results/readResult';
import { parseAddressList, parseAddressListSliced, type ParsedList } from '../../core/spec/listParse';
import type { Chain } from '../../core/spec/addresses';
import { pickStep, type StepTitle } from './multiStep';
import { l10n } from '../../shared/l10n';

/** Where a list of addresses can come from. */
export type ListSource = 'paste' | 'selection' | 'activeFile' | 'file' | 'result' | 'recent';

/**
 * Reads a list source, parsed as a list of addresses of `chain` (a file's or result's column in its
 * table worker, where the cells are parsed: only the valid list and the bad entries reach this
 * thread; a selection or the active file a slice at a time here); undefined when the person backs
 * out of a sub-step.
 */
export async function readListSource(
  source: ListSource,
  t: StepTitle,
  deps: { doneJobs: () => readonly JobRecord[] },
  chain: Chain,
): Promise<ParsedList | undefined> {
  switch (source) {
    case 'selection': {
      const ed = vscode.window.activeTextEditor;
      return parseAddressListSliced(ed ? ed.selections.map((s) => ed.document.getText(s)).join('\n') : '', chain);
    }
    case 'activeFile':
      return parseAddressListSliced(vscode.window.activeTextEditor?.document.getText() ?? '', chain);
    case 'file': {
      const picked = await vscode.window.showOpenDialog({
        title: l10n.t('{0}: choose a .txt or .csv file', t.title),
        canSelectMany: false,
        filters: { 'Address lists': ['txt', 'csv'], 'All files': ['*'] },
      });
      const file = picked?.[0];
      return file ? readAddressFile(file.fsPath, t, chain) : undefined;
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
      return readAddressFile(await firstTabularFile(job.resultPath), t, chain);
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
 * A .txt list's lines, or a .csv's column (the one classifier's address column first, the person
 * picks), parsed. Read and parsed in a table worker (core/results/readResult.ts): 100,000 cells
 * made strings and parsed here held this thread's loop 25–29 ms at a time (issue 34 item 4).
 */
async function readAddressFile(file: string, t: StepTitle, chain: Chain): Promise<ParsedList | undefined> {
  return withResultReader(file, async (reader) => {
    const header = reader.columns;
    if (header.length === 0) return parseAddressList([], chain);
    let idx: number | undefined = 0;
    if (/\.csv$/iu.test(file)) {
      const guess = reader.addressColumn()?.column ?? -1;
      const order = header.map((h, i) => ({ h, i })).sort((a, b) => (a.i === guess ? -1 : b.i === guess ? 1 : a.i - b.i));
      const col = await pickStep(
        t,
        order.map(({ h, i }) => ({ label: h || `(column ${i + 1})`, description: reader.firstRow[i] ?? '', value: i })),
        { placeholder: l10n.t('Which column of {0} holds the addresses?', path.basename(file)) },
      );
      idx = col?.[0];
    }
    if (idx === undefined) return undefined;
    return reader.addressList(idx, chain);
  });
}
