/**
 * One owner per concept (issue 26), held the way the command-id check holds command ids: a
 * TypeScript scan of src/ (comments and strings do not count) that fails when a file outside a
 * concept's owner does the owner's work itself. Each rule has a second test that shows the scan
 * sees what it must (and passes over what it must not), so the rule cannot pass by seeing nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

/** A finding: the file (relative, with /), its line, and what was seen. */
type Finding = string;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/** Runs `look` over every node of every .ts file under dir; `look` returns what it saw at a node. */
function scan(dir: string, look: (n: ts.Node, sf: ts.SourceFile) => string | undefined, base = root): Finding[] {
  return tsFiles(dir).flatMap((f) => {
    const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    const out: Finding[] = [];
    const name = relative(base, f).split(sep).join('/');
    const visit = (n: ts.Node): void => {
      const seen = look(n, sf);
      if (seen !== undefined) out.push(`${name}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${seen}`);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return out;
  });
}

const fileOf = (finding: Finding): string => finding.slice(0, finding.indexOf(':'));

/** Runs a check over one throwaway folder of files, so its second test sees exactly what it finds there. */
function scanFiles(files: Record<string, string>, look: (n: ts.Node, sf: ts.SourceFile) => string | undefined): Finding[] {
  const dir = mkdtempSync(join(tmpdir(), 'wa-owners-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return scan(dir, look, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const src = join(root, 'src');

// ---------------------------------------------------------------------------------------------
// 1. Showing an error to the person, and an error's words.

/** The owner of error and warning notifications, and the owners of questions asked with a warning. */
const NOTIFICATION_OWNERS = new Set([
  'src/vscode/base/errors.ts', // showError, showErrorIn, showWarning
  'src/vscode/calls/priceStep.ts', // the price shown before a paid call, as a question
  'src/vscode/base/personQuestions.ts', // the person's yes/no questions
]);
/** The owner of turning a thrown value into words (errorText). */
const ERROR_TEXT_OWNER = 'src/core/errors.ts';

/** A call of showErrorMessage or showWarningMessage (any receiver), or a reference to either. */
function notification(n: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(n) && (n.name.text === 'showErrorMessage' || n.name.text === 'showWarningMessage')) return n.name.text;
  return undefined;
}

/** `x instanceof Error ? x.message : …`, or `(x as Error).message`: an error's words, written again. */
function errorToText(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isConditionalExpression(n)) {
    const c = n.condition;
    if (
      ts.isBinaryExpression(c) &&
      c.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword &&
      c.right.getText(sf) === 'Error' &&
      ts.isPropertyAccessExpression(n.whenTrue) &&
      n.whenTrue.name.text === 'message'
    )
      return n.getText(sf);
  }
  if (ts.isPropertyAccessExpression(n) && n.name.text === 'message') {
    let e: ts.Expression = n.expression;
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    if (ts.isAsExpression(e) && e.type.getText(sf) === 'Error') return n.getText(sf);
  }
  return undefined;
}

describe('one owner shows errors to the person; one turns an error into words', () => {
  it('no file outside src/vscode/base/errors.ts (and the question owners) calls showErrorMessage or showWarningMessage', () => {
    assert.deepEqual(
      scan(src, notification).filter((f) => !NOTIFICATION_OWNERS.has(fileOf(f))),
      [],
      'show it with showError / showErrorIn / showWarning (src/vscode/base/errors.ts): an API error then carries the action that fixes it',
    );
  });

  it('no file outside src/core/errors.ts writes the error-to-text expression itself (use errorText)', () => {
    assert.deepEqual(
      scan(src, errorToText).filter((f) => fileOf(f) !== ERROR_TEXT_OWNER),
      [],
    );
  });

  it('the checks see a direct notification and the error-to-text expression, and pass over comments, strings and other calls', () => {
    const found = scanFiles(
      {
        'a.ts': [
          '// vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e))',
          "const s = 'vscode.window.showWarningMessage(x)';",
          'void vscode.window.showErrorMessage(`x: ${e instanceof Error ? e.message : String(e)}`);',
          'const show = level ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;',
          'const t = (err as Error).message;',
          'void vscode.window.showInformationMessage(errorText(e));',
        ].join('\n'),
      },
      (n, sf) => notification(n) ?? errorToText(n, sf),
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ['3: showErrorMessage', '3: e instanceof Error ? e.message : String(e)', '4: showErrorMessage', '4: showWarningMessage', '5: (err as Error).message'],
    );
  });
});
