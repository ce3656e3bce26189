// Where a string a person reads is written in the extension's code (issue 26: localisable): the one
// list of those places ("sinks"), used by scripts/l10n.mjs (which wraps them in l10n.t and writes
// l10n/bundle.l10n.json) and by test/unit/house/l10n.test.ts (which fails on a new literal at a sink).
// Sinks: the arguments of show{Information,Warning,Error}Message and of the error owner's showError,
// showErrorIn and showWarning (src/vscode/base/errors.ts), and the `detail` of their options;
// an object literal's label, description, detail, placeHolder, placeholder, prompt, title, tooltip
// or validationMessage, an `aria-label` attribute, or the `text` of a webview element (dom.ts el()); the label of button(…); an assignment to .textContent, .title, .placeholder, .tooltip,
// .description, .label or .ariaLabel; setAttribute('aria-label' | 'title' | 'placeholder', …); and
// `new TreeItem(label)`. A literal counts when it holds a letter and is not a codicon (`$(key)`).
// Data never passes through these (a cell's text is an expression, not a literal), so nothing the
// file holds is translated.
//
// In src/core (messages made in the core reach a person through the vscode layer: a typed error's
// message, an input check, a price, a plan, a watch's summary), the sinks are where a message is
// made, and a literal counts when it reads as words (a space, or a sentence's last mark; for a
// property or a return, one capitalised word such as 'Free' too):
//   - every argument of `new …Error(…)` (Error, RangeError, the typed errors of core/errors.ts…,
//     thrown or handed on) and of `super(…)` in a class extending …Error;
//   - the value of a property named message, detail, refusal, reason, problem, problems, hint,
//     text or short, written inside a function (a module-level table is made at load, before any
//     bundle arrives: the catalog's titles, labels, descriptions and field rules are load-time data,
//     left English here, STATIC_DATA below names them), and not under a property
//     named spec (a cross-field rule's spec is the exported pipeline script's own English);
//   - what a function returns when its name says it makes words: it ends in Words, Text, Message,
//     Problem(s), Hint, Reason, Summary or Phrase, or starts with describe or validate (an unnamed
//     function passed as an argument answers for the function it is written in).
// Inside a sink the search goes on through ?:, +, ??, ||, parentheses, object and array literals,
// call arguments and a template's ${…} (also the arguments after the message of an l10n.t), into
// the `const` of the same function an identifier names (`detail: short`), and a module-level
// constant of words named there counts too (it must become a function: made at load, it would stay
// English). Code a script or file holds (snippets, workflows), wire names, ids,
// setting keys and log lines are none of these: log lines stay English (the Output channel is read
// when reporting a problem); error messages are wrapped even when they name a programming error,
// since any of them may reach errorText and a message box.
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
const isL10nCall = (n) => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 't' && /\bl10n$/u.test(n.expression.expression.getText());

/** Is this node the message of an l10n.t(…)? */
function wrapped(node) {
  const p = node.parent;
  return p && isL10nCall(p) && p.arguments[0] === node;
}

/** Every user-facing literal at a sink in one source text: [{ node, line, text }] (core's rules for a file of src/core). */
export function scanSource(fileName, text) {
  if (isCore(fileName)) return scanCore(fileName, text);
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

/** The files whose strings a person reads: the core's messages, the extension host's UI and the webviews. */
export const L10N_ROOTS = ['src/core', 'src/vscode', 'src/webview-ui', 'src/extension.ts'];

/** Every message passed to l10n.t(…) as a literal (the English bundle's keys), in order of appearance. */
export function messagesIn(fileName, text) {
  // A call of l10n.t names l10n: a file that never does holds none, and is not parsed for it.
  return text.includes('l10n') ? messagesOf(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)) : [];
}

