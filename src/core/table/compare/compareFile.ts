/**
 * A comparison saved as a small file (`compare <A> vs <B>.compare.json`) that names its two results, so
 * it opens in the table like any result (openTable knows the suffix): the table editor, its
 * session and its worker show it without a path of their own, and it can be opened again later.
 * The file holds paths only; the cells are always read from the two results.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { TableSource, TaskOptions } from '../types';
import { compareSources, type CompareSource } from './compareSource';
import { errorText } from '../../errors';
import { l10n } from '../../l10n';
import { replaceInside } from '../../files/writeInside';
import { COMPARE_FILE_MARK } from '../../ids';

const COMPARE_SUFFIX = '.compare.json';
const MARK = COMPARE_FILE_MARK;

interface CompareSpec {
  /** The result each side reads: absolute, or relative to the spec file's folder. */
  readonly a: string;
  readonly b: string;
}

/** True for a file name that is a saved comparison. */
export function isCompareFile(path: string): boolean {
  return path.toLowerCase().endsWith(COMPARE_SUFFIX);
}

/** The text of a comparison file. */
export function compareFileText(spec: CompareSpec): string {
  return `${JSON.stringify({ [MARK]: 1, a: spec.a, b: spec.b }, null, 2)}\n`;
}

/**
 * A comparison file's name for two results: "compare <a> vs <b>.compare.json", safe on every file
 * system. It never starts with an endpoint id and a date (as a result's name does), so the table
 * keeps its column layout apart from that endpoint's results.
 */
function compareFileName(a: string, b: string): string {
  const stem = (p: string): string => basename(p).replace(/\.(csv|txt|json)$/iu, '').replace(/[^\w .@+-]+/gu, '_').slice(0, 80);
  return `compare ${stem(a)} vs ${stem(b)}${COMPARE_SUFFIX}`;
}

/** Reads a comparison file's two paths (resolved against its folder). */
export async function readCompareFile(path: string): Promise<CompareSpec> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(l10n.t('{0} is not a comparison file: {1}', basename(path), errorText(e)), { cause: e });
  }
  const o = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (o[MARK] !== 1 || typeof o.a !== 'string' || typeof o.b !== 'string' || o.a === '' || o.b === '') {
    throw new Error(l10n.t('{0} is not a comparison file (it needs "{1}": 1 and the paths "a" and "b").', basename(path), MARK));
  }
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(dirname(path), p));
  return { a: at(o.a), b: at(o.b) };
}

/**
 * Opens a comparison file: both results through `open` (openTable, passed in so this module does
 * not import it back), then compares them; the comparison closes them when it is closed.
 */
export async function openCompareFile(path: string, open: (file: string) => Promise<TableSource>, options: TaskOptions = {}): Promise<CompareSource> {
  const spec = await readCompareFile(path);
  const [a, b] = await Promise.allSettled([open(spec.a), open(spec.b)]);
  if (a.status === 'rejected' || b.status === 'rejected') {
    if (a.status === 'fulfilled') await a.value.close();
    if (b.status === 'fulfilled') await b.value.close();
    const [file, reason]: [string, unknown] = a.status === 'rejected' ? [spec.a, a.reason] : [spec.b, (b as PromiseRejectedResult).reason];
    throw new Error(l10n.t('{0} could not be opened: {1}', basename(file), errorText(reason)), { cause: reason });
  }
  try {
    return await compareSources(a.value, b.value, { ...options, ownsSources: true, labels: { a: basename(spec.a), b: basename(spec.b) } });
  } catch (e) {
    await Promise.all([a.value.close(), b.value.close()]);
    throw e;
  }
}

/** Where a comparison of `a` and `b` is saved: `<folder>/compare <a> vs <b>.compare.json`. */
export function comparePath(folder: string, a: string, b: string): string {
  return join(folder, compareFileName(a, b));
}

/**
 * Saves the comparison of `a` and `b` as `compares/compare <a> vs <b>.compare.json` in the results
 * folder, through the owner of writing, and returns its file: the one way a comparison is saved (the
 * Compare command and a watch's run). The same two results compared again replace their file.
 */
export async function saveComparison(resultsFolder: string, a: string, b: string): Promise<string> {
  return replaceInside(resultsFolder, `compares/${compareFileName(a, b)}`, compareFileText({ a, b }));
}
