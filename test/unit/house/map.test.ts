/**
 * The map held by a test (issue 31): CONTRIBUTING's Layout is the only map of the code, so it
 * names every folder of src/core and src/vscode; every repo path the docs cite exists (a doc that
 * points at a missing file sends a newcomer nowhere); and no two folders of src/core or of
 * src/vscode import each other, directly or round a loop, so each folder is a room above or
 * below the others and a newcomer can read them in order.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

/** Every folder under dir (relative to dir, with a trailing slash), depth first. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${e.name}/`, ...folders(join(dir, e.name)).map((f) => `${e.name}/${f}`)]);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The docs a newcomer reads: README.md, CONTRIBUTING.md and docs/*.md. */
function docs(): string[] {
  return ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

/**
 * The repo paths a text cites: words starting with one of the repo's source folders (src/, test/,
 * scripts/, bench/, docs/, media/, l10n/, .ci/), trailing punctuation dropped. A pattern or a
 * placeholder (`*`, `<name>`, `…`) is not a path; out/, dist/ and test-results/ are build output.
 */
function citedPaths(text: string): string[] {
  const found = [...text.matchAll(/(?<![\w./@-])((?:src|test|scripts|bench|docs|media|l10n|\.ci)\/[\w./*<>…-]*)/gu)].map((m) => (m[1] ?? '').replace(/[.,:;]+$/u, ''));
  return [...new Set(found.filter((p) => !/[*<>…]/u.test(p)))];
}

/**
 * The Layout section's code block of CONTRIBUTING.md, as floor → the folder names under it: a line
 * at the left margin opens a floor (`src/core/`), an indented line names folders of it
 * (`  results/`, `  jobs/ history/`, `  table/compare/`).
 */
function layoutFolders(contributing: string): Map<string, Set<string>> {
  const section = /^## Layout\n([\s\S]*?)(?=^## )/mu.exec(contributing)?.[1] ?? '';
  const block = /```\n([\s\S]*?)```/u.exec(section)?.[1] ?? '';
  const out = new Map<string, Set<string>>();
  let floor: Set<string> | undefined;
  for (const line of block.split('\n')) {
    const head = /^(\S+\/)\s/u.exec(`${line} `);
    if (head?.[1]) {
      floor = new Set();
      out.set(head[1], floor);
      continue;
    }
    // The names of an indented line: its words up to the description (two spaces or more).
    const names = /^\s+(\S+\/(?: \S+\/)*)(?:\s{2,}|$)/u.exec(line)?.[1];
    for (const n of names?.split(' ') ?? []) floor?.add(n);
  }
  return out;
}

/** The .ts file a relative specifier names (./x, ./x.js, ./dir), or undefined. */
function resolveRelative(from: string, spec: string): string | undefined {
  const p = resolve(dirname(from), spec);
  return [p, `${p}.ts`, p.replace(/\.js$/u, '.ts'), join(p, 'index.ts')].find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/**
 * The folders of dir that import each other round a loop, each loop as its folders sorted and
 * joined by " ↔ " (each file at dir's top is a room of its own, named without .ts); every import that closes the
 * loop is listed after it, so the message says which file to move.
 */
function folderLoops(dir: string): string[] {
  const room = (f: string): string => relative(dir, f).split(sep)[0]?.replace(/\.ts$/u, '') ?? '.';
  const roomOf = (f: string): string => room(f);
  const edges = new Map<string, Map<string, string[]>>();
  for (const f of tsFiles(dir)) {
    for (const spec of ts.preProcessFile(readFileSync(f, 'utf8'), true, true).importedFiles.map((x) => x.fileName)) {
      const to = spec.startsWith('.') ? resolveRelative(f, spec) : undefined;
      if (!to || relative(dir, to).startsWith('..')) continue;
      const [a, b] = [roomOf(f), roomOf(to)];
      if (a === b) continue;
      const out = edges.get(a) ?? new Map<string, string[]>();
      edges.set(a, out.set(b, [...(out.get(b) ?? []), `${relative(dir, f)} → ${relative(dir, to)}`]));
    }
  }
  // The rooms each room reaches; two rooms in one loop reach each other.
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    for (const queue = [from]; queue.length > 0; ) {
      for (const n of edges.get(queue.shift() as string)?.keys() ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        queue.push(n);
      }
    }
    return seen;
  };
  const reached = new Map([...edges.keys()].map((r) => [r, reach(r)]));
  const loops = new Map<string, string[]>();
  for (const [a, out] of edges) {
    for (const [b, imports] of out) {
      if (!reached.get(b)?.has(a)) continue;
      const members = [...edges.keys()].filter((r) => reached.get(r)?.has(a) && reached.get(a)?.has(r)).sort();
      const key = members.join(' ↔ ');
      loops.set(key, [...(loops.get(key) ?? []), ...imports]);
    }
  }
  return [...loops].map(([k, imports]) => `${k}: ${imports.sort().join('; ')}`).sort();
}

/**
 * The files the "Where does X live" section names, row by row: a full path (`src/core/table/csvIndexer.ts`)
 * as written, a bare name (`rowScanner.ts`) in the folder of the path (a file's, or a folder's) the row cited last before it,
 * so "`src/core/table/remoteTable.ts` → `workerTable.ts`" names src/core/table/workerTable.ts.
 */
function whereFiles(contributing: string): { row: string; file: string }[] {
  const section = /^## Where does X live\n([\s\S]*?)(?=^## )/mu.exec(contributing)?.[1] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .flatMap((row) => {
      let folder: string | undefined;
      const out: { row: string; file: string }[] = [];
      for (const m of row.matchAll(/`([\w./-]+(?:\.ts|\/))`/gu)) {
        const name = m[1] ?? '';
        if (name.endsWith('/')) {
          folder = name.slice(0, -1);
          continue;
        }
        if (name.includes('/')) folder = dirname(name);
        out.push({ row: row.split('|')[1]?.trim() ?? '', file: name.includes('/') ? name : `${folder ?? '?'}/${name}` });
      }
      return out;
    });
}

/** The ten behaviours issue 31 followed end to end: each has a row naming the file to open first. */
const BEHAVIOURS = ['The price before a call', 'The key', 'A 404 job', 'A CSV being indexed', 'A sort from click to worker and back', 'A query completion', 'Open in Notebook', "A pipeline's Run All", "A watch's run", 'A budget refusal'];

/**
 * The loops between folders the regrouping of issue 31 ends (its codemod empties this list when it
 * moves the files): each entry is a loop's folders as folderLoops names them. A new loop fails.
 */
const LOOPS_LEFT: Record<string, readonly string[]> = {
  'src/core': [],
  'src/vscode': [],
};

describe('the map: CONTRIBUTING, the docs and the folders agree', () => {
  it('every repo path README.md, CONTRIBUTING.md and docs/ cite exists', () => {
    const missing = docs().flatMap((d) => citedPaths(readFileSync(join(root, d), 'utf8')).filter((p) => !existsSync(join(root, p))).map((p) => `${d}: ${p}`));
    assert.deepEqual(missing, [], 'a doc cites a path that is not in the repository: fix the path, or add the file');
  });

  it('"Where does X live" has a row for each of the ten behaviours, and every file it names exists', () => {
    const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const named = whereFiles(text);
    assert.deepEqual(BEHAVIOURS.filter((b) => !named.some((n) => n.row === b)), [], 'give the behaviour its row: the file to open first, then where it leads');
    assert.deepEqual(
      named.filter((n) => !existsSync(join(root, n.file))).map((n) => `${n.row}: ${n.file}`),
      [],
      'a bare name is read in the folder of the path cited before it in its row: write the full path when it is in another folder',
    );
  });

  it('every folder of src/core and src/vscode is named in CONTRIBUTING’s Layout, under its floor', () => {
    const layout = layoutFolders(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
    const unnamed = ['src/core', 'src/vscode'].flatMap((floor) => folders(join(root, floor)).filter((f) => !layout.get(`${floor}/`)?.has(f)).map((f) => `${floor}/${f}`));
    assert.deepEqual(unnamed, [], 'name the folder in the Layout block of CONTRIBUTING.md, with what it holds');
  });

  for (const floor of ['src/core', 'src/vscode']) {
    it(`no two folders of ${floor} import each other, directly or round a loop`, () => {
      const loops = folderLoops(join(root, floor)).filter((l) => !(LOOPS_LEFT[floor] ?? []).includes(l.split(':')[0] ?? ''));
      assert.deepEqual(loops, [], 'move the file that closes the loop into the room it belongs to, or the piece both need into a room below both');
    });
  }

  it('the checks themselves find a cited path, a Layout folder and a loop', () => {
    assert.deepEqual(citedPaths('See `src/core/a.ts`, [b](docs/b.md). Not `out/x.js`, `test/unit/<name>.test.ts` or src/*.ts.'), ['src/core/a.ts', 'docs/b.md']);
    const layout = layoutFolders('## Layout\n\n```\nsrc/core/     pure\n  results/         what a result is\n  jobs/ history/   jobs\n  table/compare/   two results\nsrc/vscode/   host\n  results/   opening\n```\n\n## Next\n');
    assert.deepEqual([...(layout.get('src/core/') ?? [])], ['results/', 'jobs/', 'history/', 'table/compare/']);
    assert.deepEqual([...(layout.get('src/vscode/') ?? [])], ['results/']);
    const where = whereFiles('## Where does X live\n\n| A sort | `src/vscode/table/dataHandlers.ts` | `src/core/table/remoteTable.ts` → `workerTable.ts`, `x.ts` |\n| A key | `apiKey.ts` |\n| Results | `src/core/results/` (`names.ts`) |\n\n## Next\n');
    assert.deepEqual(where, [
      { row: 'A sort', file: 'src/vscode/table/dataHandlers.ts' },
      { row: 'A sort', file: 'src/core/table/remoteTable.ts' },
      { row: 'A sort', file: 'src/core/table/workerTable.ts' },
      { row: 'A sort', file: 'src/core/table/x.ts' },
      { row: 'A key', file: '?/apiKey.ts' },
      { row: 'Results', file: 'src/core/results/names.ts' },
    ]);
    const tmp = mkdtempSync(join(tmpdir(), 'wa-map-'));
    try {
      const files: Record<string, string> = {
        'ground.ts': 'export const g = 1;\n',
        'a/one.ts': "import { g } from '../ground';\nimport { t } from '../b/two';\nexport const o = g + t;\n",
        'b/two.ts': "import type { O } from '../c/three';\nexport const t: O = 2;\n",
        'c/three.ts': "import { o } from '../a/one';\nexport type O = number;\nexport const h = o;\n",
        'd/four.ts': "import { g } from '../ground';\nexport const f = g;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(tmp, name)), { recursive: true });
        writeFileSync(join(tmp, name), text);
      }
      assert.deepEqual(folderLoops(tmp), [`a ↔ b ↔ c: ${['a/one.ts → b/two.ts', 'b/two.ts → c/three.ts', 'c/three.ts → a/one.ts'].join('; ')}`]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
