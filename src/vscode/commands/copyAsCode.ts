/**
 * "Copy as Code": a call written out (src/core/codegen/snippets.ts) and put on the clipboard, from the
 * price step, a Requests item, a query file, or the palette: first as the command line of the
 * extension's own runner (its dist/cli.js, the file Export Pipeline copies); Python, TypeScript and
 * PowerShell run that line, for a paid call and a free read alike (a free read's answer is what the
 * runner prints). curl is not offered: its bash is the first choice's line.
 *
 * Copying never sends anything and never approves a price: it has no path to the call flow's send.
 * The snippet reads the key from WA_API_KEY; the key is never read here, so it cannot reach the
 * clipboard. The base URL is the window's active one (the sandbox's while it runs), as a call now
 * would use.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import type { Chain } from '../../core/spec/addresses';
import { ENDPOINTS, findEndpoint, shortTitle, type Endpoint } from '../../core/spec/catalog';
import { endpointTitle, hasShortenedList } from '../../core/history/format';
import type { HistoryItem } from '../../core/history/merge';
import { describeRule, type QuoteContext } from '../../core/money/pricing';
import { KEY_VARIABLE, describeCall, isSnippetLanguage, languageLabel, snippet, snippetLanguages, type SnippetLanguage } from '../../core/codegen/snippets';
import { StorageKeys, type Storage } from '../../core/storage';
import type { Connection } from '../base/connection';
import { CommandIds } from '../base/ids';
import { collectInputs } from '../flows/inputFlow';
import type { JobService } from '../jobs/jobService';
import { queryDocument } from '../language/documents';
import { queryEndpoint, type QueryRunner } from '../language/runner';
import { RequestNode } from '../views/requestsTree';
import { l10n } from '../../shared/l10n';
import { showError } from '../base/errors';
import { RUNNER_SOURCE } from '../pipeline/exportPipeline';

export type CopyOutcome =
  | { readonly status: 'copied'; readonly language: SnippetLanguage; readonly text: string; readonly message: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'invalid'; readonly errors: readonly string[] };

/** What a caller may pass: the language, instead of picking it; a query file's chain. */
interface CopyOptions {
  readonly language?: SnippetLanguage;
  readonly chain?: Chain;
}


function optionsFrom(raw: unknown): CopyOptions {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const o = raw as Record<string, unknown>;
  return {
    // curl, once offered, is asked for by an older caller: its bash is the runner's line, so that is what it gets.
    language: o.language === 'curl' ? 'runner' : isSnippetLanguage(o.language) ? o.language : undefined,
    chain: o.chain === 'alt' || o.chain === 'main' ? o.chain : undefined,
  };
}

/** Writes calls as code to the clipboard. */
export class CodeCopier {
  /** Test runner only (reached through ExtensionApi.testing): the language a person would pick. */
  languageForTests: SnippetLanguage | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly storage: Storage,
  ) {}

  /** Copies the call of ep with input; the language is the caller's, or picked (the last one first). */
  async copy(ep: Endpoint, input: unknown, opts: CopyOptions & { ctx?: QuoteContext } = {}): Promise<CopyOutcome> {
    const d = describeCall(ep, input, this.connection.baseUrl(), opts.ctx);
    if (!d.ok) {
      void showError(l10n.t('{0}: {1} Nothing was copied.', shortTitle(ep), d.errors.join(' ')));
      return { status: 'invalid', errors: d.errors };
    }
    const language = opts.language ?? this.languageForTests ?? (await this.pickLanguage(ep));
    if (!language) return { status: 'cancelled' };
    await this.storage.set(StorageKeys.copyAsCodeLanguage, language);
    const text = snippet(language, d.call, { file: RUNNER_SOURCE });
    await vscode.env.clipboard.writeText(text);
    const sandbox = this.connection.activeSandbox;
    const message =
      `${shortTitle(ep)} copied as ${languageLabel(language, ep)}. The key is read from the environment variable ${KEY_VARIABLE}; it is not in the snippet. Nothing was sent.` +
      (sandbox ? ` It calls the sandbox at ${sandbox.baseUrl}, which takes ${KEY_VARIABLE}=${sandbox.demoKey} while this window runs it.` : '');
    void vscode.window.showInformationMessage(message);
    return { status: 'copied', language, text, message };
  }

  /** The picker's items for a call of ep, the last language picked first (each runs the runner; no curl). */
  languageItems(ep: Endpoint): { readonly label: string; readonly detail: string; readonly id: SnippetLanguage }[] {
    const last = this.storage.get(StorageKeys.copyAsCodeLanguage);
    return snippetLanguages(ep).sort((a, b) => (a.id === last ? -1 : b.id === last ? 1 : 0));
  }

  private async pickLanguage(ep: Endpoint): Promise<SnippetLanguage | undefined> {
    const pick = await vscode.window.showQuickPick(
      this.languageItems(ep),
      { title: l10n.t('Copy {0} as Code', shortTitle(ep)), placeHolder: l10n.t('The language (the key is read from {0}, never copied)', KEY_VARIABLE) },
    );
    return pick?.id;
  }
}

