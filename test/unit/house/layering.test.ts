/**
 * The floors of src/, as rules. Each folder of src/ is a floor; a file may import only the floors
 * its row names (relative imports, type-only ones included), so the direction of every dependency
 * is checked, not remembered. Lower floors first:
 *
 *   floor        may import                         vscode  node built-ins (itself or through what it imports)
 *   core         core                               no      yes
 *   shared       shared, core                       no      no   (both bundles import it: the webview's runs in a browser)
 *   sandbox      sandbox, core                      no      yes
 *   webview-ui   webview-ui, shared, core           no      no   (browser bundle)
 *   runner       runner, core                       no      yes  (the command-line host: core's flow, never the window's)
 *   vscode       vscode, shared, core, sandbox      yes     yes
 *   extension.ts vscode, shared, core, sandbox      yes     yes
 *
 * core never imports shared: what both need (the analysis types, a layout's number formats) lives
 * in core and shared re-exports it, so shared never imports core code that imports shared back.
 * And no import cycle anywhere in src/: a cycle is a floor that has not been drawn (the piece both
 * files need moves down, into its own file). Inside src/vscode, base/ is the floor every feature
 * stands on, and commands/ are leaves. The vscode module is reached only by the vscode floor and
 * activate(); the check follows imports transitively, so core reaching a vscode/ file is caught too.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    try {
      if (statSync(join(d, 'package.json')).isFile()) return d;
    } catch {
      // keep looking
    }
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The .ts file a relative specifier names (./x, ./x.js, ./dir), or undefined. */
function resolveRelative(from: string, spec: string): string | undefined {
  const p = resolve(dirname(from), spec);
  const candidates = [p, `${p}.ts`, p.replace(/\.js$/, '.ts'), join(p, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/** Every module specifier a file names: import/export from, import type, import(), require(). */
function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/**
 * For each .ts file under dir, the chain of relative imports by which it reaches a file that
 * imports `vscode` (type-only imports included), or nothing. A TypeScript scan, so comments and
 * strings do not count, and importing src/vscode/* from core is caught through its own `vscode` import.
 */
function vscodeChains(dir: string, base: string): string[] {
  const specs = new Map<string, string[]>();
  const specsOf = (f: string): string[] => specs.get(f) ?? (specs.set(f, specifiers(f)), specs.get(f) ?? []);
  const chainFrom = (entry: string): string[] | undefined => {
    // Breadth-first over relative imports, remembering how each file was reached.
    const parent = new Map<string, string | undefined>([[entry, undefined]]);
    for (const queue = [entry]; queue.length > 0; ) {
      const file = queue.shift() as string;
      for (const spec of specsOf(file)) {
        if (spec === 'vscode' || spec.startsWith('vscode/')) {
          const chain = ['vscode'];
          for (let f: string | undefined = file; f; f = parent.get(f)) chain.unshift(relative(base, f));
          return chain;
        }
        const next = spec.startsWith('.') ? resolveRelative(file, spec) : undefined; // skip node: and packages
        if (next && !parent.has(next)) {
          parent.set(next, file);
          queue.push(next);
        }
      }
    }
    return undefined;
  };
  return tsFiles(dir).flatMap((f) => {
    const chain = chainFrom(f);
    return chain ? [chain.join(' → ')] : [];
  });
}

/** Writes files (path → text) into a fresh temporary folder, runs check on it, then removes it. */
function withTree(files: Record<string, string>, check: (dir: string) => void): void {
  const tmp = mkdtempSync(join(tmpdir(), 'wa-layering-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tmp, name)), { recursive: true });
      writeFileSync(join(tmp, name), text);
    }
    check(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

describe('layering: pure code never imports vscode', () => {
  for (const layer of ['src/core', 'src/sandbox']) {
    it(`no file under ${layer} reaches the vscode module`, (t) => {
      const dir = join(root, layer);
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory() || tsFiles(dir).length === 0) {
        t.diagnostic(`${layer} holds no .ts files yet`);
        return;
      }
      assert.deepEqual(vscodeChains(dir, root), [], `${layer} must stay free of VS Code; move this code to src/vscode/`);
    });
  }

  it('the check itself catches a direct, a type-only and a transitive vscode import', () => {
    withTree(
      {
        'ui/panel.ts': "import * as vscode from 'vscode';\nexport const show = () => vscode.window.showInformationMessage('x');\n",
        'core/direct.ts': "import { window } from 'vscode';\nexport const w = window;\n",
        'core/typeOnly.ts': "import type { Uri } from 'vscode';\nexport type U = Uri;\n",
        'core/transitive.ts': "import { show } from '../ui/panel';\nexport const s = show;\n",
        'core/clean.ts': "// import * as vscode from 'vscode';\nexport const s = \"require('vscode')\";\n",
        'core/cycleA.ts': "import { b } from './cycleB';\nexport const a = b;\n",
        'core/cycleB.ts': "export { a } from './cycleA';\nexport const b = 1;\n",
      },
      (tmp) => {
        assert.deepEqual(vscodeChains(join(tmp, 'core'), tmp).sort(), [
          'core/direct.ts → vscode',
          'core/transitive.ts → ui/panel.ts → vscode',
          'core/typeOnly.ts → vscode',
        ]);
      },
    );
  });
});

/** The relative imports of each .ts file under dir, resolved: [importing file, imported file]. */
function relativeImports(dir: string): [string, string][] {
  return tsFiles(dir).flatMap((f) =>
    specifiers(f).flatMap((s): [string, string][] => {
      const to = s.startsWith('.') ? resolveRelative(f, s) : undefined;
      return to ? [[f, to]] : [];
    }),
  );
}

const inside = (file: string, folder: string): boolean => !relative(folder, file).startsWith('..');

/** Imports from a file under `dir` to a file under none of `allowed`, as "from → to" relative to base. */
function importsLeaving(dir: string, allowed: readonly string[], base: string): string[] {
  return relativeImports(dir)
    .filter(([, to]) => !allowed.some((a) => inside(to, a)))
    .map(([from, to]) => `${relative(base, from)} → ${relative(base, to)}`);
}

/** Import cycles among the files under dir (type-only imports count), each as its files sorted, relative to base. */
function importCycles(dir: string, base: string): string[][] {
  const edges = new Map<string, string[]>();
  for (const [from, to] of relativeImports(dir)) {
    if (inside(to, dir)) edges.set(from, [...(edges.get(from) ?? []), to]);
  }
  // Tarjan's strongly connected components: a component of two or more files (or a file importing itself) is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      scc.push(w);
      if (w === v) break;
    }
    if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(scc.map((f) => relative(base, f)).sort());
  };
  for (const f of tsFiles(dir)) if (!index.has(f)) visit(f);
  return cycles;
}

/**
 * Imports that ran against the grain of src/core and were cut (issue 31): the transport does not
 * download results (the result writer calls the download itself), the ground (errors, storage)
 * stands on nothing above it, and the money does not borrow the sidebar's formatting. Each pair is
 * [importing file, imported file]; a new import of the kind fails here by name.
 */
const CUT_IMPORTS: readonly (readonly [string, string])[] = [
  ['src/core/transport/api.ts', 'src/core/results/download.ts'],
  ['src/core/storage.ts', 'src/core/jobs/job.ts'],
  ['src/core/errors.ts', 'src/core/transport/apiKey.ts'],
  ['src/core/money/budget.ts', 'src/core/history/format.ts'],
];

describe('layering: the imports against the grain stay cut', () => {
  it('none of the cut imports is back (type-only imports count)', () => {
    const edges = new Set(relativeImports(join(root, 'src/core')).map(([from, to]) => `${relative(root, from)} → ${relative(root, to)}`));
    assert.deepEqual(CUT_IMPORTS.map(([from, to]) => `${from} → ${to}`).filter((e) => edges.has(e)), []);
  });
});

describe('layering: the floor of src/vscode', () => {
  const vscodeDir = join(root, 'src/vscode');

  it('src/vscode/base (ids, settings, connection, keys, history, status, …) imports only base/, core/, the sandbox and the strings owner (shared/l10n.ts)', () => {
    const allowed = ['src/vscode/base', 'src/core', 'src/sandbox', 'src/shared/l10n.ts'].map((d) => join(root, d));
    assert.deepEqual(importsLeaving(join(vscodeDir, 'base'), allowed, root), [], 'base/ is the floor every feature stands on: move what it needs down into base/, or the code up into a feature');
  });

  it('nothing outside src/vscode/commands imports from it (commands are leaves that activate() registers)', () => {
    const commands = join(vscodeDir, 'commands');
    // features.ts is activate()'s second half, loaded on first use (src/extension.ts): it registers them.
    const activation = join(vscodeDir, 'features.ts');
    const offenders = relativeImports(vscodeDir)
      .filter(([from, to]) => inside(to, commands) && !inside(from, commands) && from !== activation)
      .map(([from, to]) => `${relative(root, from)} → ${relative(root, to)}`);
    assert.deepEqual(offenders, []);
  });

  it('the checks themselves catch an import leaving a folder and a two-file cycle', () => {
    withTree(
      {
        'base/ids.ts': 'export const id = 1;\n',
        'base/up.ts': "import type { V } from '../views/panel';\nexport type U = V;\n",
        'views/panel.ts': "import { id } from '../base/ids';\nimport { b } from './b';\nexport type V = number;\nexport const p = id + b;\n",
        'views/b.ts': "import type { V } from './panel';\nexport const b: V = 1;\n",
      },
      (tmp) => {
        assert.deepEqual(importsLeaving(join(tmp, 'base'), [join(tmp, 'base')], tmp), ['base/up.ts → views/panel.ts']);
        assert.deepEqual(importCycles(tmp, tmp), [['views/b.ts', 'views/panel.ts']]);
      },
    );
  });
});

/** One floor of src/: where it is, which floors it may import, and whether it may reach `vscode` and node's built-ins. */
interface Floor {
  readonly floor: string;
  /** Relative to src/: a folder, or one file. */
  readonly path: string;
  readonly may: readonly string[];
  readonly vscode: boolean;
  readonly node: boolean;
}

/** The table of the head comment, as data: lower floors first. */
const FLOORS: readonly Floor[] = [
  { floor: 'core', path: 'core', may: ['core'], vscode: false, node: true },
  { floor: 'shared', path: 'shared', may: ['shared', 'core'], vscode: false, node: false },
  { floor: 'sandbox', path: 'sandbox', may: ['sandbox', 'core'], vscode: false, node: true },
  { floor: 'webview-ui', path: 'webview-ui', may: ['webview-ui', 'shared', 'core'], vscode: false, node: false },
  { floor: 'runner', path: 'runner', may: ['runner', 'core'], vscode: false, node: true },
  { floor: 'vscode', path: 'vscode', may: ['vscode', 'shared', 'core', 'sandbox'], vscode: true, node: true },
  { floor: 'extension.ts', path: 'extension.ts', may: ['extension.ts', 'vscode', 'shared', 'core', 'sandbox'], vscode: true, node: true },
];

const nodeBuiltins = new Set(builtinModules);
const isNodeBuiltin = (spec: string): boolean => spec.startsWith('node:') || nodeBuiltins.has(spec.split('/')[0] ?? spec);
const isVscode = (spec: string): boolean => spec === 'vscode' || spec.startsWith('vscode/');

/** The floor a file under src belongs to, or undefined. */
function floorOf(src: string, file: string, floors: readonly Floor[]): Floor | undefined {
  return floors.find((f) => file === join(src, f.path) || inside(file, join(src, f.path)));
}

/** Every import from one floor to a floor its row does not name, and every file of src/ on no floor, as text. */
function floorBreaches(src: string, floors: readonly Floor[]): string[] {
  const base = dirname(src);
  return tsFiles(src).flatMap((file) => {
    const from = floorOf(src, file, floors);
    if (!from) return [`${relative(base, file)} is on no floor: add it to the table`];
    return specifiers(file).flatMap((spec) => {
      const to = spec.startsWith('.') ? resolveRelative(file, spec) : undefined;
      if (!to) return [];
      const target = floorOf(src, to, floors);
      return target && from.may.includes(target.floor) ? [] : [`${relative(base, file)} (${from.floor}) → ${relative(base, to)} (${target?.floor ?? 'outside src'})`];
    });
  });
}

/**
 * For each file of a floor that may not reach `vscode` or node's built-ins, the chain of relative
 * imports by which it does (through files of other floors too: a browser bundle breaks as well on a
 * core file that reads the disk).
 */
function forbiddenReaches(src: string, floors: readonly Floor[]): string[] {
  const base = dirname(src);
  const specs = new Map<string, string[]>();
  const specsOf = (f: string): string[] => specs.get(f) ?? (specs.set(f, specifiers(f)), specs.get(f) ?? []);
  return tsFiles(src).flatMap((entry) => {
    const floor = floorOf(src, entry, floors);
    if (!floor || (floor.vscode && floor.node)) return [];
    const parent = new Map<string, string | undefined>([[entry, undefined]]);
    for (const queue = [entry]; queue.length > 0; ) {
      const file = queue.shift() as string;
      for (const spec of specsOf(file)) {
        if ((!floor.vscode && isVscode(spec)) || (!floor.node && isNodeBuiltin(spec))) {
          const chain = [spec];
          for (let f: string | undefined = file; f; f = parent.get(f)) chain.unshift(relative(base, f));
          return [`${floor.floor}: ${chain.join(' → ')}`];
        }
        const next = spec.startsWith('.') ? resolveRelative(file, spec) : undefined;
        if (next && !parent.has(next)) {
          parent.set(next, file);
          queue.push(next);
        }
      }
    }
    return [];
  });
}

describe('layering: the floors of src/ (the table at the head of this file)', () => {
  const src = join(root, 'src');

  it('every import goes to a floor its row names (core never imports shared, vscode, webview-ui or the sandbox; …)', () => {
    assert.deepEqual(floorBreaches(src, FLOORS), [], 'move the piece both floors need down to the lower one');
  });

  it('shared and webview-ui reach neither vscode nor node built-ins, even through core', () => {
    assert.deepEqual(forbiddenReaches(src, FLOORS), []);
  });

  it('src/ has no import cycle', () => {
    assert.deepEqual(importCycles(src, root), [], 'a cycle is a floor not drawn yet: move what both files need into a file below them');
  });

  it('the checks themselves catch an upward import, core importing shared, a browser floor reaching node, a file on no floor', () => {
    withTree(
      {
        'src/core/a.ts': "import { p } from '../shared/p';\nexport const a = p;\n",
        'src/core/disk.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
        'src/core/pure.ts': "import { z } from 'zod';\nexport const x = z;\n",
        'src/shared/p.ts': "import { x } from '../core/pure';\nexport const p = x;\n",
        'src/webview-ui/ui.ts': "import { r } from '../core/disk';\nimport { p } from '../shared/p';\nexport const u = [r, p];\n",
        'src/webview-ui/host.ts': "import type { W } from '../vscode/w';\nexport type H = W;\n",
        'src/vscode/w.ts': "import * as vscode from 'vscode';\nexport type W = typeof vscode;\n",
        'src/stray.ts': 'export const s = 1;\n',
      },
      (tmp) => {
        const src = join(tmp, 'src');
        assert.deepEqual(floorBreaches(src, FLOORS).sort(), [
          'src/core/a.ts (core) → src/shared/p.ts (shared)',
          'src/stray.ts is on no floor: add it to the table',
          'src/webview-ui/host.ts (webview-ui) → src/vscode/w.ts (vscode)',
        ]);
        assert.deepEqual(forbiddenReaches(src, FLOORS).sort(), [
          'webview-ui: src/webview-ui/host.ts → src/vscode/w.ts → vscode',
          'webview-ui: src/webview-ui/ui.ts → src/core/disk.ts → node:fs',
        ]);
      },
    );
  });
});
