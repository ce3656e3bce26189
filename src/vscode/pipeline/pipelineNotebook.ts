/**
 * The pipeline notebook (issue 24): `*.wapipe.json` files open as a notebook of our own type, one
 * cell per step (a call or a local step over earlier results). The serializer writes the steps as
 * plain JSON (core/pipeline/format.ts: no result, no key); the controller plans the chosen cells as
 * a whole (core/pipeline/plan.ts), asks the person once in a pick whose default spends nothing,
 * then runs them (core/pipeline/run.ts) with every paid call through the one call flow
 * (CallService.run) carrying its plan line. Results are kept beside the file and reused.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommand, registerNotebookSerializer } from '../base/handOver';
import { findEndpoint, shortTitle, type Endpoint } from '../../core/spec/catalog';
import { cellFromText, cellText, parsePipeline, serializePipeline, type PipelineFile } from '../../core/pipeline/format';
import { planText } from '../../core/pipeline/plan';
import { planApprovals, type Approval } from '../../core/money/approval';
import { firstCellError } from '../../core/pipeline/cellChecks';
import { notRunMarkdown, stoppedMarkdown } from '../../core/pipeline/output';
import { forgetRecord, planOnDisk, readRecord, resultsDirOf, runPipeline, untitledResultsDir, type CallResult, type LastAnswer } from '../../core/pipeline/run';
import { noResultFile, toldOutcome } from '../../core/calls/outcome';
import type { ChainColumns } from '../../core/query/fields';
import type { QueryRunCache } from '../../core/query/runCache';
import type { JobRecord } from '../../core/jobs/job';
import type { JobStore } from '../../core/jobs/store';
import { CommandIds, PIPELINE_CONTROLLER, PIPELINE_NOTEBOOK } from '../base/ids';
import type { Connection } from '../base/connection';
import type { CallService } from '../calls/callService';
import type { PriceQuestions } from '../calls/priceStep';
import type { PersonQuestions } from '../base/personQuestions';
import { openResult } from '../results/open';
import { l10n } from '../../shared/l10n';
import { exportPipelineCommand } from './exportPipeline';
import { followSaveAs, newPipelineFile } from './newPipeline';
import { cellResultOutput, registerCellResultMessaging } from './cellResultOutput';
import { showWarning } from '../base/errors';
import { errorText, CancelledError } from '../../core/errors';
import { thousands } from '../../core/numberText';


class PipelineSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const text = new TextDecoder().decode(content);
    let file: PipelineFile;
    try {
      file = parsePipeline(text);
    } catch (e) {
      // A file that is not a pipeline opens as one cell holding its text, so nothing is lost on save.
      const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, `${text}\n// ${errorText(e)}`, 'json');
      return new vscode.NotebookData([cell]);
    }
    return new vscode.NotebookData(file.cells.map((c) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cellText(c), 'json')));
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const file: PipelineFile = { version: 1, cells: data.cells.filter((c) => c.kind === vscode.NotebookCellKind.Code).map((c) => cellFromText(c.value)) };
    return new TextEncoder().encode(serializePipeline(file));
  }
}

export interface PipelineDeps {
  readonly calls: CallService;
  readonly questions: PriceQuestions;
  readonly connection: Connection;
  /**
   * The job store as it is now: JobService rebuilds its store (a reload does), so one captured at
   * registration would never hear a job settle and the run would wait forever.
   */
  readonly store: () => JobStore;
  /** The person's answers outside prices (Export Pipeline as Script's schedule and replace). */
  readonly persons: PersonQuestions;
  /** Wallet Database answers of this refresh period (the query files' cache): free reuse and exact prices. */
  readonly queryRuns?: Pick<QueryRunCache, 'lookup'>;
  /** The server's field lists (QueryFieldService.ensure), so a query's fields are checked before the plan. */
  readonly columns?: () => Promise<ChainColumns | undefined>;
  /** The window's results folder: where a call cell's result is, and the only folder besides the pipeline's own a record may name. */
  readonly resultsFolder: () => string;
}

/** Where a notebook's results are, and the folders its records may name. */
interface ResultsPlace {
  readonly dir: string;
  readonly roots: readonly string[];
}

/** The notebook's file as it is now in the editor (unsaved edits included). */
function fileOf(nb: vscode.NotebookDocument): PipelineFile {
  return { version: 1, cells: nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code).map((c) => cellFromText(c.document.getText())) };
}

/** The notebook's code cells' texts, in order (what the checks read). */
function codeTexts(nb: vscode.NotebookDocument): string[] {
  return nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code).map((c) => c.document.getText());
}

/**
 * Where a notebook's results are kept: beside it (`x.results/`), or for an untitled one, in a private
 * folder of the extension's global storage (`storage`), never a folder of the system's temp directory
 * that every user shares.
 */
