/**
 * Issue 31.3, the first two of the last second owners, held as owners.test.ts holds errors and
 * storage: naming a new file that never replaces one (six rules before: nthName, numberedName and
 * freeName, the address sets' "name (2)", the notebook's own loop, unzip's freeDir, new queries'
 * nameFor; now src/core/files/naming.ts), and Markdown escaping (two escapeMarkdown functions with
 * different rules; now src/core/markdown.ts). A TypeScript scan of src/ (comments and strings do not
 * count); each rule has a second test that shows the scan sees what it must.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();
const NAMING_OWNER = 'src/core/files/naming.ts';
const MARKDOWN_OWNER = 'src/core/markdown.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

type Look = (n: ts.Node, sf: ts.SourceFile) => string | undefined;

function scanText(text: string, look: Look): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    const seen = look(n, sf);
    if (seen !== undefined) out.push(`${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${seen}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The code that can name files: the webview and the shared protocols run in a browser, with no file system. */
function scanSrc(look: Look): string[] {
  return [join(root, 'src', 'core'), join(root, 'src', 'vscode'), join(root, 'src', 'sandbox')]
    .flatMap(tsFiles).flatMap((f) => scanText(readFileSync(f, 'utf8'), look).map((x) => `${relative(root, f).split(sep).join('/')}:${x}`));
}
const fileOf = (w: string): string => w.slice(0, w.indexOf(':'));

/** A counter written into a name: `…-${i}…` or `… (${n})…`, the mark of a numbering rule of its own. */
const numbering: Look = (n, sf) => {
  if (!ts.isTemplateExpression(n)) return undefined;
  let before = n.head.text;
  for (const span of n.templateSpans) {
    const counter = ts.isIdentifier(span.expression) && /^(i|n|k|attempt|index|counter|tries)$/u.test(span.expression.text);
    if (counter && (before.endsWith('-') || (before.endsWith(' (') && span.literal.text.startsWith(')')))) return n.getText(sf);
    before = span.literal.text;
  }
  return undefined;
};

/** A function or constant named like a Markdown escaper (`escapeMarkdown`, `markdownEscape`, `mdEscape`…). */
const markdownEscaper: Look = (n) => {
  const name = ts.isFunctionDeclaration(n) || ts.isVariableDeclaration(n) || ts.isMethodDeclaration(n) ? n.name : undefined;
  if (!name || !ts.isIdentifier(name)) return undefined;
  return /escape.*(markdown|md)|(markdown|md).*escape/iu.test(name.text) ? name.text : undefined;
};

describe('one owner names a new file that never replaces one (issue 31.3)', () => {
  it('no file of src/ outside src/core/files/naming.ts numbers a name itself (x-2, "x (2)")', () => {
    assert.deepEqual(scanSrc(numbering).filter((w) => fileOf(w) !== NAMING_OWNER), [], 'use nthName / nthFolderName (src/core/files/naming.ts), or writeNewNamed');
  });

  it('the scan sees the rules there were, and passes over other templates', () => {
    const text = [
      'for (let i = 1; ; i++) { const p = `${stem} (${i}).txt`; }',
      'const nameFor = (i: number): string => `wallets${i === 1 ? "" : `-${i}`}.waquery.json`;',
      'const c = `${p}-${i}`;',
      'const d = `${a}-${b}`;',
      'const e = `page ${i} of ${n}`;',
      'const f = `Add Profile (${n}/3)`;',
      '// `x-${i}` in a comment',
    ].join('\n');
    assert.deepEqual(scanText(text, numbering).map((w) => w.slice(0, w.indexOf(':'))), ['1', '2', '3']);
  });
});

describe('one owner escapes Markdown (issue 31.3)', () => {
  it('no file of src/ outside src/core/markdown.ts defines a Markdown escaper', () => {
    assert.deepEqual(scanSrc(markdownEscaper).filter((w) => fileOf(w) !== MARKDOWN_OWNER), [], 'use escapeMarkdown / markdownCode from src/core/markdown.ts');
  });

  it('the scan sees a second escaper, however it is declared', () => {
    const text = ['export function escapeMarkdown(t: string) { return t; }', 'const mdEscape = (t: string) => t;', 'function escapeHtml(t: string) { return t; }'].join('\n');
    assert.deepEqual(scanText(text, markdownEscaper), ['1: escapeMarkdown', '2: mdEscape']);
  });
});
