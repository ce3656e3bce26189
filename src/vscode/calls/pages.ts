/**
 * Reading paid pages in VS Code: wallet activity (1 credit a page) and token creators (100 per
 * creator). Every page is paid as it arrives, so each is kept on disk at once
 * (src/core/results/pagedResult.ts); the progress shows the running cost and can be cancelled;
 * a failure or a cancel says what was kept and what it cost, and offers "Resume", which shows
 * the price of the remaining pages again and continues from the saved position.
 * "Resume Reading Pages…" does the same for any partial result file.
 *
 * A read is bound to one connection (Connection.bind) from before its price to its last page:
 * every page goes to it and is recorded under it, and a read whose connection is no longer the
 * window's when the price is approved sends nothing.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import * as path from 'node:path';
import { endpoint, shortTitle, type Endpoint } from '../../core/spec/catalog';
import { isWalletApiError, errorText } from '../../core/errors';
import {
  listResumable,
  loadPaged,
  newPagedFile,
  remainingPages,
  resumePaged,
  rowNoun,
  startPaged,
  type PagedResult,
  type ReadOutcome,
} from '../../core/results/pagedResult';
import { quote } from '../../core/money/pricing';
import { CommandIds } from '../base/ids';
import type { BoundConnection, Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import { readSettings } from '../base/settings';
import { showError, showErrorIn } from '../base/errors';
import { pickStep } from '../flows/multiStep';
import { approvePrice, connectionChanged, type PriceQuestions } from './priceStep';
import type { Log } from '../base/log';
import { offerResult, openResult } from '../results/open';
import { l10n } from '../../shared/l10n';
import { folderInside } from '../../core/files/writeInside';
import { counted, fmtCredits } from '../../core/numberText';

/** What reading pages needs of the extension's services (EndpointDeps and Services both have it). */
export interface PagesDeps {
  readonly connection: Connection;
  readonly credits: CreditsService;
  readonly jobs: { folder(): string };
  readonly log: Log;
  readonly questions: PriceQuestions;
}

interface PagesArgs {
  /** Open the result in the table when the read ends (default true). */
  readonly open?: boolean;
  /** Resume: how many more pages, instead of asking ('all': up to the budget). */
  readonly pages?: number | 'all';
  /** Told after each page is on disk (tests use it to fail a chosen page). */
  readonly onPage?: (saved: PagedResult) => void | Promise<void>;
}

/** The same shapes as the call flow's RunOutcome, with the pages and the file. */
export type PagesOutcome =
  | { readonly status: 'cancelled' }
  | { readonly status: 'refused'; readonly message: string }
  | {
      readonly status: 'done';
      /** Credits this run charged (the file's `credits` holds every run's). */
      readonly credits: number;
      readonly shown: string;
      readonly value: PagedResult | undefined;
      readonly resultPath: string;
      readonly end: 'last' | 'budget' | 'cancelled';
    }
  | {
      readonly status: 'failed';
      readonly message: string;
      /** Whether the page that failed was charged (pages kept before it were, and are in `credits`). */
      readonly charged: 'no' | 'unknown';
      readonly credits: number;
      readonly value: PagedResult | undefined;
      readonly resultPath?: string;
    };

