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
import { StorageFamilies, StorageKeys } from '../../../src/core/storage';

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

/** Each file parsed once for all the checks here (a dozen scans of src/ were most of this file's CPU), again only if its text changed. */
const parsed = new Map<string, ts.SourceFile>();
function parse(f: string): ts.SourceFile {
  const text = readFileSync(f, 'utf8');
  const known = parsed.get(f);
  if (known?.text === text) return known;
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  parsed.set(f, sf);
  return sf;
}

/** Runs `look` over every node of every .ts file under dir; `look` returns what it saw at a node. */
function scan(dir: string, look: (n: ts.Node, sf: ts.SourceFile) => string | undefined, base = root): Finding[] {
  return tsFiles(dir).flatMap((f) => {
    const sf = parse(f);
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

// ---------------------------------------------------------------------------------------------
// 2. Cancellation is one type, and no error is recognised by its words.

/**
 * Files allowed to read an error's words, and why: each is the boundary with a library that says
 * what happened only in words, read once there and turned into our typed errors.
 * - proxy.ts: undici reports a proxy's refusal of CONNECT only as "Proxy response (407) !== 200
 *   when HTTP Tunneling"; the status is read from there (a NetworkError with a proxy code).
 * - unzip.ts: yauzl refuses an unsafe entry name only in its message; it becomes an UnzipError.
 * - httpFailures.ts (the transport's reading of a failure, split from http.ts): describeNetwork
 *   does not repeat a Node error code its message already names (what is shown, not what is decided).
 */
const TEXT_READERS = new Set(['src/core/transport/proxy.ts', 'src/core/results/unzip.ts', 'src/core/transport/httpFailures.ts']);

/** A name that holds a thrown value: e, err, error, reason, cause, …, or anything ending in Error/error. */
const ERROR_NAME = /^(?:e|err|error|ex|x|reason|cause|failure)$|Error$|error$/u;

const TEXT_METHODS = new Set(['includes', 'startsWith', 'endsWith', 'match', 'matchAll', 'indexOf', 'lastIndexOf', 'search']);

/** Whether an expression is an error's words: `e.message`, `err.stack`, `String(e)`, `errorText(e)`, or a name given one of those in this file. */
function isErrorWords(x: ts.Expression, sf: ts.SourceFile, named: ReadonlySet<string>): boolean {
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isNonNullExpression(x)) x = x.expression;
  if (ts.isPropertyAccessExpression(x) && (x.name.text === 'message' || x.name.text === 'stack')) {
    let r: ts.Expression = x.expression;
    while (ts.isParenthesizedExpression(r) || ts.isAsExpression(r) || ts.isNonNullExpression(r)) r = r.expression;
    const last = ts.isPropertyAccessExpression(r) ? r.name.text : r.getText(sf);
    return ERROR_NAME.test(last);
  }
  if (ts.isCallExpression(x) && ts.isIdentifier(x.expression) && (x.expression.text === 'errorText' || x.expression.text === 'String')) {
    const a = x.arguments[0];
    return a !== undefined && ts.isIdentifier(a) && ERROR_NAME.test(a.text);
  }
  return ts.isIdentifier(x) && named.has(x.text);
}

/** An error recognised by its words: a text method on them, a regex tested on them, or a comparison with a string. */
function textDetection(): (n: ts.Node, sf: ts.SourceFile) => string | undefined {
  let file: ts.SourceFile | undefined;
  let named = new Set<string>();
  return (n, sf) => {
    if (sf !== file) {
      // The names this file gives an error's words (const msg = errorText(e)), so reading them later counts too.
      file = sf;
      named = new Set<string>();
      const collect = (m: ts.Node): void => {
        if (ts.isVariableDeclaration(m) && ts.isIdentifier(m.name) && m.initializer && isErrorWords(m.initializer, sf, named)) named.add(m.name.text);
        ts.forEachChild(m, collect);
      };
      collect(sf);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const method = n.expression.name.text;
      if (TEXT_METHODS.has(method) && isErrorWords(n.expression.expression, sf, named)) return n.getText(sf);
      const arg = n.arguments[0];
      if ((method === 'test' || method === 'exec') && arg !== undefined && isErrorWords(arg, sf, named)) return n.getText(sf);
    }
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(n.operatorToken.kind)) {
      const [a, b] = [n.left, n.right];
      if ((ts.isStringLiteralLike(b) && isErrorWords(a, sf, named)) || (ts.isStringLiteralLike(a) && isErrorWords(b, sf, named))) return n.getText(sf);
    }
    return undefined;
  };
}

/** The ways a second cancellation type comes in: the platform's AbortError made by hand, or a controller aborted without our type. */
function secondCancellation(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isNewExpression(n) && n.expression.getText(sf) === 'DOMException') return n.getText(sf);
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'abort' && n.arguments.length === 0) return n.getText(sf);
  // It throws the signal's reason as it is: the platform's AbortError when aborted by someone else's code.
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'throwIfAborted') return n.getText(sf);
  if (ts.isClassDeclaration(n) && n.name && /Cancel|Abort/u.test(n.name.text) && n.name.text !== 'CancelledError') return `class ${n.name.text}`;
  return undefined;
}

