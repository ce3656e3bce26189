// Helpers shared by the integration tests (bundled into each *.test.js; keep it stateless).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi, ExtensionExports } from '../../src/extension';
import { CommandIds } from '../../src/vscode/base/ids';
import type { PersonAnswerer, PersonQuestion } from '../../src/vscode/base/personQuestions';
import type { PriceAnswerer, PriceQuestion } from '../../src/vscode/calls/priceStep';

export const EXTENSION_ID = 'wallet-analytics.wallet-analytics';

export function extension(): vscode.Extension<ExtensionExports | undefined> {
  const ext = vscode.extensions.getExtension<ExtensionExports | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded in this extension host.`);
  return ext;
}

/**
 * Activates the extension (if needed) and returns its test surface, with the services and the
 * sidebar up front. The extension exports it only under VS Code's test runner (ExtensionMode.Test).
 */
export async function api(): Promise<ExtensionApi> {
  const t = await (await extension().activate())?.testing;
  if (!t) throw new Error('The extension exported nothing: the extension host is not in ExtensionMode.Test.');
  return { services: t.services, activationMs: t.activationMs, sidebar: t.sidebar, testing: t };
}

/** The extension's context (its SecretStorage, log and storage folders). */
export async function testingContext(): Promise<vscode.ExtensionContext> {
  return (await api()).testing.context;
}

/**
 * Polls until check() returns a value other than undefined/false, or fails after timeoutMs.
 * `what` may be a function: it is read at the timeout, so the error can say what was seen then.
 * The default wait is long (20 s) because it costs nothing when the state comes: it returns at once
 * then, and a slower CI machine (the integration tier took 6 min there against 3 here) still gets
 * there. A test that something does not happen never uses it.
 */
export async function waitFor<T>(what: string | (() => string), check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The window reads its jobs every `ms` (the test runner's hook, TestSurface.pollEvery) instead of
 * the setting's whole seconds: a suite whose sandbox finishes jobs in 100–400 ms waits for them,
 * not for the next poll 5 s later. undefined: the setting again (each suite's after()).
 */
export async function pollEvery(ms: number | undefined): Promise<void> {
  (await api()).testing.pollEvery(ms);
}

/** Every regular file under dir (recursively); [] if dir does not exist. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A line in the report (the launcher prints it with mocha's output). */
export function note(msg: string): void {
  const line = `      ↳ ${msg}`;
  if (globalThis.__waIntegrationReport) globalThis.__waIntegrationReport(line);
  else console.log(line);
}

/**
 * Stands in for the person's click on every price question (the price step, a dialog above the
 * threshold, "just this once" and its typed amount, "may charge again"): true clicks the spending button, false
 * cancels, a function decides per question. undefined hands the questions back to the window.
 * Returns the questions asked so far. Only under VS Code's test runner (ExtensionApi.testing).
 */
export async function answerPrices(answer: boolean | PriceAnswerer | undefined): Promise<readonly PriceQuestion[]> {
  const t = (await api()).testing;
  // true at the "type the credits you accept" box types the whole balance (or 10,000,000 when unknown).
  t.prices.answerForTests(typeof answer === 'boolean' ? (q) => (answer && q.kind === 'amount' ? (q.balance ?? 10_000_000) : answer) : answer);
  return t.prices.asked;
}

/**
 * Stands in for the person at Set API Key's and the profile commands' input boxes and
 * confirmations (src/vscode/base/personQuestions.ts); undefined hands them back to the window.
 * Returns the questions asked so far.
 */
export async function answerQuestions(answer: PersonAnswerer | undefined): Promise<readonly PersonQuestion[]> {
  const t = (await api()).testing;
  t.questions.answerForTests(answer);
  return t.questions.asked;
}

/** Runs a command with `answer` standing in for the person for its questions only. */
export async function answering<T>(answer: PersonAnswerer, command: string, ...args: unknown[]): Promise<T | undefined> {
  await answerQuestions(answer);
  try {
    return await vscode.commands.executeCommand<T | undefined>(command, ...args);
  } finally {
    await answerQuestions(undefined);
  }
}

/** Set API Key as a person does it: the key typed into its password box and Enter. True when stored. */
export async function setApiKey(key: string): Promise<boolean> {
  return (await answering<boolean>((q) => (q.kind === 'input' && q.id === 'apiKey' ? key : undefined), CommandIds.setApiKey)) === true;
}

/** Clear API Key as a person does it: the person clicks Clear API Key in its confirmation. True when cleared (or none was stored). */
export async function clearApiKey(): Promise<boolean> {
  return (await answering<boolean>((q) => (q.kind === 'confirm' ? q.yes : undefined), CommandIds.clearApiKey)) === true;
}

/** Add Profile as a person does it: name, base URL and key typed into its three boxes. Returns the new profile's id. */
export async function addProfile(p: { name: string; baseUrl: string; key: string }): Promise<string | undefined> {
  const typed = { profileName: p.name, profileBaseUrl: p.baseUrl, apiKey: p.key, profileRename: undefined, baseUrl: undefined, exportSchedule: undefined };
  return answering<string>((q) => (q.kind === 'input' ? typed[q.id] : undefined), CommandIds.addProfile);
}

/** Remove Profile on `id`, the person clicking Remove in its confirmation. True when removed. */
export async function removeProfile(id: string): Promise<boolean> {
  return (await answering<boolean>((q) => (q.kind === 'confirm' ? q.yes : undefined), CommandIds.removeProfile, id)) === true;
}
