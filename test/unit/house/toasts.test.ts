/**
 * A notification without a button is read on one line: VS Code shows it collapsed, and a longer
 * message ends mid-sentence ("… still runs on the s…", issue 23). A TypeScript scan of src/ finds
 * every information or warning notification (VS Code's own, and the project's showWarning) given a
 * message and no button whose words, spelt in the code (a literal, a template's fixed parts, or
 * l10n.t's first argument), are longer than that line. Such a message is shortened, or given a
 * button that is the next step (which then shows it whole, expanded).
 *
 * What one line holds, measured in the e2e screenshots (1280 × 800, code-server's UI font at 13 px):
 * a toast's message runs from x 852 to the gear at about 1212, 360 px; its words average 6.6 px a
 * character ("under Requests when it is done.", 31 characters, 205 px; cancel-wait-01), so about 54
 * characters. The rule allows 50, a little room for wider letters, and counts each placeholder
 * ({0}, or a template's ${…}) as 10 characters: a title or a file name is rarely shorter.
 *
 * showError and showErrorIn are not scanned: an error always has a button (Show Log, when the caller
 * gives none), so it shows expanded. A modal ({ modal: true }) is a dialog, not a toast.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The most characters a message without a button may spell (placeholders counted as PLACEHOLDER). */
const ONE_LINE = 50;
const PLACEHOLDER = 10;

/** The calls that put a toast on screen: VS Code's (as `vscode.window.…`) and the project's helper. */
const TOASTS = new Set(['showInformationMessage', 'showWarningMessage', 'showWarning']);

/** Messages allowed past one line without a button, each with why. None today. */
const ALLOWED = new Map<string, string>();

/** The words a message argument spells, placeholders counted as PLACEHOLDER characters; undefined when the code does not spell it. */
function speltText(arg: ts.Expression): string | undefined {
  const hole = '·'.repeat(PLACEHOLDER);
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) return arg.head.text + arg.templateSpans.map((s) => hole + s.literal.text).join('');
  if (ts.isCallExpression(arg) && ts.isPropertyAccessExpression(arg.expression) && arg.expression.name.text === 't') {
    const owner = arg.expression.expression;
    const isL10n = (ts.isIdentifier(owner) && owner.text === 'l10n') || (ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n');
    const first = arg.arguments[0];
    if (isL10n && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) return first.text.replace(/\{\d+\}/gu, hole);
  }
  return undefined;
}

/** The message of a toast call with no button whose spelt words pass one line, else undefined. */
function longToast(n: ts.Node): string | undefined {
  if (!ts.isCallExpression(n)) return undefined;
  const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name.text : ts.isIdentifier(n.expression) ? n.expression.text : '';
  if (!TOASTS.has(callee)) return undefined;
  const [message, ...rest] = n.arguments;
  if (!message) return undefined;
  const isModal = rest.some((a) => ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'modal'));
  // A button: any other argument than an options object (a spread may hold buttons, so it counts as one).
  const buttons = rest.filter((a) => !ts.isObjectLiteralExpression(a));
  if (isModal || buttons.length > 0) return undefined;
  const text = speltText(message);
  return text !== undefined && text.length > ONE_LINE ? text : undefined;
}

/** Every long toast without a button in the .ts files under dir, as "path:line: message" (path relative to dir, with /). */
function longToasts(dir: string): string[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  return files.sort().flatMap((f) => {
    const sf = ts.createSourceFile(f, readFileSync(join(dir, f), 'utf8'), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (n: ts.Node): void => {
      const text = longToast(n);
      if (text !== undefined && !ALLOWED.has(text)) found.push(`${f.split(sep).join('/')}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${text}`);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return found;
  });
}

const src = resolve(__dirname, '..', '..', '..', '..', 'src');

describe('a notification without a button reads whole on one line', () => {
  it(`no information or warning toast without a button spells more than ${ONE_LINE} characters (shorten it, or add the next step as a button)`, () => {
    assert.ok(readdirSync(src).includes('vscode'), `src/ not found at ${relative(process.cwd(), src)}`);
    assert.deepEqual(longToasts(src), []);
  });

  it('the scan sees a long message without a button, and passes a short one, one with a button, a modal and an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-toasts-'));
    try {
      const long = 'Top Traders is still running on the server; its result opens here when it is done.';
      writeFileSync(
        join(dir, 'a.ts'),
        [
          `void vscode.window.showInformationMessage(l10n.t('{0} is still running on the server; its result opens here when it is done.', title));`,
          `void vscode.window.showWarningMessage('${long}');`,
          `void showWarning(\`\${title}: the cron line is on the clipboard; set WA_API_KEY in the crontab first.\`);`,
          `void vscode.window.showInformationMessage(l10n.t('Saved the view "{0}".', name));`,
          `void vscode.window.showInformationMessage('${long}', l10n.t('Show Requests'));`,
          `void showWarning('${long}', ...actions);`,
          `void vscode.window.showWarningMessage('${long}', { modal: true, detail });`,
          `void showError('${long}');`,
          `void vscode.window.showInformationMessage(message);`,
          `const words = '${long}';`,
        ].join('\n'),
      );
      assert.deepEqual(longToasts(dir), [
        'a.ts:1: ·········· is still running on the server; its result opens here when it is done.',
        `a.ts:2: ${long}`,
        'a.ts:3: ··········: the cron line is on the clipboard; set WA_API_KEY in the crontab first.',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
