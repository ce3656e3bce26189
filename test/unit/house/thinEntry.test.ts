/**
 * Activation stays cheap (issue 34 item 1), as rules on the source rather than timings:
 * - src/extension.ts loads nothing heavy: everything it reaches by static imports is `vscode`, the
 *   exports gate, the ids, the stand-ins, the sidebar's first answer (one SecretStorage read, the
 *   Account view's words, the placeholder base URL's test) and the load clock (a fixed list: adding to it fails here); the features
 *   (undici, zod, the catalog, every view) come through import(), which esbuild.mjs builds as their
 *   own bundle, required on first use; undici is a bundle of its own again (dist/undici.js),
 *   required on the first request, not while the features load.
 * - activate() does not wait for them: it is not async and awaits nothing (VS Code times the call
 *   and holds every command's run until it returns; the stand-ins make every id exist meanwhile).
 * - the bundle is plain ASCII: esbuild's `charset: 'ascii'` escapes strings, but not what it must keep
 *   as written (a regular expression literal, a String.raw template), and one non-ASCII character
 *   makes V8 read the whole 1.7 MB bundle as two-byte text.
 * - zod's translated messages (z.locales, a fifth of the features' bytes, never used) are not in it,
 *   and loading it builds no zod schema (each is built on its first use, src/core/lazySchema.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    try {
      readFileSync(join(d, 'esbuild.mjs'));
      return d;
    } catch {
      // keep looking
    }
  }
  throw new Error(`no esbuild.mjs above ${__dirname}`);
}
const root = repoRoot();

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The static imports of a file that bring code at load time (not `import type`, not import()). */
function valueImports(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((s) => {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) return [];
    const clause = s.importClause;
    if (clause?.isTypeOnly) return [];
    const named = clause?.namedBindings;
    const allTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
    return allTypes ? [] : [s.moduleSpecifier.text];
  });
}

/** Non-ASCII text esbuild writes as it is: inside regular expression literals and String.raw templates. */
function unescapable(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    const raw =
      n.kind === ts.SyntaxKind.RegularExpressionLiteral ||
      (ts.isTaggedTemplateExpression(n) && n.tag.getText(sf) === 'String.raw');
    if (raw && /[^\t-~]/u.test(n.getText(sf))) {
      const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      const chars = [...new Set(n.getText(sf).match(/[^\t-~]/gu))].join('');
      found.push(`${relative(root, file)}:${line + 1} ${chars}`);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** Every source file the entry's static value imports reach, and the packages among them. */
function reached(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) packages.add(spec);
      else visit(join(dirname(file), `${spec}.ts`));
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(root, f).split('\\').join('/')).sort(), packages: [...packages].sort() };
}

/** The `activate` function of a source file. */
function activateOf(file: string): { isAsync: boolean; awaits: number } {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const fn = sf.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === 'activate');
  assert.ok(fn?.body, `no function activate() in ${file}`);
  let awaits = 0;
  const visit = (n: ts.Node): void => {
    if (ts.isAwaitExpression(n)) awaits++;
    ts.forEachChild(n, visit);
  };
  visit(fn.body);
  return { isAsync: fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ?? false, awaits };
}