async function resultsPlace(nb: vscode.NotebookDocument, storage: string, deps: Pick<PipelineDeps, 'resultsFolder'>): Promise<ResultsPlace> {
  const dir = nb.uri.scheme === 'file' ? resultsDirOf(nb.uri.fsPath) : await untitledResultsDir(storage);
  return { dir, roots: [deps.resultsFolder()] };
}

/** Waits for a queued job to settle, or for the run to be cancelled (the job then goes on; its file is kept). */
function settled(store: JobStore, requestId: string, signal: AbortSignal): Promise<JobRecord | undefined> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const j = store.get(requestId);
      if (j && (j.state === 'done' || j.state === 'failed' || j.state === 'untracked')) {
        done(j);
        return true;
      }
      return false;
    };
    const off = store.onDidChange((ids) => {
      if (ids.includes(requestId)) check();
    });
    const onAbort = (): void => done(undefined);
    function done(j: JobRecord | undefined): void {
      off();
      signal.removeEventListener('abort', onAbort);
      resolve(j);
    }
    signal.addEventListener('abort', onAbort);
    if (!check() && signal.aborted) done(undefined);
  });
}

class PipelineController {
  readonly controller: vscode.NotebookController;
  private order = 0;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly storage: string,
  ) {
    this.controller = vscode.notebooks.createNotebookController(PIPELINE_CONTROLLER, PIPELINE_NOTEBOOK, 'Wallet Analytics Pipeline');
    this.controller.supportedLanguages = ['json'];
    this.controller.supportsExecutionOrder = true;
    this.controller.executeHandler = (cells, nb) => this.execute(cells, nb);
  }

  private async execute(chosen: vscode.NotebookCell[], nb: vscode.NotebookDocument): Promise<void> {
    const file = fileOf(nb);
    const { dir, roots } = await resultsPlace(nb, this.storage, this.deps);
    const only = new Set(chosen.map((c) => c.index));
    const executions = new Map(chosen.map((c) => [c.index, this.controller.createNotebookCellExecution(c)]));
    const abort = new AbortController();
    for (const x of executions.values()) x.token.onCancellationRequested(() => abort.abort(new CancelledError()));
    const started = new Set<number>();
    const shown: Promise<void>[] = [];
    // `ok` undefined: neither worked nor failed (the person declined the plan): the cell wears no mark.
    const end = (index: number, ok: boolean | undefined, output: string | vscode.NotebookCellOutput): void => {
      const x = executions.get(index);
      if (!x) return;
      if (!started.has(index)) {
        x.start(Date.now());
        started.add(index);
      }
      void x.replaceOutput(typeof output === 'string' ? new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(output, 'text/markdown')]) : output);
      x.end(ok, Date.now());
      executions.delete(index);
    };
    try {
      // The checks the editor shows (core/pipeline/cellChecks.ts), with the same message: a bad cell runs nothing.
      const bad = firstCellError(codeTexts(nb), await this.deps.columns?.().catch(() => undefined));
      if (bad) {
        const at = nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code)[bad.index]?.index;
        const shown = at !== undefined && executions.has(at) ? at : [...executions.keys()].sort((a, b) => a - b)[0];
        const where = at === shown ? '' : ` (cell ${bad.index + 1})`;
        if (shown !== undefined) end(shown, false, notRunMarkdown(l10n.t('{0}{1} Nothing was sent.', bad.message, where)));
        return;
      }
      const lastAnswer = this.lastAnswer();
      const plan = await planOnDisk(file, dir, undefined, lastAnswer, Date.now, roots);
      const lines = plan.lines.filter((l) => only.has(l.index));
      const sub = { ...plan, lines, unbounded: lines.filter((l) => !l.bounded).map((l) => l.cell), total: lines.reduce((s, l) => s + l.credits, 0) };
      // A lone Wallet Database cell whose match count no answer of this hour gives: its price is asked as for one query.
      const lone = only.size === 1 && lines.length === 1 && lines[0]?.bounded === false && findEndpoint(lines[0].endpointId)?.price.kind === 'perMatch' ? lines[0] : undefined;
      if (lone) sub.unbounded = [];
      if (sub.unbounded.length > 0) {
        const first = lines.find((l) => !l.bounded);
        if (first) end(first.index, false, notRunMarkdown(l10n.t('{0}. Nothing was sent.', first.text)));
        return;
      }
      let approvals: ReadonlyMap<string, Approval> = new Map();
      if (sub.total > 0) {
        const totalText = `${lines.every((l) => l.exact) ? '' : 'up to '}${thousands(sub.total)} credits`;
        const detail = planText({ ...sub, totalText }).join('\n');
        const ok = await this.deps.questions.ask({
          kind: 'modal', why: 'confirm', endpointId: 'pipeline', to: this.deps.connection.label(),
          message: `Run ${path.basename(nb.uri.path)}: ${totalText}`,
          detail: l10n.t('{0}\n\nEach cell may spend up to its line; one that would cost more stops the run. Charged to {1}.', detail, this.deps.connection.label()),
          yes: 'Approve Plan and Run', pick: { label: l10n.t('Approve Plan and Run ({0})', totalText), detail: lines.map((l) => (l.exact ? l10n.t('{0} {1}', l.cell, thousands(l.credits)) : l10n.t('{0} ≤ {1}', l.cell, thousands(l.credits)))).join(' · ') },
        });
        if (!ok) {
          // Declining is the person's choice, not a failure: no red mark on every cell.
          for (const i of [...executions.keys()]) end(i, undefined, notRunMarkdown(l10n.t('the plan was not approved. Nothing was sent.')));
          return;
        }
        // Each line bound to its cell as written: the plan is the confirmation for every line within it.
        approvals = planApprovals(sub.lines, file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : [])));
      }
      const summary = await runPipeline(file, {
        dir, roots, plan: sub, approvals, only, signal: abort.signal,
        ...(lastAnswer ? { lastAnswer } : {}),
        ...(lone ? { askAlone: new Set([lone.cell]) } : {}),
        adopt: (requestId, signal) => this.adopt(requestId, signal ?? abort.signal),
        call: (cell, ep, input, approval) => this.call(ep, input, approval, abort.signal),
        onEvent: (e) => {
          const x = executions.get(e.index);
          if (e.kind === 'running' && x && !started.has(e.index)) {
            x.executionOrder = ++this.order;
            x.start(Date.now());
            // The last run's output ("Not run", an older result) would read as this run's.
            void x.clearOutput();
            started.add(e.index);
          } else if (e.kind === 'done') {
            shown.push(cellResultOutput(e.cell, e.record, e.reused).then((out) => end(e.index, true, out)));
          } else if (e.kind === 'stopped') end(e.index, false, stoppedMarkdown(e.message));
        },
      });
      if (summary.stopped) {
        // Shown whole (a toast without a button is one line, issue 23), the log as the next step.
        const log = l10n.t('Show Log');
        void showWarning(l10n.t('Pipeline stopped at “{0}”: {1} Charged in this run: {2} credits.', summary.stopped.cell, summary.stopped.message, thousands(summary.charged)), log).then((a) => {
          if (a === log) void vscode.commands.executeCommand(CommandIds.showLog);
        });
      }
    } finally {
      await Promise.all(shown);
      // Cells after a stop were not run.
      for (const i of [...executions.keys()]) end(i, false, notRunMarkdown(l10n.t('the run stopped before this cell.')));
    }
  }

  /** The result of a job a cell paid for before a run was cancelled: waited for in the job store, never sent again. */
  private adopt(requestId: string, signal: AbortSignal): Promise<{ resultPath: string } | undefined> {
    return adoptJob(this.deps.store(), requestId, signal);
  }

  /** The query files' rule for this window's connection: the same query's answer from this refresh period. */
  private lastAnswer(): LastAnswer | undefined {
    const runs = this.deps.queryRuns;
    return runs ? (ep, body) => runs.lookup(this.deps.connection.scope(), ep.chain, body) : undefined;
  }

  private call(ep: Endpoint, input: Record<string, unknown>, approval: Approval | undefined, signal: AbortSignal): Promise<CallResult> {
    return callCell(this.deps, ep, input, approval, signal);
  }

  dispose(): void {
    this.controller.dispose();
  }
}

