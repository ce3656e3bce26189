// Helpers shared by the integration tests (bundled into each *.test.js; keep it stateless).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { PriceAnswerer, PriceQuestion } from '../../src/vscode/calls/priceStep';

export const EXTENSION_ID = 'wallet-analytics.wallet-analytics';

export function extension(): vscode.Extension<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded in this extension host.`);
  return ext;
}

/** Activates the extension (if needed) and returns its API. */
export async function api(): Promise<ExtensionApi> {
  return extension().activate();
}

/** The test-only part of the API; VS Code sets it only under its test runner. */
export async function testingContext(): Promise<vscode.ExtensionContext> {
  const t = (await api()).testing;
  if (!t) throw new Error('ExtensionApi.testing is missing: the extension host is not in ExtensionMode.Test.');
  return t.context;
}

/**
 * Polls until check() returns a value other than undefined/false, or fails after timeoutMs.
 * `what` may be a function: it is read at the timeout, so the error can say what was seen then.
 */
export async function waitFor<T>(what: string | (() => string), check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
 * threshold, "just this once", "may charge again"): true clicks the spending button, false
 * cancels, a function decides per question. undefined hands the questions back to the window.
 * Returns the questions asked so far. Only under VS Code's test runner (ExtensionApi.testing).
 */
export async function answerPrices(answer: boolean | PriceAnswerer | undefined): Promise<readonly PriceQuestion[]> {
  const t = (await api()).testing;
  if (!t) throw new Error('ExtensionApi.testing is missing: the extension host is not in ExtensionMode.Test.');
  t.prices.answerForTests(typeof answer === 'boolean' ? () => answer : answer);
  return t.prices.asked;
}
