import * as vscode from 'vscode';

/** Thrown when the person presses Back; the flow driver steps back one. */
export class BackSignal extends Error {
  constructor() {
    super('back');
  }
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
  opts: { placeholder?: string; canPickMany?: boolean; matchOnDetail?: boolean; selected?: readonly T[] } = {},
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
    const done = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) done(() => reject(new BackSignal()));
    });
    qp.onDidAccept(() => {
      const chosen = qp.canSelectMany ? qp.selectedItems : qp.activeItems.slice(0, 1);
      if (chosen.length === 0 && !qp.canSelectMany) return;
      done(() => resolve(chosen.map((c) => c.value)));
    });
    qp.onDidHide(() => done(() => resolve(undefined)));
    qp.show();
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
    const done = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
      box.dispose();
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
    box.onDidHide(() => done(() => resolve(undefined)));
    box.show();
  });
}
