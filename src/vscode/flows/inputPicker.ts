/**
 * The one "Use … as input to…" picker: the Requests view's row action, the table's column menu,
 * the analysis panel and address sets all show it. Its choices come ranked by what the column
 * holds (core/addressLists/inputTargets.ts: a wallet column is never offered a token endpoint first), each
 * with the kind of list it takes and its price for this list; the endpoint's own command then
 * shows the price step again before anything is sent.
 */
import * as vscode from 'vscode';
import { rankTargetsWarm, roleText, type InputTarget, type ListOffer } from '../../core/addressLists/inputTargets';
import type { TablePrompts } from '../base/prompts';
import { l10n } from '../../shared/l10n';
import { firstAddresses } from '../../core/spec/addresses';
import { thousands } from '../../core/numberText';

type TargetItem = vscode.QuickPickItem & { readonly target?: InputTarget };

/** The picker's items: the fitting endpoints, then (under a separator) those that take another kind. */
function targetItems(targets: readonly InputTarget[]): TargetItem[] {
  const items: TargetItem[] = [];
  let shownOther = false;
  for (const t of targets) {
    if (t.fits === false && !shownOther) {
      shownOther = true;
      // A line without a heading: a separator's label sits on the right of the group's first row and
      // cut that row's price to "1…". Each row below says what it takes, with a warning icon.
      items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    }
    const list = t.cut ? `the first ${thousands(t.count)} of ${thousands(t.offer.distinct)} (the most per request)` : thousands(t.count);
    items.push({
      label: `${t.fits === false ? '$(warning) ' : ''}${t.ep.title}`,
      description: `${t.price.text}`,
      // The detail line shows about 85 characters: a row of the other kind says so first.
      detail:
        t.fits === false
          ? l10n.t('Takes {0}, but “{1}” looks like {2}: {3} {4}. {5}', t.wants, t.offer.column, roleText(t.offer.role), list, t.count === 1 ? 'address' : 'addresses', t.ep.summary)
          : l10n.t('Takes {0}: {1} {2} from “{3}” ({4}). {5}', t.wants, list, t.count === 1 ? 'address' : 'addresses', t.offer.column, roleText(t.offer.role), t.ep.summary),
      target: t,
    });
  }
  return items;
}

/**
 * Asks which endpoint takes the list (or takes `preset`, an endpoint id, without asking); undefined
 * when the person backs out. Throws with a message a person can act on when no endpoint can take it.
 */
export async function pickInputTarget(
  offers: readonly ListOffer[],
  prompts: Pick<TablePrompts, 'pick'>,
  about: { readonly title: string; readonly preset?: string },
): Promise<InputTarget | undefined> {
  const { targets, refused } = await rankTargetsWarm(offers);
  if (targets.length === 0) {
    const why = refused.length > 0 ? ` (${refused.map((r) => `${r.ep.title.replace(/\u2026$/u, '')}: ${r.reason}`).join('; ')})` : '';
    throw new Error(`No endpoint takes these addresses as its list${why}.`);
  }
  if (about.preset !== undefined) {
    const t = targets.find((x) => x.ep.id === about.preset);
    if (!t) throw new Error(`${about.preset} cannot take these addresses as its list.`);
    return t;
  }
  const pick = await prompts.pick(targetItems(targets), {
    title: about.title,
    placeHolder: l10n.t('Best first for what the column holds; the price is shown again before anything is sent'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.target;
}

/** The run arguments of a chosen target: its list as the field's input (no `yes`: the price step shows first). */
export function targetInputs(t: InputTarget): Record<string, unknown> {
  // A copy, cut at the field's most, that keeps what the reader checked (no second check of 100,000 addresses at the price step).
  return { [t.field.key]: firstAddresses(t.offer.addresses, t.count) };
}
