/**
 * "Export Watch": a watch that keeps running past the editor, on a scheduler that is not ours
 * (issue 25 item 3). The pipelines' exporter (src/vscode/pipeline/exportPipeline.ts) writes the
 * command-line runner, the GitHub Actions workflow and the crontab line; here the watch gives it its
 * schedule, its bound (the runner refuses to start above the price per run the person approved for
 * the watch, --max-credits) and its command, `watch` (every call again, the change summary; issue
 * 32). A watched pipeline is exported as it is; a watched request as a pipeline of one cell,
 * written beside the runner. A Wallet Database query is billed per match and has no bound a
 * scheduled run could hold, so it is not exported.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { PIPELINE_EXTENSION, type PipelineFile } from '../../core/pipeline/format';
import { plainName } from '../../core/pipeline/schedulerFiles';
import type { WatchRecord } from '../../core/watch/model';
import { cronSchedule } from '../../core/watch/schedule';
import type { PersonQuestions } from '../base/personQuestions';
import { showErrorIn, showWarning } from '../base/errors';
import { exportPipelineFile } from '../pipeline/exportPipeline';
import { readPipeline } from './targets';
import { l10n } from '../../shared/l10n';

export interface ExportWatchDeps {
  readonly persons: PersonQuestions;
  readonly baseUrl: () => string;
}

/** Writes the watch's script and schedule files; the script's path, or undefined (and why, told). */
export async function exportWatch(w: WatchRecord, deps: ExportWatchDeps): Promise<string | undefined> {
  const schedule = cronSchedule(w.schedule);
  if ('error' in schedule) {
    void showErrorIn(l10n.t('Export Watch'), schedule.error);
    return undefined;
  }
  const bound = { schedule, maxCredits: w.approval.credits, command: 'watch' as const };
  const t = w.target;
  if (t.kind === 'query') {
    void showWarning(l10n.t('Export Watch: a per-match query runs here only.'));
    return undefined;
  }
  if (t.kind === 'pipeline') {
    const file = await readPipeline(t.file);
    const base = path.basename(t.file);
    const stem = base.endsWith(PIPELINE_EXTENSION) ? base.slice(0, -PIPELINE_EXTENSION.length) : base;
    return exportPipelineFile(file, { uri: vscode.Uri.file(t.file), stem: plainName(stem), name: base }, deps, bound);
  }
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') {
    void showWarning(l10n.t('Export Watch: open a folder first.'));
    return undefined;
  }
  const file: PipelineFile = { version: 1, cells: [{ name: 'run', call: t.endpointId, inputs: t.inputs }] };
  const stem = plainName(`watch-${w.name}`);
  return exportPipelineFile(file, { uri: vscode.Uri.joinPath(folder.uri, `${stem}${PIPELINE_EXTENSION}`), stem, name: w.name }, deps, { ...bound, writePipeline: true });
}
