import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import type { Chain } from '../../core/spec/addresses';
import { endpoint, type Endpoint } from '../../core/spec/catalog';
import { quote, type Quote } from '../../core/money/pricing';
import { analyzeQuery } from '../../core/query/analyze';
import { CHAIN_LABEL } from '../../core/query/fields';
import { parseQueryFile } from '../../core/query/file';
import type { QueryBody } from '../../core/spec/queryModel';
import { ago, type QueryRun, type QueryRunCache } from '../../core/query/runCache';
import { fmtRefreshTime, nextRefresh } from '../../core/spec/refresh';
import type { CallService, RunOutcome } from '../calls/callService';
import type { Connection } from '../base/connection';
import { CommandIds } from '../base/ids';
import { openResult } from '../results/open';
import { queryDocument } from './documents';
import type { QueryFieldService } from './fieldService';
import { l10n } from '../../shared/l10n';
import { showError, showWarning } from '../base/errors';
import { offerSpend } from '../base/personQuestions';
import { fmtCredits, thousands } from '../../core/numberText';

/** Arguments of the run commands (CodeLens, palette, tests). */
export interface RunQueryArgs {
  /** The chain to run on; by default the file's `$chain` ("main" when absent). */
  readonly chain?: Chain;
  /** Run even when the same query's answer is from the current refresh period ("Run Anyway"). */
  readonly fresh?: boolean;
  /** false: do not open the result. */
  readonly open?: boolean;
}

export type QueryRunResult =
  | { readonly status: 'cached'; readonly run: QueryRun; readonly opened: string; readonly message: string }
  | { readonly status: 'ran'; readonly outcome: RunOutcome; readonly run?: QueryRun }
  | { readonly status: 'invalid'; readonly problems: readonly string[] }
  | { readonly status: 'cancelled' };

export type EstimateResult = { readonly status: 'estimated'; readonly quote: Quote; readonly run: QueryRun } | { readonly status: 'none' | 'invalid' };

export function queryEndpoint(chain: Chain): Endpoint {
  return endpoint(chain === 'alt' ? 'altchain_wallet_database' : 'wallet_database');
}

