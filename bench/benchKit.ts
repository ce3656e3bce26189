/**
 * What every benchmark script needs and would otherwise write again: its `--name value`
 * arguments, the repository's root, a stopwatch, a quantile, the random-window loop the table
 * figures are read from, and the one way a script runs either as the parent (main) or as one
 * measured part in a fresh child process of itself (the figures of a part never share a heap).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const argv = process.argv.slice(2);

/** `--name value` from the command line, or the fallback. */
export function arg(name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
}

/** Whether `--name` is on the command line. */
export const flag = (name: string): boolean => argv.includes(`--${name}`);

/** The repository's root: the first folder above the compiled script that holds package.json. */
export function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

/** Milliseconds since `from` (a performance.now()). */
export const ms = (from: number): number => performance.now() - from;

/** The q-quantile of the values (nearest rank), NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Anything that serves a window of rows: the engine's view, or the table in its worker. */
interface Windowed {
  window(first: number, last: number, columns: readonly number[], signal?: AbortSignal, cellChars?: number): Promise<unknown>;
}

/**
 * The time of each of `count` windows of 60 rows at random places, each over the columns `block()`
 * picks; with `cellChars`, cut as the grid asks for them (core/table/windowCells.ts).
 */
export async function randomWindowTimes(view: Windowed, length: () => number, rand: () => number, block: () => number[], count = 200, cellChars?: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const first = Math.floor(rand() * Math.max(1, length() - 60));
    const cols = block();
    const t = performance.now();
    await view.window(first, first + 60, cols, undefined, cellChars);
    times.push(ms(t));
  }
  return times;
}

/** Runs the measured part (printing its figures as one JSON line for the parent) when one is asked for, else main; a failure exits 1. */
export function runPartOrMain(part: (() => Promise<unknown>) | undefined, main: () => Promise<void>): void {
  const fail = (e: unknown): void => {
    console.error(e);
    process.exit(1);
  };
  if (part) part().then((r) => console.log(JSON.stringify(r)), fail);
  else main().catch(fail);
}