/** The result of a job a cell paid for before a run was cancelled: waited for in the job store, never sent again. Also the agents' pipeline tool's (src/vscode/agents/). */
export async function adoptJob(store: JobStore, requestId: string, signal: AbortSignal): Promise<{ resultPath: string } | undefined> {
  // A job the store does not know (another profile's, or cleared) is not waited for: the cell is planned and sent again.
  if (!store.get(requestId)) return undefined;
  const j = await settled(store, requestId, signal);
  return j?.state === 'done' && j.resultPath ? { resultPath: j.resultPath } : undefined;
}

/**
 * One paid or free call of a pipeline cell through the one call flow, with its plan line; a queued
 * job is followed until it settles or the run is cancelled. Also a watched pipeline's (src/vscode/watch/) and the agents' pipeline tool's.
 */
export async function callCell(deps: Pick<PipelineDeps, 'calls' | 'store'>, ep: Endpoint, input: Record<string, unknown>, approval: Approval | undefined, signal: AbortSignal): Promise<CallResult> {
  const out = await deps.calls.run(ep, { inputs: input, notify: false, wait: false, open: false, ...(ep.paged ? { pages: 1 } : {}) }, approval);
  switch (out.status) {
    case 'done':
      return out.resultPath ? { status: 'done', credits: out.credits, resultPath: out.resultPath } : { status: 'stopped', message: noResultFile(), credits: out.credits };
    case 'queued': {
      const j = await settled(deps.store(), out.requestId, signal);
      if (!j) return { status: 'stopped', message: `Cancelled while ${shortTitle(ep)} ran; the job ${out.requestId} was paid and goes on: the next run adopts its result (free), and its file is listed under Requests.`, credits: out.credits, requestId: out.requestId };
      if (j.state === 'done' && j.resultPath) return { status: 'done', credits: out.credits, resultPath: j.resultPath };
      return { status: 'stopped', message: `${shortTitle(ep)}: ${j.error ?? j.state}`, credits: out.credits };
    }
    case 'cancelled':
    case 'invalid':
    case 'refused':
      return { status: 'stopped', message: toldOutcome(out).message, notSent: true };
    case 'failed':
      return { status: 'stopped', message: toldOutcome(out).message };
  }
}

