/**
 * The one owner of asking the person (issue 31): every modal confirmation, every pick whose
 * Cancel comes first, and every box typed into is put on screen by the functions below
 * (owners.test.ts fails on a modal, a Cancel choice or an input box made anywhere else), so the
 * rules a question must keep (the first button never spends or deletes, Escape is no answer) are
 * written once. PersonQuestions is the questions Set API Key and the profile commands put to the
 * person: an input box, or a modal that confirms. Command arguments (from a test, a `command:` link or another extension) may
 * pre-fill a box's value, never answer it: only the person's Enter or click decides what key is
 * stored, which server a profile sends it to, and what is deleted. Under VS Code's test runner
 * the integration suite stands in for the person through ExtensionApi.testing (answerForTests),
 * as PriceQuestions (src/vscode/calls/priceStep.ts) does for prices.
 */
import * as vscode from 'vscode';
import { l10n } from '../../shared/l10n';

/** A modal warning whose buttons come in the order given: the first is the dialog's default (Enter). The button clicked, or undefined. */
export function askModal(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined> {
  return Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons));
}

/** A choice carrying the answer it stands for. */
export type Choice<V> = vscode.QuickPickItem & { readonly value: V };

/** The Cancel choice of a pick: it sends, spends and deletes nothing. */
export function cancelChoice<V>(value: V, detail: string, description?: string): Choice<V> {
  return { label: l10n.t('$(close) Cancel'), ...(description !== undefined ? { description } : {}), detail, value };
}

/**
 * A pick whose first, selected choice is Cancel, so Enter by habit does nothing: acting is choosing
 * another (a click, or the arrow key and Enter). The value chosen; Cancel's on Escape.
 */
export async function pickCancelFirst<V>(cancel: Choice<V>, choices: readonly Choice<V>[], options: vscode.QuickPickOptions): Promise<V> {
  const pick = await vscode.window.showQuickPick([cancel, ...choices], { ...options, canPickMany: false, ignoreFocusOut: true });
  return pick === undefined ? cancel.value : pick.value;
}

/**
 * A note with a paid action one click away: its first button (the one VS Code draws as the
 * notification's primary, the one a person takes by habit) is `keep`, which sends nothing; `spend`
 * (naming what it may charge) comes second. True only when the person clicked `spend`.
 */
export async function offerSpend(message: string, keep: string, spend: string): Promise<boolean> {
  return (await vscode.window.showInformationMessage(message, keep, spend)) === spend;
}

/** The text typed in a box (a name, a time, an amount typed to confirm a bill), or undefined on Escape. */
export function askText(options: vscode.InputBoxOptions): Promise<string | undefined> {
  return Promise.resolve(vscode.window.showInputBox(options));
}

/** Which box is asked: its answer's meaning, so a stand-in can tell the boxes of one flow apart. */
type InputId = 'apiKey' | 'profileName' | 'profileBaseUrl' | 'profileRename' | 'baseUrl' | 'exportSchedule';
/** Which choice is offered (a quick pick of a few labelled ways on). */
type ChoiceId = 'whereIsTheApi' | 'exportSchedule' | 'resultFile';

export type PersonQuestion =
  | { readonly kind: 'input'; readonly id: InputId; readonly options: vscode.InputBoxOptions }
  | { readonly kind: 'choose'; readonly id: ChoiceId; readonly items: readonly vscode.QuickPickItem[]; readonly options: vscode.QuickPickOptions }
  /** `safe`: a first button that does nothing, so the dialog's default (Enter) never deletes. */
  | { readonly kind: 'confirm'; readonly message: string; readonly detail: string; readonly yes: string; readonly safe?: string };

/** The text entered (input), the item's label chosen (choose) or the button clicked (confirm); undefined is Escape. */
export type PersonAnswerer = (q: PersonQuestion) => string | undefined | Promise<string | undefined>;

/** A message that keeps the box open: a person cannot press Enter past it. */
async function blocks(options: vscode.InputBoxOptions, value: string): Promise<boolean> {
  const m = await options.validateInput?.(value);
  if (m === undefined || m === null) return false;
  return typeof m === 'string' ? m !== '' : m.severity === vscode.InputBoxValidationSeverity.Error;
}

export class PersonQuestions {
  private answerer: PersonAnswerer | undefined;
  /** The questions asked, oldest first (the last 100). */
  readonly asked: PersonQuestion[] = [];

  /** Test runner only (reached through ExtensionApi.testing): answer as a person would type or click. */
  answerForTests(a: PersonAnswerer | undefined): void {
    this.answerer = a;
  }

  /** The text the person entered in the box, or undefined when they left it. */
  async input(id: InputId, options: vscode.InputBoxOptions): Promise<string | undefined> {
    const q: PersonQuestion = { kind: 'input', id, options };
    this.record(q);
    if (!this.answerer) return askText(options);
    const a = await this.answerer(q);
    // The stand-in gets no more power than the person: an answer the box would not accept is no answer.
    return a === undefined || (await blocks(options, a)) ? undefined : a;
  }

  /** The label of the item the person chose, or undefined when they left the pick. */
  async choose(id: ChoiceId, items: readonly vscode.QuickPickItem[], options: vscode.QuickPickOptions): Promise<string | undefined> {
    const q: PersonQuestion = { kind: 'choose', id, items, options };
    this.record(q);
    if (!this.answerer) return (await vscode.window.showQuickPick(items, { ...options, canPickMany: false }))?.label;
    const a = await this.answerer(q);
    // Only a label the pick offers, as a person can choose nothing else.
    return items.some((i) => i.label === a) ? a : undefined;
  }

  /**
   * True only when the person clicked `yes` in the modal. With `safe`, that button comes first: a
   * modal's first button is its default, so Enter keeps what `yes` would delete.
   */
  async confirm(message: string, detail: string, yes: string, safe?: string): Promise<boolean> {
    const q: PersonQuestion = { kind: 'confirm', message, detail, yes, ...(safe !== undefined ? { safe } : {}) };
    this.record(q);
    const a = this.answerer ? await this.answerer(q) : await askModal(message, detail, [...(safe !== undefined ? [safe] : []), yes]);
    return a === yes;
  }

  private record(q: PersonQuestion): void {
    this.asked.push(q);
    if (this.asked.length > 100) this.asked.shift();
  }
}
