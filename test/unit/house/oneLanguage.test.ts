/**
 * What runs without the editor (a schedule, an agent, a script a person copied) is built from the
 * core, never written again in another language (architecture.md, "One core, several hosts"). A
 * review found src/ still holding programs in strings: Copy as Code wrote Python, bash, PowerShell
 * and TypeScript clients with their own poll loop and download, a second money path with no price
 * gate and no reconciliation (the exported Python runtime of issue 32 had been the first).
 *
 * This reads every string and template literal of src/ (through the TypeScript parser, so a
 * program built one line per literal is seen line by line) and fails on the shapes of a program's
 * control flow in another language: Python's `def`, `while`, `for … in`; bash's `while`/`until`
 * loops, `; do`, `function`; PowerShell's `function`, `while`, `foreach`; JavaScript's
 * `function` and `for (…)` written as text; and the sleeps of a poll. A snippet may describe one
 * request (its method, URL, headers, body) in any language: that is not a program.
 *
 * KNOWN names each exception with why; it may only shrink. It is empty: the last one, Open in
 * Notebook's Python that re-did the table's sort, filter and JSON reading, went when the notebook
 * came to load the view the table engine exports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return /\.tsx?$/u.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A line of another language's control flow, each with the language it is read as. */
const PROGRAM: readonly (readonly [string, RegExp])[] = [
  ['Python def', /^\s*(async\s+)?def\s+\w+\s*\(/u],
  // A loop's head, not the English word: `while True:`, `while :; do`, `while ($true) {`, `while [ … ]`.
  ['Python/bash/PowerShell while', /^\s*while\s*(\(|\[|:|True\b)|^\s*while\b.*:\s*$/u],
  ['bash until', /^\s*until\s*(\[|\(|!)|^\s*until\b.*;\s*do\b/u],
  ['bash … ; do', /;\s*do\s*$/u],
  ['Python/bash for … in', /^\s*for\s+[\w$]+(\s*,\s*[\w$]+)*\s+in\b/u],
  ['JavaScript/PowerShell for (…)', /^\s*(for|foreach)\s*\(/iu],
  ['a function (bash, PowerShell, JavaScript)', /^\s*(export\s+)?(async\s+)?function\s+[\w$-]+/iu],
  ['a poll’s sleep', /\b(time\.sleep|Start-Sleep|setTimeout)\s*\(?|^\s*sleep\s+\d/u],
];

/**
 * The exceptions, each with why. A key is "file: the kind", so a new kind of program in a listed
 * file still fails.
 */
const KNOWN: Readonly<Record<string, string>> = {};

/** Every line of every string in a source file that reads as another language's control flow: "file: kind: line". */
function programLines(file: string, root: string): string[] {
  const text = readFileSync(file, 'utf8');
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = relative(root, file).replace(/\\/gu, '/');
  const out: string[] = [];
  const check = (s: string): void => {
    for (const line of s.split('\n')) {
      for (const [kind, re] of PROGRAM) if (re.test(line)) out.push(`${rel}: ${kind}: ${line.trim()}`);
    }
  };
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) check(n.text);
    else if (ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) check(n.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

const kindOf = (hit: string): string => hit.split(': ').slice(0, 2).join(': ');

describe('one language: no program of another language in a string of src/', () => {
  const root = repoRoot();

  it('no string in src/ holds a loop, a function or a poll in Python, bash, PowerShell or JavaScript (known exceptions named with why)', () => {
    const hits = tsFiles(join(root, 'src')).flatMap((f) => programLines(f, root));
    const unknown = hits.filter((h) => KNOWN[kindOf(h)] === undefined);
    assert.deepEqual(unknown, [], 'a program in another language is written in a string: build it from the core instead (the runner, src/runner/), or describe one request only');
    const stale = Object.keys(KNOWN).filter((k) => !hits.some((h) => kindOf(h) === k));
    assert.deepEqual(stale, [], 'an exception no longer needed: remove it from KNOWN');
  });

  it('the check itself finds a program written one line per literal, and passes one request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-one-language-'));
    try {
      const bad = join(dir, 'bad.ts');
      writeFileSync(bad, [
        "const py = ['def send(method, url):', '    return 1', 'while True:', '    time.sleep(5)', `for row in rows:`];",
        "const sh = `  while :; do\\n    sleep 5\\n  done\\n  until [ -n \"$url\" ]; do sleep 1; done`;",
        "const ps = 'function Get-It { }' + \"while ($true) { Start-Sleep -Seconds 5 }\";",
        'const js = `async function main() {\\n  for (;;) {}\\n}`;',
      ].join('\n'));
      const kinds = new Set(programLines(bad, dir).map((h) => h.split(': ')[1]));
      for (const [kind] of PROGRAM) assert.ok(kinds.has(kind), `${kind} is found`);
      const good = join(dir, 'good.ts');
      writeFileSync(good, [
        "const one = ['import requests', 'r = requests.request(\"POST\", BASE + \"/pnl\", headers={}, timeout=110)', 'if r.status_code >= 300:', '    sys.exit(r.text)', 'print(r.json()[\"requestId\"])'];",
        "const sh = `curl -sS --fail-with-body -X POST \"$base\"'/pnl'`;",
        "const words = 'Waiting for the job while it runs; for each row in the table, the function of a column';",
        "const more = ['while this window runs it', 'until the refresh at 14:00', 'done', typeof 'function'];",
      ].join('\n'));
      assert.deepEqual(programLines(good, dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
