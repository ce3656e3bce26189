/**
 * The price step every paid call passes before it is sent, and the one place that asks the
 * person about money. Its answer is a typed decision (approved, refused or cancelled), never
 * display text searched for a phrase.
 *
 * Only the person's own click approves a price: nothing a caller passes (command arguments,
 * another extension, a `command:` link) can answer these questions. The questions go to
 * `PriceQuestions`, which shows them in the window; under VS Code's test runner the integration
 * suite may stand in for the person's click through ExtensionApi.testing (never set for an
 * installed extension).
 *
 * Every question names the connection the call goes to (the flow's BoundConnection: profile and
 * host), so the person knows whose credits pay. The flow checks that connection is still the
 * window's right before it sends (connectionChanged): a price approved for one account never
 * sends to another.
 *
 * "Copy as Code…" sits beside the spending choice: it copies the call and ends the flow as
 * cancelled, so nothing is sent and nothing is approved. It does not return to the price step:
 * a person who came to copy could press Enter on Run by habit when the step came back.
 */
import * as vscode from 'vscode';
import { shortTitle, type Endpoint } from '../../core/spec/catalog';
import { quote, type Quote, type QuoteContext } from '../../core/money/pricing';
import { priceCover, watchDayWords, type Approval } from '../../core/money/approval';
import { parseRiskAmount, riskAmountEcho, riskAmountProblem, unboundedBillWords } from '../../core/money/riskAmount';
import { priceGate } from '../../core/money/quota';
import type { BoundConnection, Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import { readSettings } from '../base/settings';
import { pickStep } from '../flows/multiStep';
import { REQUESTS_VIEW } from '../base/ids';
import { askModal, askText, cancelChoice, pickCancelFirst, type Choice } from '../base/personQuestions';
import { l10n } from '../../shared/l10n';
import { fmtCredits } from '../../core/numberText';

export type PriceDecision =
  /**
   * `accepted`: the credits the person typed to lift the ceiling for this one call. `hold`: the
   * budgets' hold on the call's worst case (CreditsService.hold), for the caller to release once
   * the call settled.
   */
  | { readonly kind: 'approved'; readonly credits: number; readonly shown: string; readonly ceilingLifted: boolean; readonly accepted?: number; readonly hold?: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'cancelled' };

/** A query's last count from before this hour, of the same query or of its file: dated, an estimate. */
export interface CountEstimate {
  readonly at: number;
  readonly total: number;
  readonly of: 'query' | 'file';
}

/** A question put to the person; `yes` is the button that spends. */
export type PriceQuestion =
  /** The last step of the flow: the price, Enter runs. */
  | { readonly kind: 'step'; readonly endpointId: string; readonly to: string; readonly title: string; readonly step: number; readonly total: number; readonly label: string; readonly detail: string; readonly placeholder: string; readonly copy?: boolean }
  /** A modal: above the threshold, a bill with no bound ("just this once"), or a call that may already have been charged. */
  | { readonly kind: 'modal'; readonly why: 'confirm' | 'unbounded' | 'mayChargeAgain'; readonly endpointId: string; readonly to: string; readonly message: string; readonly detail: string; readonly yes: string; readonly copy?: boolean; readonly pick?: { readonly label: string; readonly detail: string; readonly description?: string } }
  /**
   * After "unbounded": the credits the person accepts to risk, typed (Enter alone runs nothing).
   * `min` is the smallest bill, `balance` the most that can be typed (`mostIs`: what that is, when
   * not the balance), `perMatch` the price of a match. A watch's amount (`runsPerDay`, `dayLeft`)
   * says back the most a day can cost.
   */
  | { readonly kind: 'amount'; readonly endpointId: string; readonly to: string; readonly title: string; readonly prompt: string; readonly min: number; readonly balance?: number; readonly mostIs?: string; readonly perMatch: number; readonly runsPerDay?: number; readonly dayLeft?: number };

/**
 * An answer: true spends, false cancels, 'copyAsCode' copies the call and spends nothing (only where
 * the question offers it); a number is the amount typed at an 'amount' question (and nothing else).
 */
type PriceAnswer = boolean | 'copyAsCode' | number;

/** Someone who answers price questions: the window, or the test suite standing in for a click. */
export type PriceAnswerer = (q: PriceQuestion) => Promise<PriceAnswer> | PriceAnswer;

/** The price step's and the dialogs' extra choice. */
const COPY_AS_CODE = 'Copy as Code…';

/** Asks price questions in the window; keeps the ones asked, for the log and the tests. */
export class PriceQuestions {
  private answerer: PriceAnswerer | undefined;
  readonly asked: PriceQuestion[] = [];

  /** Test runner only (reached through ExtensionApi.testing): answer as a person would click. */
  answerForTests(a: PriceAnswerer | undefined): void {
    this.answerer = a;
  }

  /** True only for the spending choice itself: a copy, a cancel or a dismissal is never approval. */
  async ask(q: PriceQuestion): Promise<boolean> {
    return (await this.choose(q)) === true;
  }

  /** The person's answer; 'copyAsCode' only when the question offers it. */
  async choose(q: PriceQuestion): Promise<PriceAnswer> {
    this.asked.push(q);
    if (this.asked.length > 100) this.asked.shift();
    if (q.kind === 'amount') return this.amount(q);
    if (this.answerer) {
      const a = await this.answerer(q);
      return a === true ? true : a === 'copyAsCode' && q.copy === true ? 'copyAsCode' : false;
    }
    const copyItems = q.copy ? [COPY_AS_CODE] : [];
    if (q.kind === 'modal' && q.why === 'confirm') return this.confirm(q);
    if (q.kind === 'modal') {
      // A dialog's first button is its default (Enter): here it never spends. "May charge again"
      // offers the free check first; the unbounded bill's only button opens the typed amount.
      const safe = q.why === 'mayChargeAgain' ? [SHOW_HISTORY] : [];
      const a = await askModal(q.message, q.detail, [...safe, q.yes, ...copyItems]);
      if (a === SHOW_HISTORY) void vscode.commands.executeCommand(`${REQUESTS_VIEW}.focus`);
      return a === q.yes ? true : a === COPY_AS_CODE ? 'copyAsCode' : false;
    }
    const pick = await pickStep<PriceAnswer>({ title: q.title, step: q.step, total: q.total }, [
      { label: q.label, detail: q.detail, value: true },
      ...(q.copy ? [{ label: `$(code) ${COPY_AS_CODE}`, detail: l10n.t('As a command line, Python, TypeScript or PowerShell. Nothing is sent or charged.'), value: 'copyAsCode' as const }] : []),
      cancelChoice<PriceAnswer>(false, l10n.t('Nothing is sent.')),
    ], { placeholder: q.placeholder, final: true });
    const v = pick?.[0];
    return v === true ? true : v === 'copyAsCode' ? 'copyAsCode' : false;
  }

  /**
   * Above `confirmAbove`: the price in a pick whose first, selected choice is Cancel, so Enter by
   * habit sends nothing; spending is choosing Run (a click, or the arrow key and Enter).
   */
  private async confirm(q: Extract<PriceQuestion, { kind: 'modal' }>): Promise<PriceAnswer> {
    const choices: Choice<PriceAnswer>[] = [
      { label: q.pick?.label ?? q.yes, description: q.pick?.description ?? l10n.t('above your confirmation threshold'), detail: q.pick?.detail ?? q.detail, value: true },
      ...(q.copy ? [{ label: `$(code) ${COPY_AS_CODE}`, detail: l10n.t('As a command line, Python, TypeScript or PowerShell. Nothing is sent or charged.'), value: 'copyAsCode' as const }] : []),
    ];
    const cancel = cancelChoice<PriceAnswer>(false, l10n.t('Nothing is sent, nothing is charged.'), l10n.t('the default: Enter sends nothing'));
    return pickCancelFirst(cancel, choices, { title: `${q.message} · ${q.to}`, placeHolder: l10n.t('Choose “{0}” to spend; Enter on Cancel sends nothing.', q.yes), matchOnDetail: false });
  }

  /** The amount typed, checked by the box's own rule whoever answers; false when none is typed. */
  private async amount(q: Extract<PriceQuestion, { kind: 'amount' }>): Promise<number | false> {
    if (this.answerer) {
      const a = await this.answerer(q);
      return (typeof a === 'number' && parseRiskAmount(String(a), q.min, q.balance, q.mostIs)) || false;
    }
    const typed = await askText({
      title: q.title,
      prompt: q.prompt,
      placeHolder: l10n.t('The most credits you accept, e.g. {0}', fmtCredits(Math.max(q.min, 100 * q.perMatch))),
      ignoreFocusOut: false,
      validateInput: (text) => {
        const problem = riskAmountProblem(text, q.min, q.balance, q.mostIs);
        if (problem !== undefined) return text.trim() === '' ? undefined : problem;
        const n = parseRiskAmount(text, q.min, q.balance, q.mostIs) ?? 0;
        // A watch's amount is per run: say back the most a day can cost (issue 35 item 11).
        const echo = q.runsPerDay === undefined ? riskAmountEcho(n, q.perMatch) : watchDayWords({ perRun: n, perDay: q.runsPerDay, risk: true, ...(q.dayLeft !== undefined ? { dayLeft: q.dayLeft } : {}) });
        return { message: echo, severity: vscode.InputBoxValidationSeverity.Info };
      },
    });
    return (typed !== undefined && parseRiskAmount(typed, q.min, q.balance, q.mostIs)) || false;
  }
}

/** Copies a call as code (src/vscode/commands/copyAsCode.ts); it sends nothing. */
export type CopyAsCode = (ep: Endpoint, input: Record<string, unknown>, ctx?: QuoteContext) => Promise<unknown>;

/**
 * The unbounded dialog's only button (its default, Enter). It spends nothing: it opens the choice
 * whose first, selected item is Cancel.
 */
const RUN_OR_CANCEL = 'Run or Cancel…';

/** The default of "may charge again": the free look that tells whether it was. */
const SHOW_HISTORY = 'Show Request History (Free)';

/** The line every price question carries: whose credits pay, and where the call goes. */
export function chargedTo(via: BoundConnection): string {
  return `Charged to ${via.label}.`;
}

/**
 * The refusal to show when the window's connection is no longer the flow's (a profile switched, the
 * sandbox stopped or started, the base URL changed); undefined while it still is. Nothing is sent
 * to either: the price was shown for the one, and the person may think they are using the other.
 */
export function connectionChanged(connection: Connection, via: BoundConnection, during: string): string | undefined {
  if (connection.isActive(via)) return undefined;
  const now = connection.label();
  return `The connection changed from ${via.label} to ${now} while ${during}; nothing was sent. Run it again to see the price for ${now}.`;
}

/**
 * Shows the price of a call before it is sent and asks as the settings say: the last step of
 * the flow below `confirmAbove`, a modal above it, a refusal above `maxCreditsPerCall` or the
 * balance. A bill with no known bound (a query whose match count is unknown) asks for no amount:
 * it says the bill is per match and not known before the answer, gives the last count as a dated
 * estimate, and runs only when the person chooses Run over the default Cancel.
 *
 * The spend budgets (walletAnalytics.budget.*, core/money/budget.ts) are checked here for every paid
 * path, against the ledger read fresh from every window: past one, the call is refused before its
 * price is shown. Once approved, the call's worst known case is held against them (checked afresh:
 * another window may have spent while the person decided), and the caller releases the hold
 * (`decision.hold`, CreditsService.release) once the call settled.
 */
export async function approvePrice(
  ep: Endpoint,
  input: Record<string, unknown>,
  deps: { credits: CreditsService; questions: PriceQuestions; copyAsCode?: CopyAsCode },
  /**
   * `approval`: what the person approved before (a pipeline's plan line, a watch's run), issued by
   * the one owner of approval (core/money/approval.ts), which alone decides whether it covers this
   * price (priceCover); a watch's refusals are the watch's to tell. `quote`: the call's price,
   * computed once by the call flow and carried here. `estimate`: a query's last count from an
   * earlier hour (core/query/runCache.ts lastCount), said as an estimate, never a price.
   */
  opts: { step: number; total: number; ctx?: QuoteContext; via: BoundConnection; approval?: Approval; quote?: Quote; estimate?: CountEstimate },
): Promise<PriceDecision> {
  const { via } = opts;
  const to = via.label;
  const copy = deps.copyAsCode !== undefined;
  /** Copies the call; the decision is 'cancelled', so the caller sends nothing. */
  const copied = async (): Promise<PriceDecision> => {
    await deps.copyAsCode?.(ep, input, opts.ctx);
    return { kind: 'cancelled' };
  };
  const q = opts.quote ?? quote(ep, input, opts.ctx);
  const standing = opts.approval?.standing === true;
  if (q.credits === 0 && q.exact) return { kind: 'approved', shown: 'Free', credits: 0, ceilingLifted: false };
  let balance: number | undefined;
  try {
    balance = await deps.credits.get(60_000, via.scope);
  } catch {
    balance = deps.credits.peek(via.scope)?.value;
  }
  const reset = deps.credits.nextReset(via.scope);
  const settings = readSettings();
  // With a budget set, the account's request history is read first (at the window's pace): what the
  // runner or a bot spent counts too (issue 35 item 4).
  if (settings.budgets.perDay > 0 || settings.budgets.perPeriod > 0) await deps.credits.readHistory(via.scope);
  // Read fresh (every window's charges and holds) right before the price: past a budget, no price is shown.
  const budgets = deps.credits.budgets(settings.budgets, via.scope);
  const gate = priceGate(q, settings, balance, reset?.date, reset?.estimated === true, budgets);
  const title = shortTitle(ep);
  const refuse = (message: string, setting: string): PriceDecision => {
    // A watch's run has nobody waiting on it: the watch says it was skipped, and why.
    if (standing) return { kind: 'refused', message };
    void vscode.window.showErrorMessage(message, l10n.t('Open Settings')).then((a) => {
      if (a) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
    return { kind: 'refused', message };
  };
  /** The person approved `worst` (the call's worst known case): held against the budgets, checked afresh, before it is sent. */
  const held = async (approved: Extract<PriceDecision, { kind: 'approved' }>, worst: number): Promise<PriceDecision> => {
    const h = await deps.credits.hold(ep.id, worst, settings.budgets, via.scope);
    return 'id' in h ? { ...approved, hold: h.id } : refuse(h.refused, h.setting);
  };
  // What the person approved before (a plan, a watch), judged by the owner of approval alone.
  const cover = priceCover(opts.approval, q, gate);
  if (cover.kind === 'refuse') return refuse(cover.message, cover.setting);
  if (cover.kind === 'hold' && gate.kind !== 'free' && gate.kind !== 'refuse') {
    const words = gate.kind === 'step' ? `${gate.label} ${gate.detail}` : `${gate.message} ${gate.detail}`;
    return held({ kind: 'approved', shown: `${words} (${cover.why})`, credits: q.credits, ceilingLifted: false, ...(cover.accepted !== undefined ? { accepted: cover.accepted } : {}) }, cover.credits);
  }
  switch (gate.kind) {
    case 'free':
      return { kind: 'approved', shown: 'Free', credits: 0, ceilingLifted: false };
    case 'refuse':
      return refuse(gate.message, gate.setting);
    case 'unbounded': {
      // No amount is asked (a typed amount reads as a cap, and none can be kept: issue 35 item 1).
      // The rule first, in the dialog's largest words, then what is known; the dialog's default
      // only opens the choice, whose default is Cancel: Enter, Enter sends nothing.
      const perMatch = ep.price.kind === 'perMatch' ? ep.price.credits : q.credits;
      const words = unboundedBillWords({ perMatch, minimum: q.credits, ceiling: gate.ceiling, now: Date.now(), ...(opts.estimate ? { last: opts.estimate } : {}) });
      const detail = `${words.known}\n\n${words.rule}\n\n${gate.detail}\n\n${chargedTo(via)}`;
      const ok = await deps.questions.choose({ kind: 'modal', why: 'unbounded', endpointId: ep.id, to, message: words.message, detail, yes: RUN_OR_CANCEL, copy });
      if (ok === 'copyAsCode') return copied();
      const run = ok === true
        ? await deps.questions.choose({ kind: 'modal', why: 'confirm', endpointId: ep.id, to, message: words.message, detail, yes: 'Run', copy, pick: { label: words.runLabel, description: l10n.t('no cap: every match is billed'), detail: words.runDetail } })
        : false;
      if (run === 'copyAsCode') return copied();
      // Held at its smallest bill, the one amount known; the budgets' words said a larger bill is charged whole.
      if (run === true) return held({ kind: 'approved', shown: `${words.message} ${words.known} (ceiling lifted for this call)`, credits: q.credits, ceilingLifted: true }, q.credits);
      // The person chose Cancel (or closed the dialog): say only that nothing left, in one line. The
      // refusal's reasons (the ceiling, the next refresh) read as the extension refusing, and a toast
      // without a button shows one line, cut before them (issue 23); they stay in the outcome.
      void vscode.window.showInformationMessage(l10n.t('Not sent, nothing charged: you chose Cancel.'));
      return { kind: 'refused', message: gate.refusal };
    }
    case 'modal': {
      const detail = gate.detail;
      const ok = await deps.questions.choose({ kind: 'modal', why: 'confirm', endpointId: ep.id, to, message: gate.message, detail: `${detail}\n\n${chargedTo(via)}`, yes: 'Run', copy, pick: { label: gate.label, detail: gate.short } });
      if (ok === 'copyAsCode') return copied();
      return ok ? held({ kind: 'approved', shown: `${gate.message} ${detail}`, credits: q.credits, ceilingLifted: false }, q.atMost ?? q.credits) : { kind: 'cancelled' };
    }
    case 'step': {
      const detail = gate.detail;
      if (cover.kind === 'ask' && cover.agent === true) {
        // An AI agent asks (issue 33): the price in a pick whose default is Cancel, whatever the threshold.
        const ok = await deps.questions.choose({ kind: 'modal', why: 'confirm', endpointId: ep.id, to, message: l10n.t('An AI agent asks to run {0} for {1}', title, q.text), detail: `${detail}\n\n${chargedTo(via)}`, yes: 'Run', pick: { label: gate.label, detail, description: l10n.t('asked by an AI agent') } });
        return ok === true ? held({ kind: 'approved', shown: `${gate.label} ${detail}`, credits: q.credits, ceilingLifted: false }, q.atMost ?? q.credits) : { kind: 'cancelled' };
      }
      const ok = await deps.questions.choose({
        kind: 'step', endpointId: ep.id, to, title: `${title} · ${to}`, step: opts.step, total: opts.total, label: gate.label, detail,
        // The title names the endpoint and the Run item the price: the placeholder, which the box
        // cuts past about 80 characters, says whose credits pay and what Enter does.
        placeholder: l10n.t('{0} Enter runs it.', chargedTo(via)), copy,
      });
      if (ok === 'copyAsCode') return copied();
      return ok ? held({ kind: 'approved', shown: `${gate.label} ${detail}`, credits: q.credits, ceilingLifted: false }, q.atMost ?? q.credits) : { kind: 'cancelled' };
    }
  }
}