describe('activation: a thin entry and a plain ASCII bundle', () => {
  it('src/extension.ts reaches only the late vscode, the exports gate, the ids, the stand-ins and the first answer; the features come through import()', () => {
    const entry = join(root, 'src', 'extension.ts');
    assert.deepEqual(reached(entry), {
      // The sidebar's first answer (firstAnswer.ts) reads the storage keys' names from core/storage.ts;
      // its MergedList and Storage are left out of the bundle (the built entry's size below holds that).
      // With a key stored it draws the Account view's first rows in the features' words (accountWords.ts)
      // once the base URL is not the placeholder (core/transport/placeholder.ts, which imports nothing).
      files: [
        'src/core/ids.ts',
        'src/core/mergedList.ts',
        'src/core/storage.ts',
        'src/core/transport/placeholder.ts',
        'src/extension.ts',
        'src/vscode/base/accountWords.ts',
        'src/vscode/base/contextKeys.ts',
        'src/vscode/base/exports.ts',
        'src/vscode/base/firstAnswer.ts',
        'src/vscode/base/ids.ts',
        'src/vscode/base/loadClock.ts',
        'src/vscode/base/standIns.ts',
        'src/vscode/base/vscodeLater.ts',
      ],
      // `vscode` itself is required where it is first used (vscodeLater.ts), after activate() returns.
      packages: [],
    });
    assert.match(readFileSync(entry, 'utf8'), /import\('\.\/vscode\/features'\)/u);
  });

  it('activate() neither is async nor awaits: it returns before the features load', () => {
    assert.deepEqual(activateOf(join(root, 'src', 'extension.ts')), { isAsync: false, awaits: 0 });
  });

  it("the built entry requires `vscode` neither as it loads nor in the activate() call: VS Code's figure counts both, the host builds the API object on that first require", async () => {
    const entry = join(root, 'dist', 'extension.js');
    const names = [...readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|function|let) (\w+)/gmu)].map((m) => m[1]);
    // A stub of `vscode` (every name @types/vscode exports; no query file open, no key read back), the
    // loader watched: how many times `vscode` was required after loading, after the call, after the registrations.
    const script = `
      const Module = require('node:module');
      const stub = new Proxy(function () {}, { get: (_, k) => (k === 'textDocuments' ? [] : k === 'then' ? undefined : stub), apply: () => stub, construct: () => stub });
      const api = Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, stub]));
      let asked = 0;
      const load = Module._load;
      Module._load = function (request, ...rest) { if (request === 'vscode') { asked++; return api; } return load.call(this, request, ...rest); };
      const seen = {};
      const ext = require(${JSON.stringify(entry)});
      seen.loaded = asked;
      const context = { subscriptions: [], extension: { packageJSON: { contributes: { commands: [{ command: 'walletAnalytics.a' }] } } }, secrets: stub, globalState: stub, extensionMode: 1 };
      const done = ext.activate(context);
      seen.called = asked;
      done.then(() => { seen.registered = asked; seen.subscriptions = context.subscriptions.length; process.stdout.write(JSON.stringify(seen)); });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(r.stdout) as { loaded: number; called: number; registered: number; subscriptions: number };
    assert.deepEqual({ loaded: seen.loaded, called: seen.called, registered: seen.registered }, { loaded: 0, called: 0, registered: 1 });
    assert.ok(seen.subscriptions > 0, 'the probe registered nothing');
  });

  it('the check finds an activate() that waits', () => {
    const dir = join(root, 'out', 'thin-entry-probe');
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, 'waits.ts');
    writeFileSync(probe, "export async function activate(): Promise<void> {\n  const f = await import('./features');\n  await f.go();\n}\n");
    assert.deepEqual(activateOf(probe), { isAsync: true, awaits: 2 });
  });

  it('the built entry is a few kilobytes and requires the features bundle beside it', () => {
    const built = readFileSync(join(root, 'dist', 'extension.js'), 'utf8');
    // Unminified (the .vsix's is about half): 17 KB, then 21.5 KB with the Account view's early rows; a
    // heavy import (undici, zod, the catalog) is hundreds of kilobytes.
    assert.ok(built.length < 24_000, `dist/extension.js is ${built.length} bytes: something heavy is imported statically`);
    assert.match(built, /require\("\.\/features\.js"\)/u);
    assert.match(readFileSync(join(root, '.vscodeignore'), 'utf8'), /^!dist\/features\.js$/mu, 'the .vsix ships dist/features.js');
  });

  it('the built features require undici beside them (dist/undici.js), and not while they load', () => {
    const features = join(root, 'dist', 'features.js');
    const built = readFileSync(features, 'utf8');
    assert.match(built, /require\("\.\/undici\.js"\)/u, 'undici is not its own bundle');
    // A diagnostics channel undici's client names (and nothing of ours): its code is not in the features.
    assert.equal(built.includes('undici:client:sendHeaders'), false, 'undici is inside dist/features.js again');
    assert.match(readFileSync(join(root, '.vscodeignore'), 'utf8'), /^!dist\/undici\.js$/mu, 'the .vsix ships dist/undici.js');
    // One copy of the vscode API's names (esbuild.mjs vscodeOnce), not one per file that imports it.
    assert.equal(built.match(/require\("vscode"\)/gu)?.length, 1, 'the features require vscode more than once');
    // Loaded in a fresh Node under a stub of `vscode` (every name @types/vscode exports), the loader
    // watched: what the features require at load.
    const names = [...readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|function|let) (\w+)/gmu)].map((m) => m[1]);
    const script = `
      const Module = require('node:module');
      const stub = new Proxy(function () {}, { get: () => stub, apply: () => stub, construct: () => stub });
      const api = Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, stub]));
      const asked = [];
      const load = Module._load;
      Module._load = function (request, ...rest) { asked.push(request); return request === 'vscode' ? api : load.call(this, request, ...rest); };
      require(${JSON.stringify(features)});
      process.stdout.write(JSON.stringify(asked));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const asked = JSON.parse(r.stdout) as string[];
    assert.ok(asked.includes('vscode'), 'the probe did not load the features');
    assert.deepEqual(asked.filter((a) => /undici/u.test(a)), [], 'undici was required while the features loaded');
  });

  it("the built features hold none of zod's translated messages (esbuild.mjs zodLocalesOut), yet zod still speaks English", () => {
    const built = readFileSync(join(root, 'dist', 'features.js'), 'utf8');
    // German's "invalid input" (zod/v4/locales/de.js), one of 60-odd locales, 265 KB, never used.
    assert.equal(built.includes('ltige Eingabe'), false, "zod's locales are inside dist/features.js");
    // The English default is imported apart from the namespace (zod/v4/classic/schemas.js) and stays.
    assert.match(built, /Invalid input: expected/u, "zod's English messages went too");
  });

  it('loading the built features constructs no zod schema: each is built on its first use (src/core/lazySchema.ts)', () => {
    const features = join(root, 'dist', 'features.js');
    const names = [...readFileSync(join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|function|let) (\w+)/gmu)].map((m) => m[1]);
    // zod calls globalThis.__zod_globalConfig.postProcessor with every schema it constructs
    // (zod/v4/core/core.js $constructor): counted while the bundle loads under a stub of vscode.
    const script = `
      const Module = require('node:module');
      const stub = new Proxy(function () {}, { get: () => stub, apply: () => stub, construct: () => stub });
      const api = Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, stub]));
      const load = Module._load;
      Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
      let built = 0;
      globalThis.__zod_globalConfig = { postProcessor() { built++; } };
      const features = require(${JSON.stringify(features)});
      process.stdout.write(JSON.stringify({ built, loaded: typeof features.activateFeatures }));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { built, loaded } = JSON.parse(r.stdout) as { built: number; loaded: string };
    assert.equal(loaded, 'function', 'the probe did not load the features');
    assert.equal(built, 0, `${built} zod schemas were built while the features loaded: a module-level schema, wrap it in lazySchema()`);
  });

  it('the exports gate itself loads nothing but the late `vscode`', () => {
    assert.deepEqual(valueImports(join(root, 'src', 'vscode', 'base', 'exports.ts')), ['./vscodeLater']);
  });

  it('no regular expression or String.raw template in src/ holds a non-ASCII character (write \\uXXXX)', () => {
    assert.deepEqual(tsFiles(join(root, 'src')).flatMap(unescapable), []);
  });

  it('the check finds one', () => {
    const dir = join(root, 'out', 'thin-entry-probe');
    const probe = join(dir, 'probe.ts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "export const a = /…$/u;\nexport const b = String.raw`x → y`;\nexport const c = '…';\n");
    assert.deepEqual(unescapable(probe).map((s) => s.replace(/^.*probe\.ts:/u, '')), ['1 …', '2 →']);
  });
});
