import * as vscode from 'vscode';
import { addressProblem } from '../../core/spec/addresses';
import { badEntriesText, duplicatesText, parseAddressList, parseAddressListSliced, type ParsedList } from '../../core/addressLists/listText';
import { isPackedList, type PackedList } from '../../core/spec/packedList';
import { shortTitle, validateInput, type Endpoint } from '../../core/spec/catalog';
import type { FieldSpec } from '../../core/spec/fields';
import type { JobRecord } from '../../core/jobs/job';
import { parseNumber, parseTimestamp } from '../../core/spec/parseInput';
import { readListSource, type ListSource } from './listSources';
import { BackSignal, inputStep, pickStep, type PickItem, type StepTitle } from './multiStep';
import { pickQuery, type QueryInputDeps } from './queryInput';
import { l10n } from '../../shared/l10n';
import { thousands } from '../../core/numberText';

/** What the input steps need from the caller; `columns` is for the query step (queryInput.ts). */
interface InputFlowDeps extends QueryInputDeps {
  /** Past inputs of this command, newest first. */
  readonly recent: readonly Record<string, unknown>[];
  readonly doneJobs: () => readonly JobRecord[];
}

/** Fields a person is asked for (cursors are driven by the paging flow, not asked). */
export function promptedFields(ep: Endpoint): FieldSpec[] {
  return ep.fields.filter((f) => f.key !== 'cursor');
}

/**
 * Asks for every input of ep, one step each, with validation as you type from the catalog.
 * `extraSteps` are steps the caller adds after (the price). Resolves undefined when dismissed.
 */
export async function collectInputs(ep: Endpoint, deps: InputFlowDeps, extraSteps = 1): Promise<Record<string, unknown> | undefined> {
  const fields = promptedFields(ep);
  const total = fields.length + extraSteps;
  const input: Record<string, unknown> = {};
  const title = shortTitle(ep);
  let i = 0;
  while (i < fields.length) {
    const f = fields[i];
    if (!f) break;
    const t: StepTitle = { title, step: i + 1, total };
    try {
      const v = await askField(f, t, deps, input[f.key] ?? deps.recent[0]?.[f.key]);
      if (v === undefined) return undefined;
      if (v === SKIP) delete input[f.key];
      else input[f.key] = v;
      i++;
    } catch (e) {
      if (e instanceof BackSignal) {
        i = Math.max(0, i - 1);
        continue;
      }
      throw e;
    }
    if (i === fields.length) {
      // Cross-field rules (ranges, windows) are checked once everything is known.
      const v = validateInput(ep, input);
      if (!v.ok) {
        const again = await pickStep({ title, step: total - extraSteps, total }, [
          { label: l10n.t('$(arrow-left) Go back and fix'), detail: v.errors.join(' '), value: 'back' as const },
        ], { placeholder: v.errors[0] });
        if (!again) return undefined;
        i = fields.length - 1;
      } else {
        return v.input;
      }
    }
  }
  return validateOrThrow(ep, input);
}

function validateOrThrow(ep: Endpoint, input: Record<string, unknown>): Record<string, unknown> {
  const v = validateInput(ep, input);
  if (!v.ok) throw new Error(v.errors.join(' '));
  return v.input;
}

const SKIP = Symbol('skip');

function schemaMessage(f: FieldSpec, value: unknown): string | undefined {
  const r = f.schema.safeParse(value);
  return r.success ? undefined : r.error.issues.map((i) => i.message).join(' ');
}

