/**
 * Dead exports: every name a file of src/ exports is imported somewhere else (src/, test/, bench/),
 * or it is an entry point named below. An export nobody imports is either dead code or a helper
 * that should not be part of its file's surface; both mislead the next reader (issue 26, item 4).
 *
 * Read with the TypeScript compiler: each import (and re-export) is followed to the declaration it
 * names, through any chain of re-exports, so `export { X } from './a'` in shared/ counts as a use
 * of core's X only when something imports X from shared/ (or from core).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

function tsFiles(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * Exports that only a runtime outside our imports uses, as "file#name" relative to the root. Keep
 * it short: anything else that nobody imports goes (or stops being exported).
 */
const ENTRY_POINTS = new Set([
  // VS Code calls these on the bundle's entry (package.json "main").
  'src/extension.ts#activate',
  'src/extension.ts#deactivate',
  // VS Code calls this on the notebook renderer's bundle (package.json notebookRenderer entrypoint).
  'src/webview-ui/cellResult/main.ts#activate',
  // scripts/sync.mjs loads these files by path (npm run sync writes package.json and the README from them).
  'src/core/manifest/manifest.ts#ENDPOINT_COMMAND_PREFIX',
  'src/core/manifest/docs.ts#ENDPOINT_TABLE_START',
  'src/core/manifest/docs.ts#ENDPOINT_TABLE_END',
]);

/** Names exported by files under `dirs` that no other file imports, as "file#name", relative to base. */
export function unusedExports(base: string, dirs: readonly string[], users: readonly string[]): string[] {
  const rootNames = [...new Set([...dirs, ...users].flatMap((d) => tsFiles(join(base, d))))];
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowJs: false,
    noEmit: true,
    skipLibCheck: true,
    noResolve: false,
    types: [],
    // No lib, and a package's declarations read as empty: an import is followed by where it
    // resolves, and an export of ours is used only through files of ours. Parsing and binding
    // TypeScript's lib (the DOM's), @types/node, Playwright's and the other packages' declarations
    // was 11 of the program's 15 MB and most of this file's CPU.
    noLib: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    fileName.split(/[\\/]/u).includes('node_modules') ? ts.createSourceFile(fileName, '', languageVersion) : read(fileName, languageVersion, onError, shouldCreate);
  const program = ts.createProgram(rootNames, options, host);
  const checker = program.getTypeChecker();
  /** The declaration a symbol finally names, through import and re-export aliases. */
  const origin = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const used = new Set<ts.Symbol>();
  /** Modules imported whole (`import * as ns`, `export * from`): every export of theirs counts as used. */
  const wholeModules = new Set<ts.Symbol>();
  const inRoot = new Set(rootNames);
  for (const sf of program.getSourceFiles()) {
    if (!inRoot.has(sf.fileName)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) {
        const s = checker.getSymbolAtLocation(node.name);
        // An export specifier without `from` exports a local name: not a use of another file.
        const reExport = ts.isExportSpecifier(node) && node.parent.parent.moduleSpecifier !== undefined;
        if (s && (ts.isImportSpecifier(node) || reExport)) {
          for (let a: ts.Symbol | undefined = s; a && a.flags & ts.SymbolFlags.Alias; ) {
            const next: ts.Symbol = checker.getImmediateAliasedSymbol(a) ?? a;
            used.add(next);
            a = next === a ? undefined : next;
          }
          used.add(origin(s));
        }
      } else if (ts.isImportClause(node) && node.name) {
        const s = checker.getSymbolAtLocation(node.name);
        if (s) used.add(origin(s));
      } else if ((ts.isNamespaceImport(node) || ts.isNamespaceExport(node)) || (ts.isExportDeclaration(node) && !node.exportClause)) {
        const decl = ts.isExportDeclaration(node) ? node : ts.isNamespaceImport(node) ? node.parent.parent : node.parent;
        const spec = decl.moduleSpecifier;
        const m = spec ? checker.getSymbolAtLocation(spec) : undefined;
        if (m) wholeModules.add(m);
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        const s = checker.getSymbolAtLocation(ts.isIdentifier(node.qualifier) ? node.qualifier : node.qualifier.right);
        if (s) used.add(origin(s));
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const spec = node.arguments[0];
        const m = spec ? checker.getSymbolAtLocation(spec) : undefined;
        if (m) wholeModules.add(m);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const out: string[] = [];
  for (const file of dirs.flatMap((d) => tsFiles(join(base, d)))) {
    const sf = program.getSourceFile(file);
    const mod = sf && checker.getSymbolAtLocation(sf);
    if (!mod || wholeModules.has(mod)) continue;
    for (const e of checker.getExportsOfModule(mod)) {
      if (used.has(e)) continue;
      const name = `${relative(base, file)}#${e.getName()}`;
      if (!ENTRY_POINTS.has(name)) out.push(name);
    }
  }
  return out.sort();
}

describe('dead code: exports', () => {
  it('every export of src/ is imported somewhere in src/, test/ or bench/ (or is an entry point)', () => {
    const unused = unusedExports(root, ['src'], ['src', 'test', 'bench']);
    assert.deepEqual(unused, [], `remove the export (or the code), or name the entry point in ENTRY_POINTS with why:\n${unused.join('\n')}`);
  });

  it('the check itself follows imports, re-export chains, namespaces and type imports', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'wa-exports-'));
    const files: Record<string, string> = {
      'src/a.ts': 'export const used = 1;\nexport const viaChain = 2;\nexport const onlyHere = 3;\nexport const reExportedOnly = 4;\nexport type T = number;\nexport const local = onlyHere;\n',
      'src/b.ts': "export { viaChain, reExportedOnly } from './a';\n",
      'src/whole.ts': 'export const w = 1;\n',
      'test/t.ts': "import { used, type T } from '../src/a';\nimport { viaChain } from '../src/b';\nimport * as whole from '../src/whole';\nexport const x: T = used + viaChain + whole.w;\n",
    };
    try {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(tmp, name)), { recursive: true });
        writeFileSync(join(tmp, name), text);
      }
      assert.deepEqual(unusedExports(tmp, ['src'], ['src', 'test']), ['src/a.ts#local', 'src/a.ts#onlyHere', 'src/b.ts#reExportedOnly']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