/** Asks how many pages to read, each choice with its "up to" price; undefined when dismissed. */
export async function askPages(ep: Endpoint, input: Record<string, unknown>, step: number, total: number, budget: number): Promise<number | 'all' | undefined> {
  const creators = rowNoun(ep) === 'creator';
  const choices = (creators ? [1, 2, 5] : [1, 5, 10]).filter((n) => n < budget);
  const price = (n: number) => quote(ep, input, { pages: n }).text.replace(/ \(.*$/u, '');
  const rows = (n: number) => (creators ? `up to ${counted(n * Number(input.page_size), 'creator')}` : `up to ${counted(n * 100, 'swap')}`);
  const items = choices.map((n) => ({ label: counted(n, 'page'), description: `${rows(n)} · ${price(n)}`, value: n as number | 'all' }));
  items.push({ label: l10n.t('All pages, up to the budget of {0}', budget), description: l10n.t('{0} · stops early at the last page', price(budget)), value: 'all' });
  const each = creators ? `${Number(input.page_size)} creators a page, 100 credits each` : '100 swaps a page, 1 credit each';
  const pick = await pickStep({ title: shortTitle(ep), step, total }, items, {
    placeholder: l10n.t('How many pages? {0}. Paid pages are kept even if reading stops. (Budget: walletAnalytics.activityPageBudget)', each),
  });
  return pick?.[0];
}

/** Reads up to `pages` pages of an approved call into a new result file, keeping each as it arrives. */
export async function readPages(ep: Endpoint, input: Record<string, unknown>, pages: number, deps: PagesDeps, via: BoundConnection, shown: string, args: PagesArgs = {}): Promise<PagesOutcome> {
  const dir = await folderInside(deps.jobs.folder());
  const file = await newPagedFile(dir, ep.id);
  const { baseUrl, profileId } = via;
  return withPages(ep, deps, via, shown, args, undefined, pages, (opts) => startPaged(file, ep, input, { ...opts, baseUrl, profileId }));
}

/**
 * Continues a partial result: from the argument (a path or Uri), or one picked among the partial
 * files of the results folder. The price of the remaining pages is shown again before any is read.
 */
export async function resumePages(target: unknown, deps: PagesDeps, args: PagesArgs = {}): Promise<PagesOutcome> {
  const file = target instanceof vscode.Uri ? target.fsPath : typeof target === 'string' && target !== '' ? target : await pickPartial(deps);
  if (!file) return { status: 'cancelled' };
  const key = path.resolve(file);
  if (resuming.has(key)) {
    // A second "Resume" on the same file would read (and pay for) the same pages twice.
    void vscode.window.showInformationMessage(l10n.t('{0} is being read; see its progress.', path.basename(file)));
    return { status: 'cancelled' };
  }
  resuming.add(key);
  try {
    return await resumeFile(file, deps, args);
  } finally {
    resuming.delete(key);
  }
}

/** Files a resume is reading now, in this window. */
const resuming = new Set<string>();

async function resumeFile(file: string, deps: PagesDeps, args: PagesArgs): Promise<PagesOutcome> {
  let saved: PagedResult;
  try {
    saved = await loadPaged(file);
  } catch (e) {
    const message = errorText(e);
    void showErrorIn(l10n.t('Resume Reading Pages'), e);
    return { status: 'failed', message, charged: 'no', credits: 0, value: undefined };
  }
  const ep = endpoint(saved.endpointId);
  const title = shortTitle(ep);
  if (saved.next === null) {
    void offerResult(`${title}: every page is already read (${describeKept(ep, saved)}). Nothing to resume; nothing charged.`, file);
    return { status: 'done', credits: 0, shown: 'Free', value: saved, resultPath: file, end: 'last' };
  }
  // Bound before the price: the remaining pages go to this connection, or nowhere.
  const via = deps.connection.bind();
  const now = via.baseUrl;
  if (saved.baseUrl !== undefined && saved.baseUrl !== now) {
    // Its cursor belongs to the other server: continuing here would mix two data sets (or pay real credits after the sandbox's).
    const message = `${path.basename(file)} was read from ${saved.baseUrl}, and calls now go to ${now}. Nothing was sent; nothing was charged. Switch back (Start/Stop Sandbox, or walletAnalytics.baseUrl) to resume it.`;
    void showError(`${title}: ${message}`);
    return { status: 'failed', message, charged: 'no', credits: 0, value: saved, resultPath: file };
  }
  const profile = { id: via.profileId, name: via.profileName };
  if (saved.profileId !== undefined && saved.profileId !== profile.id) {
    // Same server, another account: its key would pay for the rest of a read another account began.
    const was = deps.connection.profiles.get(saved.profileId)?.name ?? saved.profileId;
    const message = `${path.basename(file)} was read under the profile “${was}”, and this window uses “${profile.name}”. Nothing was sent; nothing was charged. Switch Profile… to “${was}” to resume it.`;
    void showError(`${title}: ${message}`);
    return { status: 'failed', message, charged: 'no', credits: 0, value: saved, resultPath: file };
  }
  const budget = readSettings().activityPageBudget;
  // The pages asked for and not yet read; when none remain (the read stopped at its count), ask.
  const remaining = remainingPages(saved);
  const asking = args.pages === undefined && remaining === 0;
  const want = args.pages ?? (asking ? await askPages(ep, saved.input, 1, 2, budget) : remaining);
  if (want === undefined) return { status: 'cancelled' };
  const more = Math.max(1, want === 'all' ? budget : Math.min(want, budget));
  const decision = await approvePrice(ep, saved.input, deps, { step: asking ? 2 : 1, total: asking ? 2 : 1, ctx: { pages: more }, via });
  if (decision.kind === 'refused') return { status: 'refused', message: decision.message };
  if (decision.kind === 'cancelled') return { status: 'cancelled' };
  const moved = connectionChanged(deps.connection, via, 'the price was shown');
  if (moved) {
    await deps.credits.release(decision.hold);
    void showError(`${title}: ${moved}`);
    return { status: 'refused', message: moved };
  }
  deps.log.info(`${ep.id}: resuming ${path.basename(file)} at page ${saved.pages + 1}; price shown before sending (${via.label}): ${decision.shown}`);
  try {
    return await withPages(ep, deps, via, decision.shown, args, saved, more, (opts) => resumePaged(file, opts));
  } finally {
    await deps.credits.release(decision.hold);
  }
}

/** Registers "Resume Reading Pages…" (argument: a partial result's path or Uri; else a pick). */
export function registerPagesCommands(context: vscode.ExtensionContext, deps: PagesDeps): void {
  context.subscriptions.push(registerCommand(CommandIds.resumePages, (target?: unknown) => resumePages(target, deps)));
}

async function pickPartial(deps: PagesDeps): Promise<string | undefined> {
  const folder = deps.jobs.folder();
  const partial = await listResumable(folder);
  if (partial.length === 0) {
    void vscode.window.showInformationMessage(l10n.t('No partial page reads to resume in {0}.', folder));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    partial.map(({ file, result }) => {
      const ep = endpoint(result.endpointId);
      return {
        label: `${shortTitle(ep)}: ${whatRead(result)}`,
        description: `${describeKept(ep, result)}${result.stopped ? ` · stopped: ${result.stopped}` : ''}`,
        detail: l10n.t('{0} · continues at page {1}', path.basename(file), result.pages + 1),
        file,
      };
    }),
    { title: l10n.t('Wallet Analytics: Resume Reading Pages'), placeHolder: l10n.t('A partial result: its paid pages are kept, and reading continues after them'), matchOnDescription: true, matchOnDetail: true },
  );
  return pick?.file;
}

function whatRead(r: PagedResult): string {
  if (typeof r.input.address === 'string') return r.input.address;
  return `${String(r.input.sort)} ${String(r.input.order)}, ${String(r.input.page_size)} a page`;
}

/** "3 pages, 300 swaps, 3 credits charged" */
function describeKept(ep: Endpoint, r: { pages: number; rows: readonly unknown[]; credits: number }): string {
  return `${counted(r.pages, 'page')}, ${counted(r.rows.length, rowNoun(ep))}, ${fmtCredits(r.credits)} charged`;
}

/** Runs one read with a cancellable progress, the running cost, and a notification for how it ended. */
async function withPages(
  ep: Endpoint,
  deps: PagesDeps,
  via: BoundConnection,
  shown: string,
  args: PagesArgs,
  before: PagedResult | undefined,
  maxPages: number,
  read: (opts: Parameters<typeof startPaged>[3]) => Promise<ReadOutcome>,
): Promise<PagesOutcome> {
  const title = shortTitle(ep);
  const noun = rowNoun(ep);
  const { api } = via;
  const out = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) =>
    read({
      // Recorded as soon as it is paid, saved or not: the local ledger follows the server's.
      call: async (id, input) => {
        const r = await api.call(id, input);
        await deps.credits.record(ep.id, r.charged, via.scope);
        return r;
      },
      maxPages,
      cancelled: () => token.isCancellationRequested,
      onPage: async (saved) => {
        const thisRun = before ? ` (${fmtCredits(saved.credits - before.credits)} this time)` : '';
        progress.report({
          message: `page ${saved.pages} of up to ${saved.asked}: ${counted(saved.rows.length, noun)}, ${fmtCredits(saved.credits)} so far${thisRun}`,
          increment: 100 / maxPages,
        });
        await args.onPage?.(saved);
      },
    }),
  );
  void deps.credits.refresh(via.scope).catch(() => undefined);
  const kept = out.result;
  const thisRun = before ? ` (this time: ${counted(out.pages, 'page')}, ${fmtCredits(out.credits)})` : '';
  deps.log.info(`${ep.id}: ${out.end} after ${counted(out.pages, 'page')} this run, ${fmtCredits(out.credits)} charged; ${kept ? `${path.basename(out.file)} holds ${describeKept(ep, kept)}` : 'nothing kept'}.`);

  if (out.end === 'failed') {
    const error = out.error;
    const message = errorText(error);
    const charged = isWalletApiError(error) ? (error.charged === 'no' ? 'no' : 'unknown') : out.unsaved ? 'unknown' : 'no';
    if (!kept) {
      // Not one page paid in this file: the error alone (with the action that fixes it, if any).
      void showErrorIn(title, error);
      return { status: 'failed', message, charged, credits: out.credits, value: undefined };
    }
    const failedPage = kept.pages + 1;
    const what = out.unsaved
      ? `page ${failedPage} was read and charged but could not be saved (${message}).`
      : `page ${failedPage} failed: ${message}`;
    const text = `${title}: ${what} Kept in ${path.basename(out.file)}: ${describeKept(ep, kept)}${thisRun}. Resume continues from page ${failedPage}.`;
    void showError(text, l10n.t('Resume'), l10n.t('Open')).then((a) => followUp(a, out.file));
    return { status: 'failed', message: text, charged, credits: out.credits, value: kept, resultPath: out.file };
  }

  if (!kept) return { status: 'cancelled' };
  if (args.open !== false) await openResult(out.file);
  const done = describeKept(ep, kept);
  if (out.end === 'last') {
    void offerResult(`${title}: every page read: ${done}${thisRun}.`, out.file);
  } else {
    const why = out.end === 'cancelled' ? 'Cancelled' : `Stopped after the ${counted(kept.asked, 'page')} asked for; more remain`;
    const text = `${title}: ${why}. Kept in ${path.basename(out.file)}: ${done}${thisRun}. Resume continues from page ${kept.pages + 1}.`;
    void vscode.window.showInformationMessage(text, l10n.t('Resume'), l10n.t('Open')).then((a) => followUp(a, out.file));
  }
  return { status: 'done', credits: out.credits, shown, value: kept, resultPath: out.file, end: out.end };
}

function followUp(action: string | undefined, file: string): void {
  if (action === l10n.t('Resume')) void vscode.commands.executeCommand(CommandIds.resumePages, file);
  else if (action === l10n.t('Open')) void openResult(file);
}
