/** Reading a `.waquery.json` file (JSON with comments) into a validated query. */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { bodyOfFile, QueryFile, type QueryBody } from './model';

export type ParsedQueryFile =
  | { ok: true; body: QueryBody; chain: 'main' | 'alt' | undefined }
  | { ok: false; errors: string[] };

/** Parses JSONC text and validates it against the query model; errors name the line and what is wrong. */
export function parseQueryFile(text: string): ParsedQueryFile {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    return {
      ok: false,
      errors: errors.map((e) => `Line ${lineOf(text, e.offset)}: ${printParseErrorCode(e.error)}.`),
    };
  }
  const r = QueryFile.safeParse(raw);
  if (!r.success) {
    return { ok: false, errors: r.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`) };
  }
  return { ok: true, body: bodyOfFile(r.data), chain: r.data.$chain };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