/** The cell a command was run on: its argument (the cell toolbar) or the active notebook's selection. */
function cellOf(arg: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'notebook' in arg && 'index' in arg) return arg as vscode.NotebookCell;
  const ed = vscode.window.activeNotebookEditor;
  const sel = ed?.selection;
  return ed && sel && !sel.isEmpty ? ed.notebook.cellAt(sel.start) : undefined;
}

function cellName(cell: vscode.NotebookCell): string | undefined {
  const c = cellFromText(cell.document.getText());
  return typeof c === 'string' ? undefined : c.name;
}

/** Registers the notebook type, its controller and its commands (New Pipeline…, Open Result as Table, Refresh Cell Result, Export Pipeline as Script…). */
export function registerPipelineNotebook(context: vscode.ExtensionContext, deps: PipelineDeps): void {
  const storage = context.globalStorageUri.fsPath;
  const controller = new PipelineController(deps, storage);
  const recordOf = async (nb: vscode.NotebookDocument, name: string) => {
    const { dir, roots } = await resultsPlace(nb, storage, deps);
    return readRecord(dir, name, roots);
  };
  context.subscriptions.push(
    registerNotebookSerializer(PIPELINE_NOTEBOOK, new PipelineSerializer(), { transientOutputs: true }),
    controller,
  );
  registerCellResultMessaging(
    context,
    (nb, name) => (nb.notebookType === PIPELINE_NOTEBOOK ? recordOf(nb, name) : Promise.resolve(undefined)),
    (nb, name) => (nb.notebookType === PIPELINE_NOTEBOOK ? nb.getCells().find((c) => cellName(c) === name) : undefined),
  );
  context.subscriptions.push(
    registerCommand(CommandIds.newPipeline, async () => {
      // A file from the start, not an untitled notebook: its name ends in .wapipe.json and its results have a place (issue 35 item 3).
      const nb = await vscode.workspace.openNotebookDocument(await newPipelineFile(deps.resultsFolder()));
      await vscode.window.showNotebookDocument(nb);
      return nb;
    }),
    followSaveAs(PIPELINE_NOTEBOOK, storage, () => [deps.resultsFolder()], (nb) => serializePipeline(fileOf(nb)), (cells, to) => {
      void vscode.window.showInformationMessage(l10n.t('{0}: kept {1} results, reused free.', path.basename(to.fsPath), cells.length));
    }),
    registerCommand(CommandIds.pipelineOpenResult, async (arg: unknown) => {
      const cell = cellOf(arg);
      const name = cell && cellName(cell);
      const rec = cell && name ? await recordOf(cell.notebook, name) : undefined;
      if (!rec) return void vscode.window.showInformationMessage(l10n.t('This cell has no result on disk yet: run it first.'));
      await openResult(rec.resultPath);
    }),
    registerCommand(CommandIds.exportPipelineScript, (arg: unknown) =>
      exportPipelineCommand(arg, PIPELINE_NOTEBOOK, { baseUrl: () => deps.connection.baseUrl(), fileOf, persons: deps.persons }),
    ),
    registerCommand(CommandIds.pipelineRefreshCell, async (arg: unknown) => {
      const cell = cellOf(arg);
      const name = cell && cellName(cell);
      if (!cell || !name) return;
      await forgetRecord((await resultsPlace(cell.notebook, storage, deps)).dir, name);
      void vscode.window.showInformationMessage(l10n.t('“{0}” is sent again at the next run.', name));
    }),
  );
}