interface CopyCommandDeps {
  readonly connection: Connection;
  readonly jobs: JobService;
  readonly storage: Storage;
  /** A Requests view item by its requestId. */
  readonly historyItem: (requestId: string) => HistoryItem | undefined;
  readonly queries: QueryRunner;
}

/**
 * walletAnalytics.copyAsCode: from a Requests item (its endpoint and inputs), a query file (a Uri,
 * or the active `.waquery.json` editor), `{ endpointId, inputs }`, or, with nothing, a picked
 * endpoint and its inputs asked step by step. The second argument may name the language.
 */
export function registerCopyAsCode(context: vscode.ExtensionContext, copier: CodeCopier, deps: CopyCommandDeps): void {
  const fromRequest = async (item: HistoryItem, opts: CopyOptions): Promise<CopyOutcome> => {
    const ep = findEndpoint(item.endpointId);
    if (!ep) throw new Error(`${endpointTitle(item.endpointId)} is not an endpoint this extension knows.`);
    // A local job's record may keep a long list in a file (core/jobs/inputFiles.ts).
    const inputs = await deps.jobs.store.wholeInputs(item.inputs);
    if (hasShortenedList(inputs)) {
      throw new Error(`The history keeps only the first entries of this request’s long list, so it cannot be copied as it was. Run “${ep.title}” from the palette with the full list and choose Copy as Code… at its price.`);
    }
    return copier.copy(ep, inputs, opts);
  };

  const fromQuery = async (target: unknown, opts: CopyOptions): Promise<CopyOutcome> => {
    const doc = await queryDocument(target);
    if (!doc) throw new Error('Open a .waquery.json file to copy it as code.');
    const ready = await deps.queries.prepare(doc, opts.chain);
    if ('problems' in ready) {
      void showError(l10n.t('The query was not copied: {0}{1}', ready.problems[0] ?? '', ready.problems.length > 1 ? ` (and ${ready.problems.length - 1} more)` : ''));
      return { status: 'invalid', errors: ready.problems };
    }
    // The same query run since the last hourly refresh makes the price exact, as at the price step.
    const last = await deps.queries.lastRun(doc, ready.chain);
    const ctx: QuoteContext | undefined = last ? { knownMatches: last.total, matchesAt: last.at, now: Date.now() } : undefined;
    return copier.copy(queryEndpoint(ready.chain), { query: ready.body }, { ...opts, ctx });
  };

  const fromPalette = async (opts: CopyOptions): Promise<CopyOutcome> => {
    const pick = await vscode.window.showQuickPick(
      ENDPOINTS.map((ep) => ({ label: ep.title, description: describeRule(ep), detail: `${ep.method} ${ep.path} · ${ep.summary}`, ep })),
      { title: l10n.t('Wallet Analytics: Copy as Code'), placeHolder: l10n.t('The call to copy (nothing is sent)'), matchOnDetail: true },
    );
    if (!pick) return { status: 'cancelled' };
    const ep = pick.ep;
    const input = await collectInputs(ep, {
      recent: await deps.storage.recentInputs(ep.id),
      doneJobs: () => deps.jobs.store.all().filter((j) => j.state === 'done'),
      columns: (chain) => deps.connection.api().columns(chain),
    }, 0);
    if (!input) return { status: 'cancelled' };
    return copier.copy(ep, input, opts);
  };

  context.subscriptions.push(
    registerCommand(CommandIds.copyAsCode, async (target?: unknown, extra?: unknown): Promise<CopyOutcome | undefined> => {
      try {
        const opts = optionsFrom(extra);
        if (target instanceof RequestNode || typeof target === 'string') {
          const id = target instanceof RequestNode ? target.requestId : target;
          const item = deps.historyItem(id);
          if (!item) throw new Error('That request is no longer in the history.');
          return await fromRequest(item, opts);
        }
        if (target instanceof vscode.Uri) return await fromQuery(target, opts);
        if (typeof target === 'object' && target !== null && typeof (target as { endpointId?: unknown }).endpointId === 'string') {
          const t = target as { endpointId: string; inputs?: unknown };
          const ep = findEndpoint(t.endpointId);
          if (!ep) throw new Error(`Unknown endpoint: ${t.endpointId}`);
          return await copier.copy(ep, t.inputs ?? {}, optionsFrom(target));
        }
        if (vscode.window.activeTextEditor?.document.languageId === 'waquery') return await fromQuery(undefined, opts);
        return await fromPalette(opts);
      } catch (e) {
        void showError(e);
        return undefined;
      }
    }),
  );
}
