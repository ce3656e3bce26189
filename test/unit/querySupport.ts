// Shared by the query unit tests: the repository root, fixtures and the sandbox's field lists.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChainColumns } from '../../src/core/query/fields';
import { columnInfos } from '../../src/sandbox/columns';

export function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

export function fixture(name: string): string {
  return readFileSync(join(repoRoot(), 'test', 'fixtures', 'query', name), 'utf8');
}

/** Both chains' lists exactly as the sandbox serves them at GET …/wallet_database/columns. */
export const SANDBOX_COLUMNS: ChainColumns = { main: columnInfos('main'), alt: columnInfos('alt') };

export interface Expected {
  code: string;
  offset: number;
  length: number;
  text: string;
}

// The ranges a fixture marks with /*<code*/ … /*>*/ (nesting allowed), in text order.
export function markedRanges(text: string): Expected[] {
  const out: Expected[] = [];
  const open: { code: string; offset: number }[] = [];
  for (const m of text.matchAll(/\/\*<([a-z-]+)\*\/|\/\*>\*\//gu)) {
    const end = (m.index ?? 0) + m[0].length;
    if (m[1]) open.push({ code: m[1], offset: end });
    else {
      const o = open.pop();
      if (!o) throw new Error(`unbalanced marker at ${m.index ?? 0}`);
      const length = (m.index ?? 0) - o.offset;
      out.push({ code: o.code, offset: o.offset, length, text: text.slice(o.offset, o.offset + length) });
    }
  }
  return out.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code));
}
