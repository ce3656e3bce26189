import * as vscode from 'vscode';

/** Thrown when the person presses Back; the flow driver steps back one. */
export class BackSignal extends Error {
  constructor() {
    super('back');
  }
}

/**
 * A step answered stays on screen, busy, until the next question shows (or HOLD_MS passes): VS
 * Code hands the focus back to the editor it came from when a quick input hides, and a webview
 * editor (the results table) takes it back a moment later, after the next question showed, so
 * that question's keys went to the table (Enter on the price confirmation did nothing, Escape
 * did not close it). A question shown over a held step replaces it without handing the focus
 * back; the held one is disposed after. The last question of a flow (the price step) is not held:
 * it leaves as soon as it is answered, so it never shows "Run — 50 credits", busy, beside the
 * notification that the call was sent.
 */
const HOLD_MS = 1_500;
let held: { readonly input: vscode.QuickInput; readonly timer: ReturnType<typeof setTimeout> } | undefined;

/** Keeps an answered step on screen, busy, until the next question or HOLD_MS. */
function hold(input: vscode.QuickInput): void {
  releaseHeld();
  input.busy = true;
  held = { input, timer: setTimeout(releaseHeld, HOLD_MS) };
}

/** Disposes the step held on screen, if any (after the next question showed, or at HOLD_MS). */
function releaseHeld(): void {
  const h = held;
  held = undefined;
  if (!h) return;
  clearTimeout(h.timer);
  h.input.dispose();
}

/** Shows a question in place of the step held on screen. */
function showInPlace(input: vscode.QuickInput): void {
  input.show();
  releaseHeld();
}

export interface StepTitle {
  readonly title: string;
  readonly step: number;
  readonly total: number;
}

export interface PickItem<T> extends vscode.QuickPickItem {
  readonly value: T;
}

/**
 * One QuickPick step. Resolves to the picked value(s), undefined when dismissed, or throws
 * BackSignal. Every step shows "Title (step/total)" and a Back button after the first step.
 */
export function pickStep<T>(
  t: StepTitle,
  items: readonly PickItem<T>[],
  /** `final`: no question follows this one (the price step): answered, it leaves at once, not held busy beside what it started. */
  opts: { placeholder?: string; canPickMany?: boolean; matchOnDetail?: boolean; selected?: readonly T[]; final?: boolean } = {},
): Promise<T[] | undefined> {
  return new Promise((resolve, reject) => {
    const qp = vscode.window.createQuickPick<PickItem<T>>();
    qp.title = t.title;
    qp.step = t.step;
    qp.totalSteps = t.total;
    qp.placeholder = opts.placeholder;
    qp.items = items;
    qp.canSelectMany = opts.canPickMany ?? false;
    qp.matchOnDetail = opts.matchOnDetail ?? true;
    qp.matchOnDescription = true;
    qp.ignoreFocusOut = true;
    if (opts.selected) qp.selectedItems = items.filter((i) => opts.selected?.includes(i.value));
    if (t.step > 1) qp.buttons = [vscode.QuickInputButtons.Back];
    let settled = false;
    /** Answered (kept on screen until the next question) or left (`gone`: hidden already). */
    const done = (f: () => void, gone = false) => {
      if (settled) return;
      settled = true;
      if (gone || opts.final === true) qp.dispose();
      else hold(qp);
      f();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) done(() => reject(new BackSignal()));
    });
    qp.onDidAccept(() => {
      const chosen = qp.canSelectMany ? qp.selectedItems : qp.activeItems.slice(0, 1);
      if (chosen.length === 0 && !qp.canSelectMany) return;
      done(() => resolve(chosen.map((c) => c.value)));
    });
    qp.onDidHide(() => done(() => resolve(undefined), true));
    showInPlace(qp);
  });
}

/**
 * One InputBox step with validation as you type. `validate` returns a message for bad input.
 * Resolves to the text, undefined when dismissed, or throws BackSignal.
 */
export function inputStep(
  t: StepTitle,
  /** `validate`: a string (or an Error-severity message) keeps the box open; an Info or Warning message only informs. */
  opts: { prompt: string; placeholder?: string; value?: string; validate: (v: string) => string | vscode.InputBoxValidationMessage | undefined; password?: boolean },
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const box = vscode.window.createInputBox();
    box.title = t.title;
    box.step = t.step;
    box.totalSteps = t.total;
    box.prompt = opts.prompt;
    box.placeholder = opts.placeholder;
    box.value = opts.value ?? '';
    box.password = opts.password ?? false;
    box.ignoreFocusOut = true;
    if (t.step > 1) box.buttons = [vscode.QuickInputButtons.Back];
    let settled = false;
    const done = (f: () => void, gone = false) => {
      if (settled) return;
      settled = true;
      if (gone) box.dispose();
      else hold(box);
      f();
    };
    const check = (v: string) => {
      box.validationMessage = v.trim() === '' ? undefined : opts.validate(v);
    };
    check(box.value);
    box.onDidChangeValue(check);
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) done(() => reject(new BackSignal()));
    });
    box.onDidAccept(() => {
      const msg = opts.validate(box.value);
      if (typeof msg === 'string' ? msg !== '' : msg?.severity === vscode.InputBoxValidationSeverity.Error) {
        box.validationMessage = msg;
        return;
      }
      done(() => resolve(box.value));
    });
    box.onDidHide(() => done(() => resolve(undefined), true));
    showInPlace(box);
  });
}