describe('one cancellation type, recognised by type; no error recognised by its words', () => {
  it('no file reads an error’s message (or stack) to decide what it is (the boundaries with undici and yauzl excepted)', () => {
    assert.deepEqual(
      scan(src, textDetection()).filter((f) => !TEXT_READERS.has(fileOf(f))),
      [],
      'recognise it by type (core/errors.ts: isCancelled, the WalletApiError classes and their kind)',
    );
  });

  it('no second cancellation type: no DOMException made by hand, no controller aborted without a CancelledError, no throwIfAborted (throwIfCancelled), no other Cancel/Abort class', () => {
    assert.deepEqual(scan(src, secondCancellation), []);
  });

  it('the checks see words read and a second cancellation type, and pass over other text and types', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "const isAbort = (e: unknown): boolean => e instanceof Error && (e.name === 'AbortError' || /aborted|cancel/iu.test(e.message));",
          "if (err.message.includes('refused')) retry();",
          'const msg = errorText(x);',
          "if (msg.startsWith('Proxy')) no();",
          "if (error.message === 'Cancelled.') no();",
          "const label = issue.message.includes(field.label) ? issue.message : '';",
          "if (/x/u.test(name)) ok();",
          "const d = new DOMException('The operation was aborted', 'AbortError');",
          'controller.abort();',
          'controller.abort(new CancelledError());',
          'class AbortedError extends Error {}',
          'signal?.throwIfAborted();',
          'throwIfCancelled(signal);',
        ].join('\n'),
      },
      (n, sf) => textDetection()(n, sf) ?? secondCancellation(n, sf),
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1, f.indexOf(':', f.indexOf(':') + 1))),
      ['1', '2', '4', '5', '8', '9', '11', '12'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Storage keys: one typed map, one way in.

/** The owner of globalState and workspaceState, and of every key's name. */
const STORAGE_OWNER = 'src/core/storage.ts';
const KEYS: readonly string[] = Object.values(StorageKeys).map((k) => k.key);
const PREFIXES: readonly string[] = Object.values(StorageFamilies).map((f) => f.prefix);

/** A key spelt out (a string, or the start of a template, equal to a key or beginning with a family's prefix), or a state touched directly. */
function storageTouch(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isIdentifier(n) && (n.text === 'globalState' || n.text === 'workspaceState' || n.text === 'Memento')) return n.text;
  const text = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) ? n.text : undefined;
  if (text !== undefined && (KEYS.includes(text) || PREFIXES.some((p) => text.startsWith(p)))) return n.getText(sf);
  return undefined;
}

