/**
 * "Export Pipeline as Script" (issue 24 item 3, issue 32): the command-line runner
 * (`wallet-analytics.cjs`, a copy of the extension's own dist/cli.js: the core's call flow in one
 * file for Node 20) written beside the open pipeline, never the key; then, if the person picks a
 * schedule, a GitHub Actions workflow (in the workspace's .github/workflows/ when the pipeline is in
 * a workspace folder, else beside it) and a crontab line to copy (core/pipeline/schedulerFiles.ts)
 * that run it on the pipeline with the connection's base URL. Nothing is sent and nothing is spent
 * here: the runner spends only when someone runs it with --max-credits.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkPipeline, PIPELINE_EXTENSION, serializePipeline, type PipelineFile } from '../../core/pipeline/format';
import { planPipeline } from '../../core/pipeline/plan';
import { cronLine, githubWorkflow, isPlainPath, parseSchedule, plainName, runsPerDay, scheduleText, type Schedule } from '../../core/pipeline/schedulerFiles';
import { scriptSlot, writeScript, writeWorkflow } from '../../core/pipeline/exportFiles';
import { errorText } from '../../core/errors';
import { replaceInside } from '../../core/files/writeInside';
import type { PersonQuestions } from '../base/personQuestions';
import { l10n } from '../../shared/l10n';
import { showError, showWarning } from '../base/errors';
import { fmtCredits } from '../../core/numberText';

interface ExportDeps {
  /** The person's answers (a stand-in under the test runner): the schedule, and whether to replace a script. */
  readonly persons: PersonQuestions;
  /** The base URL the script is written with (the connection's now). */
  readonly baseUrl: () => string;
  /** The pipeline as it is in the editor (unsaved edits included). */
  readonly fileOf: (nb: vscode.NotebookDocument) => PipelineFile;
}

/** The notebook a toolbar click or the palette means: the toolbar's argument, else the active notebook. */
function notebookOf(arg: unknown, notebookType: string): vscode.NotebookDocument | undefined {
  if (arg && typeof arg === 'object' && 'notebookEditor' in arg) {
    const ed = (arg as { notebookEditor?: { notebookUri?: unknown } }).notebookEditor;
    const uri = ed?.notebookUri;
    if (uri instanceof vscode.Uri) {
      const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      if (nb?.notebookType === notebookType) return nb;
    }
  }
  const nb = vscode.window.activeNotebookEditor?.notebook;
  return nb?.notebookType === notebookType ? nb : undefined;
}

/** The stem of a pipeline's file name: `example.wapipe.json` → `example`. */
function stemOf(uri: vscode.Uri): string {
  const base = path.basename(uri.path);
  return base.endsWith(PIPELINE_EXTENSION) ? base.slice(0, -PIPELINE_EXTENSION.length) : base.replace(/\.[^.]*$/u, '');
}

interface SchedulePick extends vscode.QuickPickItem {
  readonly schedule?: Schedule;
  readonly other?: true;
}

/** The schedule the person picks (undefined: the script only, or the pick was dismissed). */
async function pickSchedule(persons: PersonQuestions, total: number): Promise<Schedule | undefined> {
  const day = (s: Schedule): string => (total > 0 ? `at most ${fmtCredits(total * runsPerDay(s))} a day` : 'free');
  const hourly: Schedule = { kind: 'hourly', minute: 0 };
  const daily: Schedule = { kind: 'daily', hour: 6, minute: 0 };
  const items: SchedulePick[] = [
    { label: l10n.t('No schedule'), detail: l10n.t('Only the script: run it yourself, or from a scheduler you already have.') },
    { label: l10n.t('Every day at 06:00 UTC'), description: day(daily), schedule: daily },
    { label: l10n.t('Every hour'), description: day(hourly), schedule: hourly },
    { label: l10n.t('Another schedule…'), detail: l10n.t('"every day at 18:45", "every hour at :15", "every 15 minutes", "every 6 hours" (UTC)'), other: true },
  ];
  const label = await persons.choose('exportSchedule', items, { title: l10n.t('Run the exported script on a schedule?'), placeHolder: l10n.t('A GitHub Actions workflow and a crontab line are written for the schedule') });
  const picked = items.find((i) => i.label === label);
  if (!picked?.other) return picked?.schedule;
  const text = await persons.input('exportSchedule', {
    title: l10n.t('Schedule (UTC)'),
    value: 'every day at 06:00',
    validateInput: (v) => {
      const s = parseSchedule(v);
      return 'error' in s ? s.error : undefined;
    },
  });
  if (text === undefined) return undefined;
  const s = parseSchedule(text);
  return 'error' in s ? undefined : s;
}

