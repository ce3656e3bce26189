import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ENDPOINTS, commandIdOf, validateInput, type Endpoint } from '../../core/catalog';
import { isWalletApiError } from '../../core/errors';
import type { JobRecord } from '../../core/jobs/job';
import { stamp } from '../../core/jobs/results';
import { describeRule, fmtCredits, quote } from '../../core/pricing';
import type { Connection } from '../connection';
import type { CreditsService } from '../credits';
import { readSettings } from '../config';
import { showApiError } from '../errors';
import { collectInputs, promptedFields } from '../flows/inputFlow';
import { approvePrice } from '../flows/price';
import { askPages, readPages } from '../calls/pages';
import { CommandIds } from './ids';
import type { JobService } from '../jobs/jobService';
import { writeAtomic } from '../jobs/downloader';
import type { Log } from '../log';
import { offerResult, openResult } from '../results/open';

export interface EndpointDeps {
  readonly connection: Connection;
  readonly credits: CreditsService;
  readonly jobs: JobService;
  readonly log: Log;
  readonly state: vscode.Memento;
}

/**
 * Arguments a caller may pass instead of prompting (other commands, re-runs, tests):
 * `inputs` are validated exactly as typed ones; `yes` skips the confirmation but never the
 * ceiling; `pages` for activity; `notify: false` waits silently and returns the settled job.
 */
export interface RunArgs {
  readonly inputs?: Record<string, unknown>;
  readonly yes?: boolean;
  readonly pages?: number | 'all';
  readonly notify?: boolean;
  /** false: return as soon as the job is accepted and tracked (it completes in the background). */
  readonly wait?: boolean;
  readonly open?: boolean;
}

export type RunOutcome =
  | { readonly status: 'cancelled' }
  | { readonly status: 'invalid'; readonly errors: readonly string[] }
  | { readonly status: 'refused'; readonly message: string }
  | { readonly status: 'failed'; readonly message: string; readonly charged: 'no' | 'unknown' }
  | { readonly status: 'queued'; readonly requestId: string; readonly credits: number; readonly shown: string; readonly job?: JobRecord }
  | { readonly status: 'done'; readonly credits: number; readonly shown: string; readonly value: unknown; readonly resultPath?: string };

const RECENT_MAX = 5;
const RECENT_MAX_LIST = 10_000;

function recentKey(ep: Endpoint): string {
  return `walletAnalytics.recent.${ep.id}`;
}

async function remember(state: vscode.Memento, ep: Endpoint, input: Record<string, unknown>): Promise<void> {
  // Huge lists are not kept: globalState is not a file store, and the result sidecar has them.
  if (Object.values(input).some((v) => Array.isArray(v) && v.length > RECENT_MAX_LIST)) return;
  const old = state.get<Record<string, unknown>[]>(recentKey(ep), []);
  const same = JSON.stringify(input);
  await state.update(recentKey(ep), [input, ...old.filter((o) => JSON.stringify(o) !== same)].slice(0, RECENT_MAX));
}

const FAMILY_LABEL: Record<string, string> = { queued: 'Queued jobs (a file)', direct: 'Direct (JSON now)', account: 'Account (free)' };

/** Registers one palette command per catalog endpoint, and "Run an Endpoint…" to pick among them. */
export function registerEndpointCommands(context: vscode.ExtensionContext, deps: EndpointDeps): void {
  for (const ep of ENDPOINTS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(commandIdOf(ep), (args?: RunArgs) => runEndpoint(ep, deps, args ?? {})),
    );
  }
  context.subscriptions.push(
    vscode.commands.registerCommand(CommandIds.runEndpoint, async () => {
      const items: (vscode.QuickPickItem & { ep?: Endpoint })[] = [];
      for (const chain of ['main', 'alt'] as const) {
        for (const family of ['queued', 'direct', 'account'] as const) {
          const eps = ENDPOINTS.filter((e) => e.chain === chain && e.family === family);
          if (eps.length === 0) continue;
          items.push({ label: `${chain === 'alt' ? 'Second chain · ' : ''}${FAMILY_LABEL[family]}`, kind: vscode.QuickPickItemKind.Separator });
          for (const ep of eps) {
            items.push({
              label: ep.title,
              description: describeRule(ep),
              detail: `${ep.bot ? `${ep.bot} · ` : ''}${ep.method} ${ep.path} · ${ep.summary}`,
              ep,
            });
          }
        }
      }
      const pick = await vscode.window.showQuickPick(items, { title: 'Wallet Analytics: Run an Endpoint', placeHolder: 'Type a name, a bot command (/pnlplus) or a path', matchOnDetail: true, matchOnDescription: true });
      if (pick?.ep) return runEndpoint(pick.ep, deps, {});
      return undefined;
    }),
  );
}

