// Where a string a person reads is written in the extension's code (issue 26: localisable): the one
// list of those places ("sinks"), used by scripts/l10n.mjs (which wraps them in l10n.t and writes
// l10n/bundle.l10n.json) and by test/unit/l10n.test.ts (which fails on a new literal at a sink).
// Sinks: the arguments of show{Information,Warning,Error}Message and of the error owner's showError,
// showErrorIn and showWarning (src/vscode/base/errors.ts), and the `detail` of their options;
// an object literal's label, description, detail, placeHolder, placeholder, prompt, title, tooltip
// or validationMessage, an `aria-label` attribute, or the `text` of a webview element (dom.ts el()); the label of button(…); an assignment to .textContent, .title, .placeholder, .tooltip,
// .description, .label or .ariaLabel; setAttribute('aria-label' | 'title' | 'placeholder', …); and
// `new TreeItem(label)`. A literal counts when it holds a letter and is not a codicon (`$(key)`).
// Data never passes through these (a cell's text is an expression, not a literal), so nothing the
// file holds is translated.
import ts from 'typescript';

const SHOW = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showError', 'showErrorIn', 'showWarning']);
const PROPS = new Set(['label', 'description', 'detail', 'placeHolder', 'placeholder', 'prompt', 'title', 'tooltip', 'validationMessage', 'text', 'aria-label']);
const ASSIGNED = new Set(['textContent', 'title', 'placeholder', 'tooltip', 'description', 'label', 'ariaLabel']);
const ATTRS = new Set(['aria-label', 'title', 'placeholder']);

const isText = (s) => /\p{L}/u.test(s) && !/^\s*(\$\([\w~-]+\)\s*)+$/u.test(s);

/** The literal strings an expression yields directly: itself, or either branch of a ?: (through parentheses). */
function literalsIn(e) {
  if (!e) return [];
  if (ts.isParenthesizedExpression(e)) return literalsIn(e.expression);
  if (ts.isConditionalExpression(e)) return [...literalsIn(e.whenTrue), ...literalsIn(e.whenFalse)];
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return isText(e.text) ? [e] : [];
  if (ts.isTemplateExpression(e)) {
    const text = e.head.text + e.templateSpans.map((s) => s.literal.text).join('');
    return isText(text) ? [e] : [];
  }
  return [];
}

const nameOf = (n) => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : undefined);
const calleeName = (c) => (ts.isPropertyAccessExpression(c) ? c.name.text : ts.isIdentifier(c) ? c.text : undefined);

/** Is this node already inside l10n.t(…)? */
function wrapped(node) {
  const p = node.parent;
  return p && ts.isCallExpression(p) && ts.isPropertyAccessExpression(p.expression) && p.expression.name.text === 't' && /\bl10n$/u.test(p.expression.expression.getText());
}

/** Every user-facing literal at a sink in one source text: [{ node, line, text }]. */
export function scanSource(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const add = (exprs) => {
    for (const e of exprs) for (const lit of literalsIn(e)) if (!wrapped(lit)) found.push(lit);
  };
  const visit = (n) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      if (name && SHOW.has(name)) {
        add(n.arguments);
        for (const a of n.arguments) if (ts.isObjectLiteralExpression(a)) for (const p of a.properties) if (ts.isPropertyAssignment(p) && nameOf(p.name) === 'detail') add([p.initializer]);
      } else if (name === 'button') add(n.arguments.slice(0, 1));
      else if (name === 'setAttribute' && n.arguments.length === 2 && ts.isStringLiteral(n.arguments[0]) && ATTRS.has(n.arguments[0].text)) add([n.arguments[1]]);
    } else if (ts.isNewExpression(n) && n.expression && calleeName(n.expression) === 'TreeItem') {
      add(n.arguments?.slice(0, 1) ?? []);
    } else if (ts.isPropertyAssignment(n) && PROPS.has(nameOf(n.name) ?? '') && ts.isObjectLiteralExpression(n.parent)) {
      add([n.initializer]);
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(n.left) && ASSIGNED.has(n.left.name.text)) {
      add([n.right]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return [...new Set(found)].sort((a, b) => a.getStart(sf) - b.getStart(sf)).map((node) => ({ node, start: node.getStart(sf), end: node.getEnd(), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf) }));
}

/** The files whose strings a person reads: the extension host's UI and the webviews. */
export const L10N_ROOTS = ['src/vscode', 'src/webview-ui', 'src/extension.ts'];

/** Every message passed to l10n.t(…) as a literal (the English bundle's keys), in order of appearance. */
export function messagesIn(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = [];
  const visit = (n) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 't' && /\bl10n$/u.test(n.expression.expression.getText(sf))) {
      const a = n.arguments[0];
      if (a && (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a))) out.push(a.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * Literals compared with what a person picked (`a === 'Retry'`, `case 'Retry':`) whose text this
 * file shows through l10n.t: in another language the pick is the translation, so the comparison
 * must be with l10n.t('Retry') too. [{ start, end, line, text }]
 */
export function untranslatedComparisons(fileName, text) {
  const shown = new Set(messagesIn(fileName, text));
  if (shown.size === 0) return [];
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = [];
  const take = (e) => {
    if (e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && shown.has(e.text) && !wrapped(e)) out.push(e);
  };
  const visit = (n) => {
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(n.operatorToken.kind)) {
      take(n.left);
      take(n.right);
    } else if (ts.isCaseClause(n)) take(n.expression);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.map((node) => ({ start: node.getStart(sf), end: node.getEnd(), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf) }));
}
