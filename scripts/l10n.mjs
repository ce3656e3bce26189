// Localisable code (issue 26): wraps every user-facing literal at a sink (scripts/l10nScan.mjs) in
// l10n.t(…) from the strings owner (src/core/l10n.ts; src/shared/l10n.ts re-exports it, and files
// outside core import it from there), a template's ${…} becoming {0}, {1}…; then writes
// l10n/bundle.l10n.json, the English source of every l10n.t message (what a translation
// translates; package.json "l10n" points VS Code at the folder). Run by `npm run sync`;
// test/unit/house/l10n.test.ts fails on a new literal at a sink and on a stale bundle.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { L10N_ROOTS, messagesIn, scanSource, untranslatedComparisons } from './l10nScan.mjs';

const OWNERS = new Set(['src/core/l10n.ts', 'src/shared/l10n.ts']);
export const BUNDLE = 'l10n/bundle.l10n.json';

export function sourceFiles() {
  const files = [];
  const walk = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().forEach((n) => walk(join(p, n))) : p.endsWith('.ts') && !p.endsWith('.d.ts') && files.push(p));
  L10N_ROOTS.forEach(walk);
  return files.map((f) => f.split(sep).join('/')).filter((f) => !OWNERS.has(f));
}

const quote = (s) =>
  `'${s.replace(/[\\'\n\r\t\u0000-\u001f\u2028\u2029]/gu, (c) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;

/**
 * l10n.t(…) for one literal node, or undefined when it cannot be said as a message: text that reads
 * like an argument ({0}) would be taken for one. Other braces ({address}, {"token"…}) stay as they
 * are: l10n.t replaces only the arguments it is given.
 */
function wrap(text, sf, start) {
  const node = findNode(sf, start);
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return ARGUMENT.test(node.text) ? undefined : `l10n.t(${quote(node.text)})`;
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    if (parts.some((p) => ARGUMENT.test(p))) return undefined;
    const message = node.head.text + node.templateSpans.map((s, i) => `{${i}}${s.literal.text}`).join('');
    return `l10n.t(${quote(message)}, ${node.templateSpans.map((s) => s.expression.getText(sf)).join(', ')})`;
  }
  return undefined;
}

const ARGUMENT = /\{\d+\}/u;

function findNode(sf, start) {
  let hit;
  const visit = (n) => {
    if (hit) return;
    if (n.getStart(sf) === start && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n))) hit = n;
    else if (n.getStart(sf) <= start && start < n.getEnd()) ts.forEachChild(n, visit);
  };
  visit(sf);
  return hit;
}

/** One pass over a file: wraps the outermost literals; answers the new text and how many were left as they were. */
function wrapFile(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = scanSource(file, text).sort((a, b) => a.start - b.start);
  const outer = found.filter((f) => !found.some((g) => g !== f && g.start <= f.start && f.end <= g.end));
  let out = text;
  let left = 0;
  for (const f of [...outer].reverse()) {
    const w = wrap(f.text, sf, f.start);
    if (!w) {
      left++;
      continue;
    }
    out = out.slice(0, f.start) + w + out.slice(f.end);
  }
  if (out !== text && !/import \{[^}]*\bl10n\b[^}]*\} from '[^']*\/l10n'/u.test(out)) {
    const owner = file.startsWith('src/core/') ? 'src/core/l10n' : 'src/shared/l10n';
    let rel = relative(dirname(file), owner).split(sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    const imports = [...out.matchAll(/^import [^;]+;\n/gmu)];
    const at = imports.length ? (imports.at(-1).index ?? 0) + imports.at(-1)[0].length : 0;
    out = `${out.slice(0, at)}import { l10n } from '${rel}';\n${out.slice(at)}`;
  }
  return { text: out, left };
}

export function bundleText(files) {
  const bundle = {};
  for (const f of files) for (const m of messagesIn(f, readFileSync(f, 'utf8'))) bundle[m] = m;
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

export function localise() {
  const files = sourceFiles();
  let wrapped = 0;
  let left = 0;
  for (const f of files) {
    let text = readFileSync(f, 'utf8');
    for (let pass = 0; pass < 4; pass++) {
      const r = wrapFile(f, text);
      left = r.left;
      if (r.text === text) break;
      wrapped += scanSource(f, text).length - scanSource(f, r.text).length;
      text = r.text;
    }
    // A pick compared with a literal the file shows translated is compared with the translation.
    for (const c of untranslatedComparisons(f, text).reverse()) text = `${text.slice(0, c.start)}l10n.t(${c.text})${text.slice(c.end)}`;
    writeFileSync(f, text);
  }
  mkdirSync('l10n', { recursive: true });
  writeFileSync(BUNDLE, bundleText(files));
  const rest = files.flatMap((f) => scanSource(f, readFileSync(f, 'utf8')).map((s) => `${f}:${s.line} ${s.text.slice(0, 80)}`));
  console.log(`l10n: ${wrapped} strings wrapped in l10n.t; ${BUNDLE} written.${rest.length ? ` Left for a person (braces in the text):\n  ${rest.join('\n  ')}` : ''}`);
  return left;
}

// Run as a script (not when a test imports it).
if (/[\\/]l10n\.m?js$/u.test(process.argv[1] ?? '')) localise();