async function askField(f: FieldSpec, t: StepTitle, deps: InputFlowDeps, previous: unknown): Promise<unknown> {
  const prompt = `${f.label}: ${f.description}`;
  switch (f.kind) {
    case 'address': {
      const chain = f.chain ?? 'main';
      return inputStep(t, {
        prompt,
        placeholder: chain === 'alt' ? l10n.t('0x…') : l10n.t('base58 address'),
        value: typeof previous === 'string' ? previous : '',
        validate: (v) => {
          const p = addressProblem(v.trim(), chain);
          return p ? `Not a valid address: ${p}.` : undefined;
        },
      }).then((v) => v?.trim());
    }
    case 'integer':
    case 'number':
      return inputStep(t, {
        prompt: f.min !== undefined || f.max !== undefined ? `${prompt} (${rangeText(f)})` : prompt,
        value: previous !== undefined ? String(previous) : f.default !== undefined ? String(f.default) : '',
        validate: (v) => {
          const n = parseNumber(v);
          return n === undefined ? `${f.label} must be a number.` : schemaMessage(f, n);
        },
      }).then((v) => (v === undefined ? undefined : parseNumber(v)));
    case 'timestamp':
      return inputStep(t, {
        prompt,
        placeholder: l10n.t('Unix seconds, or a date like 2026-11-21 or 2026-11-21T14:30Z'),
        value: typeof previous === 'number' ? String(previous) : '',
        validate: (v) => {
          const n = parseTimestamp(v);
          return n === undefined ? 'Give Unix seconds or an ISO date (2026-11-21T14:30Z).' : schemaMessage(f, n);
        },
      }).then((v) => (v === undefined ? undefined : parseTimestamp(v)));
    case 'text':
      return inputStep(t, {
        prompt,
        value: typeof previous === 'string' ? previous : '',
        validate: (v) => schemaMessage(f, v.trim()),
      }).then((v) => v?.trim());
    case 'enum': {
      const items: PickItem<string | typeof SKIP>[] = (f.options ?? []).map((o) => ({
        label: o,
        description: o === f.default ? l10n.t('default') : o === previous ? l10n.t('last used') : undefined,
        value: o,
      }));
      if (f.optional) items.unshift({ label: l10n.t('Any {0}', f.label.toLowerCase()), description: l10n.t('leave out'), value: SKIP });
      const first = typeof previous === 'string' ? previous : f.default;
      items.sort((a, b) => (a.value === first ? -1 : b.value === first ? 1 : 0));
      return (await pickStep(t, items, { placeholder: prompt }))?.[0];
    }
    case 'textList': {
      const picked = await pickStep(
        t,
        (f.options ?? []).map((o) => ({ label: o, value: o })),
        { placeholder: l10n.t('{0} Pick none for all.', prompt), canPickMany: true, selected: Array.isArray(previous) ? (previous as string[]) : [] },
      );
      if (picked === undefined) return undefined;
      return picked.length === 0 ? SKIP : picked;
    }
    case 'addressList':
      return askAddressList(f, t, deps);
    case 'tokenWindows':
      return askTokenWindows(f, t);
    case 'query':
      return pickQuery(f.chain ?? 'main', t, deps);
  }
}

function rangeText(f: FieldSpec): string {
  if (f.min !== undefined && f.max !== undefined) return `${thousands(f.min)} to ${thousands(f.max)}`;
  if (f.min !== undefined) return `at least ${thousands(f.min)}`;
  return `at most ${thousands(f.max ?? 0)}`;
}

async function askAddressList(f: FieldSpec, t: StepTitle, deps: InputFlowDeps): Promise<string[] | PackedList | undefined> {
  const chain = f.chain ?? 'main';
  const what = f.label.toLowerCase();
  for (;;) {
    const ed = vscode.window.activeTextEditor;
    const selText = ed ? ed.selections.map((s) => ed.document.getText(s)).join('\n') : '';
    const sources: PickItem<ListSource | { recent: string[] | PackedList }>[] = [
      { label: l10n.t('$(edit) Type or paste…'), detail: l10n.t('Separated by spaces, commas or new lines'), value: 'paste' },
    ];
    if (selText.trim()) sources.push({ label: l10n.t('$(selection) From the selection'), detail: l10n.t('{0} valid addresses selected', parseAddressList(selText, chain).valid.length), value: 'selection' });
    if (ed) sources.push({ label: l10n.t('$(file) From the active file'), detail: vscode.workspace.asRelativePath(ed.document.uri), value: 'activeFile' });
    sources.push({ label: l10n.t('$(folder-opened) From a .txt or .csv file…'), detail: l10n.t('Choose the column of a .csv'), value: 'file' });
    if (deps.doneJobs().some((j) => j.resultPath)) sources.push({ label: l10n.t('$(history) From a previous result…'), value: 'result' });
    for (const r of deps.recent.slice(0, 3)) {
      const list = r[f.key];
      // A list this window sent is still packed (spec/packedList.ts): offered as it is, checked when it was made.
      if (isPackedList(list, chain) && list.length > 0) sources.push({ label: l10n.t('$(clock) Recent: {0} {1}', thousands(list.length), what), detail: list.items(0, 3).join(', '), value: { recent: list } });
      else if (Array.isArray(list) && list.length > 0) {
        sources.push({ label: l10n.t('$(clock) Recent: {0} {1}', thousands(list.length), what), detail: list.slice(0, 3).join(', '), value: { recent: list.map(String) } });
      }
    }
    const src = (await pickStep(t, sources, { placeholder: l10n.t('Where do the {0} come from? ({1})', what, rangeText(f)) }))?.[0];
    if (src === undefined) return undefined;
    let text: string | readonly string[] | undefined;
    let read: ParsedList | undefined;
    if (typeof src === 'object') {
      const recent = src.recent;
      if (isPackedList(recent)) read = { valid: recent, invalid: [], duplicates: 0 };
      else text = recent;
    }
    else if (src === 'paste') {
      text = await inputStep(t, {
        prompt: l10n.t('{0}: paste addresses separated by spaces, commas or new lines.', f.label),
        validate: (v) => {
          const r = parseAddressList(v, chain);
          const bad = badEntriesText(r);
          const dup = duplicatesText(r);
          if (bad) return [bad, dup].filter(Boolean).join(' ');
          if (f.max !== undefined && r.valid.length > f.max) return `Too many ${what}: ${thousands(r.valid.length)}, at most ${thousands(f.max)}.`;
          // Not a problem, but said before Enter: the list sent is shorter than the one pasted.
          return dup ? { message: `${thousands(r.valid.length)} ${what}; ${dup}`, severity: vscode.InputBoxValidationSeverity.Info } : undefined;
        },
      });
    } else read = await readListSource(src, t, deps, chain);
    // A list source reaches 100,000 entries: parsed with the host's loop given back every few (issue 34 item 4);
    // a file's or a result's column is parsed in its table worker (listSources.ts).
    const parsed = read ?? (text === undefined ? undefined : await parseAddressListSliced(text, chain));
    if (parsed === undefined) continue;
    const checked = await reviewList(parsed, f, t);
    if (checked) return checked;
  }
}