/** Runs `.waquery.json` files through the price flow, and opens a cached answer for free until the next hourly refresh. */
export class QueryRunner {
  private readonly ran = new vscode.EventEmitter<QueryRun>();
  /** A query ran and its answer was cached (from this runner, the palette or a re-run: the call flow records it). */
  readonly onDidRun = this.ran.event;
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly calls: CallService,
    private readonly connection: Connection,
    private readonly fields: QueryFieldService,
    readonly cache: QueryRunCache,
  ) {
    this.sub = calls.onDidRecordRun((run) => this.ran.fire(run));
  }

  /** The body and chain of a document, or the problems that keep it from being sent. */
  async prepare(doc: vscode.TextDocument, chainArg?: Chain): Promise<{ body: QueryBody; chain: Chain } | { problems: string[]; refresh: boolean }> {
    const parsed = parseQueryFile(doc.getText());
    if (!parsed.ok) return { problems: parsed.errors, refresh: false };
    const chain = chainArg ?? parsed.chain ?? 'main';
    const columns = await this.fields.ensure();
    const errors = analyzeQuery(doc.getText(), columns, { chain }).filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      return { problems: errors.map((d) => `Line ${doc.positionAt(d.offset).line + 1}: ${d.message}`), refresh: errors.some((d) => d.refreshMayFix) };
    }
    return { body: parsed.body, chain };
  }

  /** The answer of this query on this chain from the current refresh period, if any. */
  async lastRun(doc: vscode.TextDocument, chain: Chain): Promise<QueryRun | undefined> {
    const parsed = parseQueryFile(doc.getText());
    if (!parsed.ok) return undefined;
    return this.cache.lookup(this.connection.scope(), chain, parsed.body);
  }

  async run(arg: unknown, args: RunQueryArgs = {}): Promise<QueryRunResult> {
    const doc = await queryDocument(arg);
    if (!doc) {
      const create = l10n.t('New Query');
      void showWarning(l10n.t('Open a .waquery.json file to run it, or create one.'), create).then((a) => {
        if (a === create) void vscode.commands.executeCommand(CommandIds.newQuery);
      });
      return { status: 'cancelled' };
    }
    const ready = await this.prepare(doc, args.chain);
    if ('problems' in ready) {
      void this.showProblems(ready.problems, ready.refresh);
      return { status: 'invalid', problems: ready.problems };
    }
    const { body, chain } = ready;
    const scope = this.connection.scope();
    if (!args.fresh) {
      const run = await this.cache.lookup(scope, chain, body);
      if (run) return this.openCached(doc, run, args);
    }
    // The one call flow: the price (and the ceiling) is shown and decided there, whoever asked; it
    // also records the answer in the cache (for every path that sends a query, not only this one).
    const outcome = await this.calls.run(queryEndpoint(chain), { inputs: { query: body }, open: args.open, queryFile: doc.uri.toString() });
    if (outcome.status !== 'done' || !outcome.run) return { status: 'ran', outcome };
    return { status: 'ran', outcome, run: outcome.run };
  }

  private async openCached(doc: vscode.TextDocument, run: QueryRun, args: RunQueryArgs): Promise<QueryRunResult> {
    const file = run.resultPath && existsSync(run.resultPath) ? run.resultPath : run.answerPath;
    if (args.open !== false) await openResult(file);
    const chain = run.chain === 'alt' ? ` on the ${CHAIN_LABEL.alt}` : '';
    const now = Date.now();
    const message =
      `Opened the answer of this query${chain} from ${ago(run.at, now)}: ${thousands(run.total)} matching wallets. ` +
      `Free: nothing was sent and no credits were spent (that run cost ${fmtCredits(run.charged)}; the same query returns the same wallets until the hourly refresh at ${fmtRefreshTime(nextRefresh(run.at))}).`;
    const again = `Run Anyway (${thousands(quote(queryEndpoint(run.chain), {}, { knownMatches: run.total, matchesAt: run.at, now }).credits)} credits)`;
    // The first button sends nothing (the answer is open already); Run Anyway, which spends, comes second.
    void offerSpend(message, l10n.t('Keep This Answer'), again).then((yes) => {
      if (yes) void this.run(doc.uri, { ...args, fresh: true });
    });
    return { status: 'cached', run, opened: file, message };
  }

  /** The exact price of running the query again, from the match count of its run in the current refresh period. */
  async estimate(arg: unknown, args: { chain?: Chain } = {}): Promise<EstimateResult> {
    const doc = await queryDocument(arg);
    if (!doc) return { status: 'none' };
    const parsed = parseQueryFile(doc.getText());
    if (!parsed.ok) {
      void this.showProblems(parsed.errors, false);
      return { status: 'invalid' };
    }
    const chain = args.chain ?? parsed.chain ?? 'main';
    const ep = queryEndpoint(chain);
    const run = await this.cache.lookup(this.connection.scope(), chain, parsed.body);
    if (!run) {
      void vscode.window.showInformationMessage(l10n.t('No answer since the hourly refresh: {0}.', quote(ep, {}).text));
      return { status: 'none' };
    }
    const now = Date.now();
    const q = quote(ep, { query: parsed.body }, { knownMatches: run.total, matchesAt: run.at, now });
    const until = fmtRefreshTime(nextRefresh(run.at));
    const open = 'Open Last Answer (Free)';
    const again = 'Run Anyway';
    void vscode.window
      .showInformationMessage(l10n.t('Running this query again costs {0}. It ran {1}; its answer opens free until {2}.', q.text, ago(run.at, now), until), open, again)
      .then((a) => {
        if (a === open) void this.run(doc.uri, { chain });
        else if (a === again) void this.run(doc.uri, { chain, fresh: true });
      });
    return { status: 'estimated', quote: q, run };
  }

  private async showProblems(problems: readonly string[], refresh: boolean): Promise<void> {
    const actions = ['Show Problems', ...(refresh ? ['Refresh Query Fields'] : [])];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    const a = await showError(l10n.t('The query was not sent (nothing was charged): {0}{1}', problems[0] ?? '', more), ...actions);
    if (a === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (a === 'Refresh Query Fields') await vscode.commands.executeCommand(CommandIds.refreshQueryFields);
  }

  dispose(): void {
    this.sub.dispose();
    this.ran.dispose();
  }
}