/** messagesIn on a parsed file. */
function messagesOf(sf) {
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
  if (!text.includes('l10n')) return [];
  // Parsed once for both: what the file shows, then its comparisons.
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const shown = new Set(messagesOf(sf));
  if (shown.size === 0) return [];
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

// ---- src/core (head comment) ----

const isCore = (fileName) => /(^|\/)src\/core\//u.test(fileName.split('\\').join('/'));
const CORE_PROPS = new Set(['message', 'detail', 'refusal', 'reason', 'problem', 'problems', 'hint', 'text', 'short']);
/**
 * Module-level constants of words that are no message made here: the catalog's field rules
 * (load-time data: zod schemas are built at load) and HTTP's reason phrases (the protocol's own
 * words, as a status line says them).
 */
const STATIC_DATA = new Set(['TOKEN_WINDOWS_RULE', 'COLUMNS_RULE', 'STATUS_TEXT']);
const WORDS_FUNCTION = /(Words|Text|Message|Problems?|Hint|Reason|Summary|Phrase)$|^(describe|validate)/u;
/** A literal's text, a template's ${…} read as 0 (so `at ${time}` reads as words, `${a} ${b}` does not). */
const textOf = (e) => (ts.isTemplateExpression(e) ? e.head.text + e.templateSpans.map((s) => `0${s.literal.text}`).join('') : e.text);
/** Reads as words: a space between letters, or a sentence's last mark; `word` also takes one capitalised word. */
const isWords = (s, word) => isText(s) && !s.includes('\u0000') && (/\p{L}\S*\s+\S/u.test(s) || /\p{L}[.!?…:]$/u.test(s) || (word && /^\p{Lu}\p{Ll}+$/u.test(s)));

/** Is n inside the value of a property named `spec` (the data a pipeline script is exported from: the script's own English)? */
function inSpec(n) {
  for (let p = n.parent; p; p = p.parent) if (ts.isPropertyAssignment(p) && nameOf(p.name) === 'spec') return true;
  return false;
}

/** Is n inside a function (so made when called, not at load)? */
function inFunction(n) {
  for (let p = n.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return true;
  return false;
}

/** A function's name; an unnamed one passed as an argument (`issues.map((i) => …)`) answers for the function it is written in. */
function functionName(f) {
  if (f.name) return f.name.getText();
  if (f.parent && (ts.isVariableDeclaration(f.parent) || ts.isPropertyAssignment(f.parent))) return f.parent.name.getText();
  if (f.parent && ts.isCallExpression(f.parent)) for (let p = f.parent.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return functionName(p);
  return undefined;
}

/** The literals of words inside a sink expression (head comment), and the module-level constants of words it names. */
function wordsIn(e, word, consts, out) {
  if (!e) return;
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) return wordsIn(e.expression, word, consts, out);
  if (ts.isConditionalExpression(e)) return [e.whenTrue, e.whenFalse].forEach((x) => wordsIn(x, word, consts, out));
  if (ts.isBinaryExpression(e) && [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(e.operatorToken.kind)) {
    return [e.left, e.right].forEach((x) => wordsIn(x, word, consts, out));
  }
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e)) {
    if (isWords(textOf(e), word) && !wrapped(e)) out.push(e);
    if (ts.isTemplateExpression(e)) e.templateSpans.forEach((s) => wordsIn(s.expression, word, consts, out));
    return;
  }
  if (ts.isObjectLiteralExpression(e)) return e.properties.forEach((p) => ts.isPropertyAssignment(p) && wordsIn(p.initializer, word, consts, out));
  if (ts.isArrayLiteralExpression(e)) return e.elements.forEach((x) => wordsIn(x, word, consts, out));
  if (ts.isCallExpression(e)) return (isL10nCall(e) ? e.arguments.slice(1) : e.arguments).forEach((x) => wordsIn(x, word, consts, out));
  if (ts.isIdentifier(e)) {
    const local = localConstant(e);
    if (local) return wordsIn(local, word, consts, out);
  }
  const name = ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? e.expression.getText() : undefined;
  const c = name === undefined ? undefined : consts.get(name);
  if (c) out.push(...c);
}

/** The initializer of the `const` of the enclosing function that an identifier names (`detail: short`), once per search. */
const followed = new WeakSet();
function localConstant(id) {
  for (let f = id.parent; f; f = f.parent) {
    if (!ts.isFunctionLike(f)) continue;
    let hit;
    const look = (n) => {
      if (hit || (n !== f && ts.isFunctionLike(n))) return;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === id.text && n.initializer && ts.isVariableDeclarationList(n.parent) && n.parent.flags & ts.NodeFlags.Const) hit = n.initializer;
      else ts.forEachChild(n, look);
    };
    ts.forEachChild(f, look);
    if (hit && !followed.has(hit)) {
      followed.add(hit);
      return hit;
    }
    if (hit) return undefined;
  }
  return undefined;
}

/** Module-level `const X = <words>` (or an object or array of words): X named in a sink is English made at load. */
function moduleConstants(sf) {
  const consts = new Map();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) continue;
      const init = ts.isAsExpression(d.initializer) ? d.initializer.expression : d.initializer;
      const found = [];
      if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init) || ts.isTemplateExpression(init)) {
        if (isWords(textOf(init), false)) found.push(init);
      } else if (ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init)) {
        const items = ts.isObjectLiteralExpression(init) ? init.properties.map((p) => (ts.isPropertyAssignment(p) ? p.initializer : undefined)) : init.elements;
        for (const x of items) if (x && (ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x) || ts.isTemplateExpression(x)) && isWords(textOf(x), false)) found.push(x);
      }
      if (found.length && !STATIC_DATA.has(d.name.text)) consts.set(d.name.text, found);
    }
  }
  return consts;
}

function scanCore(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const consts = moduleConstants(sf);
  const found = [];
  const add = (exprs, word) => exprs.forEach((e) => wordsIn(e, word, consts, found));
  const visit = (n) => {
    if (ts.isNewExpression(n) && /Error$/u.test(n.expression.getText(sf))) add(n.arguments ?? [], false);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) {
      let c = n.parent;
      while (c && !ts.isClassLike(c)) c = c.parent;
      if (c?.heritageClauses?.some((h) => h.types.some((t) => /Error$/u.test(t.expression.getText(sf))))) add(n.arguments, false);
    } else if ((ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) && CORE_PROPS.has(nameOf(n.name) ?? '') && ts.isObjectLiteralExpression(n.parent) && inFunction(n) && !inSpec(n)) {
      add([ts.isPropertyAssignment(n) ? n.initializer : n.name], true);
    }
    else if (ts.isReturnStatement(n) || (n.parent && ts.isArrowFunction(n.parent) && n.parent.body === n && !ts.isBlock(n))) {
      let f = n.parent;
      while (f && !ts.isFunctionLike(f)) f = f.parent;
      const name = f && functionName(f);
      if (name && WORDS_FUNCTION.test(name)) add([ts.isReturnStatement(n) ? n.expression : n], true);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return [...new Set(found)].sort((a, b) => a.getStart(sf) - b.getStart(sf)).map((node) => ({ node, start: node.getStart(sf), end: node.getEnd(), line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.getText(sf) }));
}