describe('one typed map of storage keys, read and written only through its owner', () => {
  it('no file outside src/core/storage.ts touches globalState, workspaceState or a Memento, or spells a storage key', () => {
    assert.deepEqual(
      scan(src, storageTouch).filter((f) => fileOf(f) !== STORAGE_OWNER),
      [],
      'read and write through Storage (src/core/storage.ts): StorageKeys / StorageFamilies, merged by MergedList or MergedRecord',
    );
  });

  it('the map names each key once, under the extension’s prefix, and no key falls inside a family', () => {
    const all = [...KEYS, ...PREFIXES];
    assert.deepEqual(all.filter((k, i) => all.indexOf(k) !== i), [], 'spelt twice');
    assert.deepEqual(all.filter((k) => !k.startsWith('walletAnalytics.')), []);
    assert.deepEqual(KEYS.filter((k) => PREFIXES.some((p) => k.startsWith(p))), []);
    assert.deepEqual(PREFIXES.filter((p) => PREFIXES.some((q) => q !== p && p.startsWith(q))), []);
  });

  it('the check sees a key spelt out, a family prefix in a template, and a state touched, and passes over settings and comments', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "// state.get('walletAnalytics.jobs')",
          "const a = state.get('walletAnalytics.jobs');",
          'const b = `walletAnalytics.recent.${ep.id}`;',
          "const c = 'walletAnalytics.table.layout.';",
          'const d = context.globalState;',
          'let e: vscode.Memento;',
          "const f = 'walletAnalytics.jobs.stalledAfterHours';",
          "const g = storage.get(StorageKeys.jobs);",
        ].join('\n'),
      },
      storageTouch,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ["2: 'walletAnalytics.jobs'", '3: `walletAnalytics.recent.${', "4: 'walletAnalytics.table.layout.'", '5: globalState', '6: Memento'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Asking the person: one owner puts every question on screen.

/** The owner of the window's questions: modal confirmations, picks whose Cancel comes first, boxes typed into. */
const QUESTIONS_OWNER = 'src/vscode/base/personQuestions.ts';

/** A string a node spells out: a literal, or the first argument of l10n.t. */
function spelt(n: ts.Node): string | undefined {
  if (ts.isStringLiteralLike(n)) return n.text;
  if (ts.isCallExpression(n) && n.expression.getText() === 'l10n.t' && n.arguments[0] !== undefined && ts.isStringLiteralLike(n.arguments[0])) return n.arguments[0].text;
  return undefined;
}

/**
 * A question made by hand: a dialog made modal, a pick's Cancel choice written out, an input box
 * shown. A box built piece by piece (createInputBox: a flow's step with Back, a search that filters
 * as it is typed) answers no question and is its flow's own.
 */
function question(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isPropertyAssignment(n) && n.name.getText(sf) === 'modal' && n.initializer.kind === ts.SyntaxKind.TrueKeyword) return n.getText(sf);
  if (ts.isPropertyAssignment(n) && n.name.getText(sf) === 'label' && /\bCancel\b/u.test(spelt(n.initializer) ?? '')) return n.getText(sf);
  if (ts.isPropertyAccessExpression(n) && n.name.text === 'showInputBox') return n.name.text;
  return undefined;
}

describe('one owner asks the person: modal confirmations, picks with Cancel first, boxes typed into', () => {
  it('no file outside src/vscode/base/personQuestions.ts makes a modal, writes a Cancel choice, or shows an input box', () => {
    assert.deepEqual(
      scan(src, question).filter((f) => fileOf(f) !== QUESTIONS_OWNER),
      [],
      'ask through askModal / pickCancelFirst (with cancelChoice) / askText (src/vscode/base/personQuestions.ts): the first button never spends or deletes there',
    );
  });

  it('the check sees a modal, a Cancel choice and an input box, and passes over other options, labels and comments', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "// vscode.window.showWarningMessage(m, { modal: true }, 'Delete')",
          "const a = await vscode.window.showWarningMessage(m, { modal: true, detail }, 'Delete');",
          "const b = [{ label: l10n.t('$(close) Cancel'), value: false }, { label: 'Run', value: true }];",
          "const c = await vscode.window.showInputBox({ prompt: 'Credits' });",
          "const d = { modal: false, label: l10n.t('Cancelled jobs'), detail: 'Cancel sends nothing.' };",
          "const e = await askModal(m, detail, ['Keep', 'Delete']);",
          "const f = { label: 'Cancel' };",
        ].join('\n'),
      },
      question,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ['2: modal: true', "3: label: l10n.t('$(close) Cancel')", '4: showInputBox', "7: label: 'Cancel'"],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 5. A call's outcome told as a feature's result: the watch's run, the pipeline's cell and the runner share its words.

/** The owner of the sentences a feature says of a call that brought no result. */
const OUTCOME_OWNER = 'src/core/calls/outcome.ts';
/** The hosts that tell a call's outcome: the window's features, and the command-line runner (its own teller in the owner). */
const OUTCOME_HOSTS = ['core', 'vscode', 'runner'].map((d) => join(src, d));

/** One of the owner's sentences spelt out: in a string, or as a piece of a template (`${errors} Nothing was sent.`). */
function outcomeSentence(n: ts.Node, sf: ts.SourceFile): string | undefined {
  const piece = ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) ? n.text : undefined;
  if (piece === undefined) return undefined;
  if (/Cancelled; nothing was sent|may have been charged: (?:see Request History|check the request history)|returned no result file|Nothing was sent\. Charged: |Do not retry unless the person asks/u.test(piece) || piece === ' Nothing was sent.') return n.getText(sf);
  return undefined;
}

describe('one owner tells what came of a call that brought no result (watch and pipeline)', () => {
  it('no file of src/core, src/vscode or src/runner outside src/core/calls/outcome.ts writes its sentences (use toldOutcome / noResultFile / mayHaveBeenCharged / refusedBeforeSending / declinedForAgent)', () => {
    assert.deepEqual(
      OUTCOME_HOSTS.flatMap((d) => scan(d, outcomeSentence)).filter((f) => fileOf(f) !== OUTCOME_OWNER),
      [],
    );
  });

  it('the check sees the sentences in strings and templates, and passes over comments and other words', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "// return { message: 'Cancelled; nothing was sent.' };",
          "const a = 'Cancelled; nothing was sent.';",
          "const b = `${out.errors.join(' ')} Nothing was sent.`;",
          "const c = `${out.message}${out.charged === 'unknown' ? ' (it may have been charged: see Request History)' : ''}`;",
          "const d = { message: 'The call returned no result file.' };",
          "const e = `${title} copied. Nothing was sent.`;",
          'const f = toldOutcome(out).message;',
          "const g = `${refusal} Nothing was sent. Charged: 0 credits.`;",
          "const h = `Charged: ${c} known, and ${names.join(', ')} may have been charged: check the request history (free) before running it again.`;",
          "const i = `Stopped. Charged: ${c} known, and ${mayHaveBeenCharged([id])}`;",
          "const j = `${title}: the person did not approve the price. Nothing was sent and nothing was charged. Do not retry unless the person asks.`;",
        ].join('\n'),
      },
      outcomeSentence,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1, f.indexOf(':', f.indexOf(':') + 1))),
      ['2', '3', '4', '5', '8', '9', '11'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Saving a comparison: the Compare command and a watch's run save it the one way.

/** The owner of a comparison's file: its name, its text, where it is saved (saveComparison). */
const COMPARISON_OWNER = 'src/core/table/compare/compareFile.ts';

/** A comparison's file made by hand: its text or name asked for, or its suffix or folder spelt out. */
function comparisonSave(n: ts.Node, sf: ts.SourceFile): string | undefined {
  // Called, not a property of that name (a watch's run keeps its comparePath).
  if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'compareFileText' || n.expression.text === 'comparePath')) return n.expression.text;
  const text = ts.isStringLiteralLike(n) || ts.isTemplateHead(n) ? n.text : undefined;
  if (text !== undefined && (text.includes('.compare.json') || text.startsWith('compares/'))) return n.getText(sf);
  return undefined;
}