/** Exports the pipeline; returns the script's path (undefined when nothing was written). */
async function exportPipeline(nb: vscode.NotebookDocument, deps: ExportDeps): Promise<string | undefined> {
  if (nb.uri.scheme !== 'file') {
    void showWarning(l10n.t('Save the pipeline: its script goes beside it.'));
    return undefined;
  }
  return exportPipelineFile(deps.fileOf(nb), { uri: nb.uri, stem: plainName(stemOf(nb.uri)), name: path.basename(nb.uri.fsPath) }, deps);
}

/** Where an export goes: the folder of `uri` (a pipeline, or the pipeline file a watch of a request is written as), under the display name `name`. */
interface ExportPlace {
  readonly uri: vscode.Uri;
  readonly stem: string;
  readonly name: string;
}

/** The runner every export copies, and Copy as Code's command line runs: the extension's own dist/cli.js, beside this bundle (issue 32). */
export const RUNNER_SOURCE = path.join(__dirname, 'cli.js');
/** Its name beside a pipeline: `.cjs`, so Node runs it as CommonJS whatever the folder's package.json says. */
const RUNNER_NAME = 'wallet-analytics.cjs';

/**
 * Writes the command-line runner beside `place.uri` (the pipeline, or the pipeline file an exported
 * watch of a request is written as), then the workflow and cron line for a schedule: `given` (an
 * exported watch's own, with the price per run it was approved for as the bound), else the one the
 * person picks. The runner is the editor's own core (src/runner/): the pipeline runs with the same
 * checks, prices, reconciliation and files as in the editor.
 */
