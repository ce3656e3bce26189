/**
 * A call's outcome told as a feature's result (issue 31.3): a watch's run and a pipeline's cell
 * both run a call through the one call flow and say what came of a call that brought no result.
 * They wrote the same sentences twice; they are written here once, so "nothing was sent" and "it
 * may have been charged" read the same wherever a call ended, and say "nothing was sent" only for
 * the outcomes that prove it (owners.test.ts fails on these sentences written elsewhere).
 * The command-line runner is a third teller of the same outcomes: it points at the request history
 * (free to read) instead of the window's Request History view, and ends with what was charged.
 */
import { l10n } from '../l10n';
import { fmtCredits } from '../numberText';

/** A call flow's outcome that brought no result: refused or cancelled before sending, invalid input, or failed. */
type UnfinishedCall =
  | { readonly status: 'refused'; readonly message: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'invalid'; readonly errors: readonly string[] }
  /** `charged`: 'no' only when proven, 'unknown' when the call may have been charged. */
  | { readonly status: 'failed'; readonly message: string; readonly charged: 'no' | 'unknown' };

/** What a feature says of a call that brought no result; `notSent` when it is proven nothing left the machine. */
interface ToldOutcome {
  readonly message: string;
  readonly notSent: boolean;
}

/**
 * Who tells it: the editor's window (its Request History view is where a charge is checked), or the
 * command line (a terminal or a scheduled job, which checks the request history before its next run).
 */
type Teller = 'window' | 'commandLine';

/** The words of an unfinished call: why nothing was sent, or what failed and whether it may have been charged. */
export function toldOutcome(out: UnfinishedCall, teller: Teller = 'window'): ToldOutcome {
  switch (out.status) {
    case 'refused':
      return { message: out.message, notSent: true };
    case 'cancelled':
      return { message: l10n.t('Cancelled; nothing was sent.'), notSent: true };
    case 'invalid':
      return { message: l10n.t('{0} Nothing was sent.', out.errors.join(' ')), notSent: true };
    case 'failed':
      // A failure is never told as "not sent": it left the machine, charged or not. "Nothing was
      // charged" only when proven ('no'); the window says nothing then, the command line says so.
      if (teller === 'commandLine') return { message: `${out.message} ${out.charged === 'unknown' ? mayHaveBeenCharged() : l10n.t('Nothing was charged.')}`, notSent: false };
      return { message: `${out.message}${out.charged === 'unknown' ? l10n.t(' (it may have been charged: see Request History)') : ''}`, notSent: false };
  }
}

/** A call that succeeded but wrote no file: it was sent, and charged what it said. */
export function noResultFile(): string {
  return l10n.t('The call returned no result file.');
}

/**
 * The command line's words for calls that may have been charged (no clear answer, and the history
 * could not settle it): which ones ("It" when one call tells its own), and what to do before
 * running again.
 */
export function mayHaveBeenCharged(names: readonly string[] = []): string {
  return names.length > 0
    ? l10n.t('{0} may have been charged: check the request history (free) before running it again.', names.join(', '))
    : l10n.t('It may have been charged: check the request history (free) before running it again.');
}

/**
 * What an AI agent is told when the person declined the price of its call or of its pipeline plan
 * (VS Code's price step or an MCP elicitation): nothing left and nothing was charged, and it should
 * not ask again on its own. One sentence for the VS Code tools and the MCP server alike; `subject`
 * names the call or the plan with its price.
 */
export function declinedForAgent(subject: string, what: 'price' | 'plan'): string {
  return what === 'price'
    ? l10n.t('{0}: the person did not approve the price. Nothing was sent and nothing was charged. Do not retry unless the person asks.', subject)
    : l10n.t('{0}: the person did not approve the plan. Nothing was sent and nothing was charged. Do not retry unless the person asks.', subject);
}

/** The command line's last line for a run or a call refused before anything left: why, then that nothing was sent or charged. */
export function refusedBeforeSending(why: string): string {
  return l10n.t('{0} Nothing was sent. Charged: {1}.', why, fmtCredits(0));
}