describe('one owner saves a comparison', () => {
  it('no file outside src/core/table/compare/compareFile.ts makes a comparison file (use saveComparison)', () => {
    assert.deepEqual(
      scan(src, comparisonSave).filter((f) => fileOf(f) !== COMPARISON_OWNER),
      [],
    );
  });

  it('the check sees a comparison file made by hand, and passes over saveComparison and comments', () => {
    const found = scanFiles(
      {
        'a.ts': [
          '// compareFileText({ a, b }) in compares/',
          "const a = await replaceInside(folder, `compares/${path.basename(comparePath('.', fa, fb))}`, compareFileText({ a: fa, b: fb }));",
          "const b = join(folder, 'x.compare.json');",
          'const c = await saveComparison(folder, fa, fb);',
          'const d = run.comparePath ?? w.last.comparePath;',
        ].join('\n'),
      },
      comparisonSave,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ['2: `compares/${', '2: comparePath', '2: compareFileText', "3: 'x.compare.json'"],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Showing numbers and credits: one owner writes them.

/** The owner of numbers written for people: counts, credits, percentages, sizes. */
const NUMBERS_OWNER = 'src/core/numberText.ts';
/**
 * Where a number is turned into text that is not words for a person, and why:
 * - catalog.ts: a number given as an input, written back as the plain digits the API reads (no exponent, no grouping);
 * - pairRows.ts: the Δ column's exact decimal, a cell's value that is sorted, copied and exported;
 * - runner/junit.ts: a JUnit report's `time` attribute, seconds with three decimals as the format reads them;
 * - webview-ui/format.ts (Intl formats, not these calls) is the table's cell formats the person chooses.
 */
const NOT_WORDS = new Set(['src/core/spec/catalog.ts', 'src/core/table/compare/pairRows.ts', 'src/runner/junit.ts']);
/**
 * The hosts scanned: every one that writes for people, the command-line runner and the sandbox (the
 * service's stand-in, whose messages keep the server's English words but take their digits from the owner) included.
 */
const NUMBER_HOSTS = ['core', 'vscode', 'webview-ui', 'runner', 'sandbox'].map((d) => join(src, d));

/** A number written by hand: `toLocaleString` or `toFixed` called. */
function handMadeNumber(n: ts.Node): string | undefined {
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (n.expression.name.text === 'toLocaleString' || n.expression.name.text === 'toFixed')) return n.expression.name.text;
  return undefined;
}

describe('one owner writes numbers and credits for people', () => {
  it('no file of src/core, src/vscode, src/webview-ui, src/runner or src/sandbox outside src/core/numberText.ts calls toLocaleString or toFixed', () => {
    assert.deepEqual(
      NUMBER_HOSTS.flatMap((d) => scan(d, handMadeNumber)).filter((f) => fileOf(f) !== NUMBERS_OWNER && !NOT_WORDS.has(fileOf(f))),
      [],
      'write it with thousands / counted / fmtCredits / compactCredits / percent / fileSize / mebibytes / milliseconds (src/core/numberText.ts)',
    );
  });

  it('the check sees toLocaleString and toFixed called, and passes over the owner’s functions and comments', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "// n.toLocaleString('en-US')",
          "const a = `${n.toLocaleString('en-US')} rows`;",
          'const b = (share * 100).toFixed(2);',
          "const c = last?.total.toLocaleString('en-US') ?? '';",
          'const d = `${thousands(n)} rows, ${fmtCredits(c)}, ${percent(s)}`;',
        ].join('\n'),
      },
      handMadeNumber,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ['2: toLocaleString', '3: toFixed', '4: toLocaleString'],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 8. Identifiers: one family of owners spells every `walletAnalytics.` id.

/**
 * The ids family: the window's ids (commands, views, context keys, status bar items, diagnostics,
 * the table's editor), the core's (settings, the key's secret entries, the endpoint commands'
 * prefix), and the storage keys' own map. package.json, generated by npm run sync, is not scanned.
 */
const ID_OWNERS = new Set(['src/vscode/base/ids.ts', 'src/core/ids.ts', STORAGE_OWNER]);

/**
 * The extension's prefix: `walletAnalytics.x` (settings, commands, context keys) and `walletAnalyticsX`
 * (views, a file's mark). `wallet-analytics-…` is also the start of file names (the runner, icons), so
 * the notebook type, its controller and the result scheme are kept in base/ids.ts by hand.
 */
const ID_START = /^walletAnalytics[.A-Z]/u;

/** An id spelt out: a string or the start of a template that begins with one of the extension's prefixes. */
function idSpelt(n: ts.Node, sf: ts.SourceFile): string | undefined {
  const text = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) ? n.text : undefined;
  return text !== undefined && ID_START.test(text) ? n.getText(sf) : undefined;
}

describe('one family of owners spells the extension’s ids', () => {
  it('no file of src outside src/vscode/base/ids.ts, src/core/ids.ts and src/core/storage.ts spells a walletAnalytics. or walletAnalyticsX id', () => {
    assert.deepEqual(
      scan(src, idSpelt).filter((f) => !ID_OWNERS.has(fileOf(f))),
      [],
      'name it in src/vscode/base/ids.ts (CommandIds, ContextKeys, views, status bar, diagnostics) or src/core/ids.ts (SettingIds, API_KEY_SECRET, ENDPOINT_COMMAND_PREFIX)',
    );
  });

  it('the check sees an id in a string or a template’s start, and passes over comments, sentences that name a setting and the owners’ names', () => {
    const found = scanFiles(
      {
        'a.ts': [
          "// createStatusBarItem('walletAnalytics.credits')",
          "const a = vscode.window.createStatusBarItem('walletAnalytics.credits', 1);",
          'const b = `walletAnalytics.explorer.${chain}`;',
          "const c = l10n.t('Above your ceiling (walletAnalytics.maxCreditsPerCall: {0}).', n);",
          'const d = createStatusBarItem(StatusBarIds.credits);',
          "const e = ['walletAnalytics.baseUrl'];",
          "const f = 'walletAnalyticsWatches';",
          "const g = createNotebookController('wallet-analytics-pipeline-runner', type, label);",
          "const h = 'Wallet Analytics: wallet-analytics run';",
        ].join('\n'),
      },
      idSpelt,
    );
    assert.deepEqual(
      found.map((f) => f.slice(f.indexOf(':') + 1)),
      ["2: 'walletAnalytics.credits'", '3: `walletAnalytics.explorer.${', "6: 'walletAnalytics.baseUrl'", "7: 'walletAnalyticsWatches'"],
    );
  });
});