export async function exportPipelineFile(file: PipelineFile, place: ExportPlace, deps: Pick<ExportDeps, 'persons' | 'baseUrl'>, given?: { readonly schedule: Schedule; readonly maxCredits: number; readonly command?: 'run' | 'watch'; readonly writePipeline?: boolean }): Promise<string | undefined> {
  const nb = { uri: place.uri };
  const stem = place.stem;
  const dir = path.dirname(nb.uri.fsPath);
  const runnerFile = path.join(dir, RUNNER_NAME);
  const resultsDir = `${stem}.results`;
  // Exported only when the editor would run it: no problem in any cell, a bound on every line.
  const problems = checkPipeline(file).map((p) => `${p.name ?? `cell ${p.index + 1}`}: ${p.message}`);
  const plan = planPipeline(file, {});
  if (plan.unbounded.length > 0) problems.push(l10n.t('{0} has no bound before it runs (a Wallet Database query billed per match), so no scheduled run can hold its price.', plan.unbounded.join(', ')));
  if (problems.length > 0) {
    void showError(l10n.t('The pipeline cannot be exported yet: {0}', problems.join(' ')));
    return undefined;
  }
  // Restricted Mode: a repository not trusted gets nothing written from it (its pipeline's name ends up in a workflow).
  if (!vscode.workspace.isTrusted) {
    const manage = l10n.t('Manage Workspace Trust');
    void showWarning(l10n.t('This workspace is in Restricted Mode: trust it to export its pipeline as a script.'), manage).then((a) => {
      if (a === manage) void vscode.commands.executeCommand('workbench.trust.manage');
    });
    return undefined;
  }
  const slot = await scriptSlot(dir, RUNNER_NAME);
  if (slot === 'refused') {
    void showError(l10n.t('{0} beside the pipeline is a link or a folder, not a script: it was left as it is and nothing was exported.', RUNNER_NAME));
    return undefined;
  }
  if (slot === 'file') {
    const ok = await deps.persons.confirm(`${RUNNER_NAME} exists beside the pipeline. Replace it?`, 'It is written again from this version of the extension.', 'Replace');
    if (!ok) return undefined;
  }
  try {
    await writeScript(dir, RUNNER_NAME, { copyOf: RUNNER_SOURCE }, slot === 'file');
    // A watched request has no pipeline file of its own: the one the runner reads is written beside it.
    if (given?.writePipeline) await replaceInside(dir, path.basename(nb.uri.fsPath), serializePipeline(file));
  } catch (e) {
    void showError(l10n.t('The script was not exported: {0}', errorText(e)));
    return undefined;
  }
  const total = given ? Math.min(given.maxCredits, plan.total) : plan.total;
  const command = given?.command ?? 'run';
  const pipelineName = path.basename(nb.uri.fsPath);
  const lines = [`Exported ${RUNNER_NAME} (plan: ${plan.totalText}). Run it with Node 20 and WA_API_KEY set: node ${RUNNER_NAME} ${command} ${pipelineName} --max-credits ${total} --base-url ${deps.baseUrl()}`];
  // The sandbox lives only while this window does: a run written for it needs another --base-url elsewhere.
  if (/^http:\/\/(?:localhost|127\.|\[::1\])/u.test(deps.baseUrl())) lines.push(`It is written for ${deps.baseUrl()} (this machine); give another --base-url to run it against another server.`);
  const schedule = given ? given.schedule : await pickSchedule(deps.persons, total);
  let cron: string | undefined;
  if (schedule) {
    const folder = vscode.workspace.getWorkspaceFolder(nb.uri);
    const rel = (p: string): string => (folder ? path.relative(folder.uri.fsPath, p).split(path.sep).join('/') : path.basename(p));
    const run = { runner: rel(runnerFile), pipeline: rel(nb.uri.fsPath), command, baseUrl: deps.baseUrl(), results: rel(path.join(dir, resultsDir)), maxCredits: total, name: place.name };
    if (isPlainPath(run.runner) && isPlainPath(run.pipeline) && isPlainPath(run.results)) {
      const wfRoot = folder ? folder.uri.fsPath : dir;
      const wfRel = folder ? `.github/workflows/wallet-analytics-${stem}.yml` : `wallet-analytics-${stem}.yml`;
      let wfFile: string;
      try {
        wfFile = await writeWorkflow(wfRoot, wfRel, githubWorkflow(schedule, run));
        cron = cronLine(schedule, { ...run, runner: RUNNER_NAME, pipeline: pipelineName, results: resultsDir }, dir);
      } catch (e) {
        void showError(l10n.t('The script was exported, but not its workflow: {0}', errorText(e)));
        return runnerFile;
      }
      lines.push(`Workflow (${scheduleText(schedule)}): ${folder ? rel(wfFile) : path.basename(wfFile)}; add the repository secret WA_API_KEY.`);
    } else {
      lines.push(`No workflow: “${run.pipeline}” is not a plain path (letters, digits, “._-/”); move or rename it to schedule it.`);
    }
  }
  const copy = 'Copy Cron Line';
  // Not awaited: the files are written; the message waits for the person, the command does not.
  void vscode.window.showInformationMessage(lines.join(' '), ...(cron ? [copy] : [])).then(async (picked) => {
    if (picked === copy && cron) {
      await vscode.env.clipboard.writeText(cron);
      void vscode.window.showInformationMessage(l10n.t('Cron line copied; set WA_API_KEY in the crontab.'));
    }
  });
  return runnerFile;
}

/** The command: the toolbar's or the active pipeline notebook. */
export async function exportPipelineCommand(arg: unknown, notebookType: string, deps: ExportDeps): Promise<string | undefined> {
  const nb = notebookOf(arg, notebookType);
  if (!nb) {
    void vscode.window.showInformationMessage(l10n.t('Open a .wapipe.json pipeline to export it.'));
    return undefined;
  }
  return exportPipeline(nb, deps);
}
