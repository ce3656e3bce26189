/**
 * Reading a `.waquery.json` file (JSON with comments) into a query that can be sent as written:
 * every path that sends a file (the runner, the palette's file pick, a re-run) reads it here.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { analyzeQuery } from './analyze';
import { bodyOfFile, QueryFile, withoutFileKeys, type QueryBody } from '../spec/queryModel';

type ParsedQueryFile =
  | { ok: true; body: QueryBody; chain: 'main' | 'alt' | undefined }
  | { ok: false; errors: string[] };

/**
 * Parses JSONC text and validates it against the query model and the checks that need no field
 * list (analyzeQuery's errors: a number that cannot be sent exactly, `between` upside down, an
 * empty group…); errors name the line and what is wrong. `$` keys stay in the file.
 */
export function parseQueryFile(text: string): ParsedQueryFile {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    return {
      ok: false,
      errors: errors.map((e) => `Line ${lineOf(text, e.offset)}: ${printParseErrorCode(e.error)}.`),
    };
  }
  const r = QueryFile.safeParse(withoutFileKeys(raw));
  if (!r.success) {
    return { ok: false, errors: r.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`) };
  }
  const problems = analyzeQuery(text).filter((d) => d.severity === 'error');
  if (problems.length > 0) return { ok: false, errors: problems.map((d) => `Line ${lineOf(text, d.offset)}: ${d.message}`) };
  return { ok: true, body: bodyOfFile(r.data), chain: r.data.$chain };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
