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
 * `function` and `for (…)` written as text; the sleeps of a poll; and, since a second review
 * found Copy as Code's snippets still checking the answer and Open in Notebook's cells testing
 * for their file and converting columns after loading, any branch or error handling: Python's
 * `if …:`/`else:`, `try:`/`except`, `sys.exit`; bash's `if [`/`; then`; JavaScript's and
 * PowerShell's `if (`, `throw`, `try {`/`catch`. A string may declare one request (its method, URL,
 * headers, body) or one load (a file read with its types) in any language, straight through: that
 * is not a program. What happens on an error is then the library's own (requests'
 * raise_for_status, Invoke-RestMethod's exception, curl's --fail-with-body, pandas' message).
 *
 * No call is sent by another language either (the review's "what runs without the editor is built
 * from the core"): for every endpoint, paid or free, every Copy as Code language runs the runner's
 * command line, with --max-credits the price its comment shows, and holds no direct request
 * (`import requests`, `requests.`, `fetch(`, `Invoke-RestMethod`, `curl `). A free read was once
 * the one request in each language; it went when the runner came to print a free read's answer
 * on stdout. And src/ holds no `import requests` nor a `def main(` line at all: the same grep as
 * the project's before-stop check, so the test and the check cannot disagree.
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
import { ENDPOINTS } from '../../../src/core/spec/catalog';
import { sampleInput } from '../../../src/core/spec/samples';
import { isPaid } from '../../../src/core/money/pricing';
import { SNIPPET_LANGUAGES, describeCall, snippet } from '../../../src/core/codegen/snippets';

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
  // A branch: Python's `if …:`, `elif …:`, `else:` (lower case, the line ending in its colon); bash's `if [ … ]; then`.
  ['Python/bash if', /^\s*(if|elif)\s.*:\s*(#.*)?$|^\s*else\s*:\s*(#.*)?$|^\s*if\s+\[|;\s*then\s*$/u],
  // JavaScript's and PowerShell's `if (`, at a line's or a statement's start (not "…, if (any)," in a sentence).
  ['JavaScript/PowerShell if (…)', /(^|[;{}]|\belse)\s*if\s*\(/u],
  // Error handling written in the language: a throw, an exit, a try.
  ['a throw (JavaScript, PowerShell)', /(^|[;{)])\s*throw\b/u],
  ['an exit (sys.exit, process.exit, exit 1)', /\b(sys|process)\.exit\s*\(|^\s*exit\s+\d/u],
  ['a try (Python try:/except, JavaScript/PowerShell try { } catch)', /^\s*(try|finally)\s*:\s*$|^\s*except\b.*:\s*$|^\s*try\s*\{|\}\s*catch\b/u],
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

  it('no string in src/ holds a loop, a function, a poll, a branch or error handling in Python, bash, PowerShell or JavaScript (known exceptions named with why)', () => {
    const hits = tsFiles(join(root, 'src')).flatMap((f) => programLines(f, root));
    const unknown = hits.filter((h) => KNOWN[kindOf(h)] === undefined);
    assert.deepEqual(unknown, [], 'a program in another language is written in a string: build it from the core instead (the runner, src/runner/), or describe one request only');
    const stale = Object.keys(KNOWN).filter((k) => !hits.some((h) => kindOf(h) === k));
    assert.deepEqual(stale, [], 'an exception no longer needed: remove it from KNOWN');
  });

  it('the check itself finds a program written one line per literal, and passes one request, one load and English', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-one-language-'));
    try {
      const bad = join(dir, 'bad.ts');
      writeFileSync(bad, [
        "const py = ['def send(method, url):', '    return 1', 'while True:', '    time.sleep(5)', `for row in rows:`];",
        "const sh = `  while :; do\\n    sleep 5\\n  done\\n  until [ -n \"$url\" ]; do sleep 1; done`;",
        "const ps = 'function Get-It { }' + \"while ($true) { Start-Sleep -Seconds 5 }\";",
        'const js = `async function main() {\\n  for (;;) {}\\n}`;',
        "const branches = ['if r.status_code >= 300:', '    sys.exit(r.text)', 'if not os.path.exists(PATH):', 'try:', 'except ValueError:', 'if [ -z \"$k\" ]; then'];",
        "const throws = ['if (!KEY) throw new Error(\"Set WA_API_KEY\");', \"if (-not $env:WA_API_KEY) { throw 'Set it' }\", 'try { x() } catch (e) { }'];",
      ].join('\n'));
      const kinds = new Set(programLines(bad, dir).map((h) => h.split(': ')[1]));
      for (const [kind] of PROGRAM) assert.ok(kinds.has(kind), `${kind} is found`);
      const good = join(dir, 'good.ts');
      writeFileSync(good, [
        "const one = ['import requests', 'r = requests.request(\"POST\", BASE + \"/pnl\", headers={}, timeout=110)', 'r.raise_for_status()', 'print(r.json()[\"requestId\"])'];",
        "const ts = ['const res = await fetch(BASE + \"/pnl\", { method: \"POST\" });', 'console.log(res.status, await res.text());'];",
        "const load = ['df = pd.read_csv(PATH, dtype={\"n\": \"float64\"}, na_values={\"n\": [\"\"]}, keep_default_na=False)'];",
        "const english = ['Run it again if (and only if) the job failed.', 'If the call fails: look in the history.', 'It would throw away nothing; exit 0 means done.', 'else: a sentence', 'Try it: the function of a column'];",
        "const sh = `curl -sS --fail-with-body -X POST \"$base\"'/pnl'`;",
        "const words = 'Waiting for the job while it runs; for each row in the table, the function of a column';",
        "const more = ['while this window runs it', 'until the refresh at 14:00', 'done', typeof 'function'];",
      ].join('\n'));
      assert.deepEqual(programLines(good, dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no file of src/ holds `import requests` or a line starting `def main(` (the before-stop check’s grep)', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const hits = files(join(root, 'src')).flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      const rel = relative(root, f).replace(/\\/gu, '/');
      return [/import requests/u, /^def main\(/mu].filter((re) => re.test(text)).map((re) => `${rel}: ${re.source}`);
    });
    assert.deepEqual(hits, [], 'a program of another language is held in src/');
  });

  describe('Copy as Code: every call, paid or free, runs the runner in every language; none is a request of its own', () => {
    const runner = { file: '/opt/wallet analytics/dist/cli.js' };
    /** What sends a request itself, in any of the languages. */
    const DIRECT = /import requests|requests\.|fetch\(|Invoke-RestMethod|\bcurl /u;
    /** The runner started, in each language's own form, and the --max-credits it is given. */
    const INVOKE: Record<string, readonly [RegExp, RegExp]> = {
      runner: [/^node '\/opt\/wallet analytics\/dist\/cli\.js' call /mu, / --max-credits (\d+) /u],
      python: [/^subprocess\.run\(\["node", "\/opt\/wallet analytics\/dist\/cli\.js", "call", /mu, /"--max-credits", "(\d+)"/u],
      typescript: [/^const r = spawnSync\(process\.execPath, \["\/opt\/wallet analytics\/dist\/cli\.js", "call", /mu, /"--max-credits", "(\d+)"/u],
      powershell: [/^& node '\/opt\/wallet analytics\/dist\/cli\.js' 'call' /mu, /'--max-credits' '(\d+)'/u],
    };

    for (const ep of ENDPOINTS) {
      it(`${ep.id} (${isPaid(ep) ? 'paid' : 'free'})`, () => {
        const d = describeCall(ep, sampleInput(ep), 'https://api.example.com');
        assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
        const price = d.call.price;
        // The most the call may charge, as its comment shows it: the exact price, or its bound.
        const shown = price.exact ? price.credits : (price.atMost ?? price.credits);
        for (const { id } of SNIPPET_LANGUAGES) {
          const text = snippet(id, d.call, runner);
          const invoke = INVOKE[id];
          assert.ok(invoke, `${ep.id} ${id}: a language that does not run the runner`);
          assert.doesNotMatch(text, DIRECT, `${ep.id} ${id}: a call is sent by another language:\n${text}`);
          assert.match(text, invoke[0], `${ep.id} ${id}: the runner is not run:\n${text}`);
          assert.ok(text.includes(ep.id), `${ep.id} ${id}`);
          const max = invoke[1].exec(text)?.[1];
          assert.equal(max, String(shown), `${ep.id} ${id}: --max-credits is the price shown`);
          assert.ok(text.includes(`Price: ${isPaid(ep) ? price.text : 'free'}.`), `${ep.id} ${id}: the price is shown first`);
          if (price.exact && isPaid(ep)) assert.match(price.text, new RegExp(`^${shown.toLocaleString('en-US')} credits?\\b`, 'u'), `${ep.id}: ${price.text}`);
        }
      });
    }
  });
});