/** Shows what is wrong with a list before anything is sent; resolves the list to use, or undefined to pick again. */
async function reviewList(parsed: ParsedList, f: FieldSpec, t: StepTitle): Promise<string[] | PackedList | undefined> {
  const what = f.label.toLowerCase();
  const n = parsed.valid.length;
  const dup = duplicatesText(parsed) ? ` ${duplicatesText(parsed) ?? ''}` : '';
  const problems: string[] = [];
  if (n === 0) problems.push(`No valid ${what} found.`);
  if (f.max !== undefined && n > f.max) problems.push(`Too many ${what}: ${thousands(n)}, at most ${thousands(f.max)} per request.`);
  if (f.min !== undefined && n > 0 && n < f.min) problems.push(`Give at least ${f.min} ${what}.`);
  if (parsed.invalid.length === 0 && problems.length === 0) {
    if (dup) void vscode.window.showInformationMessage(`${thousands(n)} ${what}.${dup}`);
    return parsed.valid;
  }
  const items: PickItem<'use' | 'again'>[] = [];
  if (problems.length === 0) items.push({ label: l10n.t('$(check) Continue with the {0} valid {1}', thousands(n), what), detail: l10n.t('{0} invalid entr{1} left out.{2}', parsed.invalid.length, parsed.invalid.length === 1 ? 'y' : 'ies', dup), value: 'use' });
  items.push({ label: l10n.t('$(arrow-left) Choose or fix the list again'), value: 'again' });
  for (const bad of parsed.invalid.slice(0, 50)) {
    items.push({ label: l10n.t('$(error) Line {0}: {1}', bad.line, bad.value.length > 48 ? `${bad.value.slice(0, 48)}…` : bad.value), detail: bad.reason, value: 'again' });
  }
  if (parsed.invalid.length > 50) items.push({ label: l10n.t('…and {0} more invalid entries', parsed.invalid.length - 50), value: 'again' });
  const head = problems[0] ?? `${badEntriesText(parsed, 3) ?? ''}${dup}`;
  const choice = (await pickStep(t, items, { placeholder: head }))?.[0];
  return choice === 'use' ? parsed.valid : undefined;
}

async function askTokenWindows(f: FieldSpec, t: StepTitle): Promise<{ token: string; from: number; to: number }[] | undefined> {
  const list: { token: string; from: number; to: number }[] = [];
  for (;;) {
    const token = await inputStep(t, {
      prompt: l10n.t('Token {0}: its mint address.', list.length + 1),
      validate: (v) => {
        const p = addressProblem(v.trim(), 'main');
        if (p) return `Not a valid address: ${p}.`;
        return list.some((x) => x.token === v.trim()) ? 'This token is already on the list.' : undefined;
      },
    });
    if (token === undefined) return undefined;
    const from = await inputStep(t, { prompt: l10n.t('Token {0}: the window opens at (Unix seconds or ISO date).', list.length + 1), validate: (v) => (parseTimestamp(v) === undefined ? 'Give Unix seconds or an ISO date.' : undefined) });
    if (from === undefined) return undefined;
    const fromS = parseTimestamp(from) ?? 0;
    const to = await inputStep(t, {
      prompt: l10n.t('Token {0}: the window closes at.', list.length + 1),
      validate: (v) => {
        const s = parseTimestamp(v);
        return s === undefined ? 'Give Unix seconds or an ISO date.' : s <= fromS ? 'The window must close after it opens.' : undefined;
      },
    });
    if (to === undefined) return undefined;
    list.push({ token: token.trim(), from: fromS, to: parseTimestamp(to) ?? 0 });
    if (list.length >= (f.max ?? 20)) return list;
    if (list.length >= (f.min ?? 2)) {
      const more = await pickStep(t, [
        { label: l10n.t('$(check) Done: {0} tokens', list.length), value: false },
        { label: l10n.t('$(add) Add another token'), value: true },
      ]);
      if (more === undefined) return undefined;
      if (!more[0]) return list;
    }
  }
}
