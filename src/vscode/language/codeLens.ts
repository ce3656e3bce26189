import * as vscode from 'vscode';
import type { Chain } from '../../core/spec/addresses';
import { describeRule, quote } from '../../core/money/pricing';
import { ceilingText } from '../../core/money/quota';
import { readSettings } from '../base/settings';
import { analyzeQuery } from '../../core/query/analyze';
import { CHAIN_LABEL } from '../../core/query/fields';
import { parseQueryFile } from '../../core/query/file';
import { outlineQuery } from '../../core/query/outline';
import { ago } from '../../core/query/runCache';
import { fmtRefreshTime, nextRefresh } from '../../core/spec/refresh';
import { CommandIds } from '../base/ids';
import type { QueryFieldService } from './fieldService';
import { queryEndpoint, type QueryRunner } from './runner';
import { thousands } from '../../core/numberText';

/** The price line of a run lens: "100 credits per matching wallet (≥ 100)". */
function perMatchText(chain: Chain): string {
  const rule = queryEndpoint(chain).price;
  return rule.kind === 'perMatch' ? `${rule.credits} credits per matching wallet (≥ ${rule.minimum})` : describeRule(queryEndpoint(chain));
}

/**
 * Above the query: "▶ Run — 100 credits per matching wallet (≥ 100)", "▶ Run on Second Chain"
 * where every field exists there, "Estimate from Last Run" when the same query ran since the last hourly refresh.
 * A file that cannot be sent shows its problem count instead of Run.
 */
export class QueryCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly fields: QueryFieldService,
    private readonly runner: QueryRunner,
  ) {
    this.subs.push(fields.onDidChange(() => this.changed.fire()), runner.onDidRun(() => this.changed.fire()));
    // "12 minutes ago" moves with the clock, and a last run expires at the top of the hour.
    this.timer = setInterval(() => {
      if (vscode.window.visibleTextEditors.some((e) => e.document.languageId === 'waquery')) this.changed.fire();
    }, 60_000);
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const text = doc.getText();
    const outline = outlineQuery(text);
    if (outline.root?.type !== 'object') return [];
    const at = new vscode.Range(doc.positionAt(outline.root.offset), doc.positionAt(outline.root.offset));
    const lens = (title: string, command: string, args: unknown[] = [], tooltip?: string): vscode.CodeLens =>
      new vscode.CodeLens(at, { title, command, arguments: args, tooltip });
    const lenses: vscode.CodeLens[] = [];
    const columns = this.fields.peek();
    if (!columns) {
      const why = this.fields.problem();
      lenses.push(lens('$(sync) Load Query Fields', CommandIds.refreshQueryFields, [], `Read the queryable fields from the server (free)${why ? `. Last attempt: ${why}` : ''}`));
    }
    const parsed = parseQueryFile(text);
    const chain: Chain = parsed.ok ? (parsed.chain ?? 'main') : outline.chain;
    // parseQueryFile runs analyzeQuery's checks too: its errors count only when the analysis found none (a syntax or model error).
    const analysed = analyzeQuery(text, columns).filter((d) => d.severity === 'error').length;
    const errors = analysed > 0 || parsed.ok ? analysed : parsed.errors.length;
    if (errors > 0) {
      lenses.push(lens(`$(error) ${errors} problem${errors === 1 ? '' : 's'}: fix ${errors === 1 ? 'it' : 'them'} to run`, 'workbench.actions.view.problems', [], 'Nothing is sent while the query has problems.'));
      return lenses;
    }
    // The file's own chain carries the price; the other chain's lens stays short (the same price, §4.3 rule 5).
    const runLens = async (c: Chain, command: string, withPrice: boolean): Promise<void> => {
      const last = await this.runner.lastRun(doc, c);
      const where = c === 'alt' ? ' on Second Chain' : '';
      const ceiling = ceilingText(readSettings());
      const title = last ? `▶ Run${where} — last answer (${ago(last.at, Date.now())}) opens free` : `▶ Run${where}${withPrice ? ` — ${perMatchText(c)} · ${ceiling}` : ''}`;
      lenses.push(
        lens(title, command, [doc.uri, { chain: c }], `POST ${queryEndpoint(c).path}: ${perMatchText(c)}, billed per matching wallet whatever the limit. With the match count unknown, a run is refused under your ${ceiling} unless you lift it for that run.`),
      );
    };
    await runLens(chain, chain === 'alt' ? CommandIds.runQueryOnSecondChain : CommandIds.runQuery, true);
    lenses.push(lens('$(code) Copy as Code', CommandIds.copyAsCode, [doc.uri, { chain }], 'This query as the runner’s command line, or Python, TypeScript or PowerShell that run it, to the clipboard. Nothing is sent; the key is read from WA_API_KEY.'));
    if (chain === 'main' && (!columns?.alt || analyzeQuery(text, columns, { chain: 'alt' }).every((d) => d.severity !== 'error'))) {
      await runLens('alt', CommandIds.runQueryOnSecondChain, false);
    }
    for (const c of chain === 'main' ? (['main', 'alt'] as const) : (['alt'] as const)) {
      const last = await this.runner.lastRun(doc, c);
      if (!last) continue;
      const now = Date.now();
      const q = quote(queryEndpoint(c), {}, { knownMatches: last.total, matchesAt: last.at, now });
      if (!q.exact) continue;
      lenses.push(
        lens(
          `$(history) Estimate from Last Run${c === 'alt' && chain === 'main' ? ` (${CHAIN_LABEL.alt})` : ''}: ${thousands(q.credits)} credits (${thousands(last.total)} matches, ${ago(last.at, now)})`,
          CommandIds.estimateQuery,
          [doc.uri, { chain: c }],
          `The same query returns the same wallets until the hourly refresh at ${fmtRefreshTime(nextRefresh(last.at))}, so this price is exact until then.`,
        ),
      );
    }
    return lenses;
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