/** The whole flow of one call: inputs, price, send, and what follows (a job, a JSON result, a message). */
export async function runEndpoint(ep: Endpoint, deps: EndpointDeps, args: RunArgs): Promise<RunOutcome> {
  const { connection, log } = deps;
  if (!(await connection.canCall())) {
    const a = await vscode.window.showWarningMessage(
      'No API key is set. Set the key issued with your API plan, or try every feature in the built-in sandbox (no key, no credits, no network).',
      'Set API Key',
      'Try the Sandbox',
    );
    if (a === 'Set API Key') await vscode.commands.executeCommand('walletAnalytics.setApiKey');
    else if (a === 'Try the Sandbox') await vscode.commands.executeCommand('walletAnalytics.startSandbox');
    if (!(await connection.canCall())) return { status: 'cancelled' };
  }

  // 1. Inputs: given or asked, and validated before anything is sent.
  let input: Record<string, unknown>;
  const paged = ep.paged === true;
  const extra = ep.price.kind === 'free' ? 0 : 1 + (paged ? 1 : 0);
  if (args.inputs) {
    const v = validateInput(ep, args.inputs);
    if (!v.ok) {
      const message = `${ep.title.replace(/…$/u, '')}: ${v.errors.join(' ')} Nothing was sent; nothing was charged.`;
      void vscode.window.showErrorMessage(message);
      return { status: 'invalid', errors: v.errors };
    }
    input = v.input;
  } else {
    const asked = await collectInputs(ep, {
      recent: deps.state.get<Record<string, unknown>[]>(recentKey(ep), []),
      doneJobs: () => deps.jobs.store.all().filter((j) => j.state === 'done'),
      columns: (chain) => connection.api().columns(chain),
    }, extra);
    if (!asked) return { status: 'cancelled' };
    input = asked;
  }
  await remember(deps.state, ep, input);

  // 2. Pages to read, for cursor-paged endpoints (each page is billed).
  let pages = 1;
  if (paged) {
    const budget = readSettings().activityPageBudget;
    const want = args.pages ?? (await askPages(ep, input, promptedFields(ep).length + 1, promptedFields(ep).length + extra, budget));
    if (want === undefined) return { status: 'cancelled' };
    pages = want === 'all' ? budget : Math.min(want, budget);
  }

  // 3. The price, shown before anything is sent.
  const decision = await approvePrice(ep, input, deps.credits, {
    step: promptedFields(ep).length + extra,
    total: promptedFields(ep).length + extra,
    ctx: paged ? { pages } : undefined,
    assumeYes: args.yes,
  });
  if (!decision.approved) {
    const refused = decision.shown.includes('Nothing was sent');
    return refused ? { status: 'refused', message: decision.shown } : { status: 'cancelled' };
  }
  if (decision.credits > 0) log.info(`${ep.id}: price shown before sending: ${decision.shown}`);

  // 4. Send.
  try {
    if (ep.family === 'queued') return await submitJob(ep, input, deps, decision.shown, args);
    if (paged) return await readPages(ep, input, pages, deps, decision.shown, args);
    return await callDirect(ep, input, deps, decision.shown, args);
  } catch (e) {
    const charged = isWalletApiError(e) ? e.charged : 'unknown';
    void showApiError(e, `${ep.title.replace(/…$/u, '')}: `);
    if (isWalletApiError(e) && ep.price.kind !== 'free') void deps.credits.refresh().catch(() => undefined);
    return { status: 'failed', message: e instanceof Error ? e.message : String(e), charged };
  }
}

async function submitJob(ep: Endpoint, input: Record<string, unknown>, deps: EndpointDeps, shown: string, args: RunArgs): Promise<RunOutcome> {
  const api = deps.connection.api();
  const ack = await api.submit(ep.id, input);
  // Queued endpoints are priced exactly from their inputs (flat or per item).
  const credits = quote(ep, input).credits;
  await deps.credits.record(ep.id, credits);
  const job: JobRecord = {
    requestId: ack.requestId,
    endpointId: ep.id,
    inputs: input,
    cost: credits,
    baseUrl: deps.connection.baseUrl(),
    submittedAt: new Date().toISOString(),
    state: 'pending',
  };
  deps.log.info(`${ep.id}: accepted as ${ack.requestId}, ${fmtCredits(credits)} charged.`);
  const settled = await deps.jobs.track(job, { notify: args.notify !== false, wait: args.wait !== false });
  void deps.credits.refresh().catch(() => undefined);
  return { status: 'queued', requestId: ack.requestId, credits, shown, job: settled };
}

async function saveJson(ep: Endpoint, deps: EndpointDeps, value: unknown): Promise<string> {
  const dir = deps.jobs.folder();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${ep.id}-${stamp(new Date().toISOString())}.json`);
  await writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

async function callDirect(ep: Endpoint, input: Record<string, unknown>, deps: EndpointDeps, shown: string, args: RunArgs): Promise<RunOutcome> {
  const api = deps.connection.api();
  const result = await api.call(ep.id, input);
  await deps.credits.record(ep.id, result.charged);
  const title = ep.title.replace(/…$/u, '');
  if (ep.id === 'credits') {
    const balance = await deps.credits.refresh();
    const reset = deps.credits.nextReset();
    void vscode.window.showInformationMessage(
      `Credits: ${balance.toLocaleString('en-US')} left${reset ? `; next reset ${reset.date.toISOString().slice(0, 10)}${reset.estimated ? ' (estimated)' : ''}` : ''}. (Checking credits is free.)`,
    );
    return { status: 'done', credits: 0, shown, value: balance };
  }
  if (ep.id === 'reset_ip') {
    void vscode.window.showInformationMessage('The saved IP address was reset; the next call binds the key to this machine’s address. (Free.)');
    return { status: 'done', credits: 0, shown, value: null };
  }
  const file = await saveJson(ep, deps, result.value);
  if (result.charged > 0) void deps.credits.refresh().catch(() => undefined);
  if (args.open !== false) await openResult(file);
  const total = (result.value as { total?: unknown }).total;
  void offerResult(
    `${title}: done${typeof total === 'number' ? `, ${total.toLocaleString('en-US')} matches` : ''}${result.charged > 0 ? `, ${fmtCredits(result.charged)} charged` : ''}.`,
    file,
  );
  return { status: 'done', credits: result.charged, shown, value: result.value, resultPath: file };
}
