/**
 * Issue 30 Deliver 4: every place in src/ that creates or moves a file or folder, held to its owner
 * as paidPaths.test.ts holds pre-approvals. A TypeScript scan (comments and strings do not count)
 * lists each call of a node:fs primitive that makes or moves something on disk (writeFile,
 * appendFile, copyFile, rename, mkdir, mkdtemp, createWriteStream, link, symlink, cp, open with
 * flags) and of VS Code's workspace.fs writers; it fails when one appears outside the owner of
 * writing (src/core/files/writeInside.ts) and the few places below that write only into a folder of
 * their own (each with its reason). A new writer goes through writeInside.ts, or is added here with
 * the reason it cannot.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

/** The owner: writes a new file inside a folder, through no link. */
const OWNER = 'src/core/files/writeInside.ts';

/** Places that write only into a folder of their own making (or a private temp name), and why they are not the owner. */
const OWN_FOLDER_WRITERS: Record<string, string> = {
  'src/core/files/fileLock.ts': 'lock files (O_EXCL, never through a link: lstat) and writeAtomic of our state files under global storage',
  'src/core/results/download.ts': 'the download streams into a random `.part` temp name (wx+) in the claim folder; it is placed with moveNoReplace',
  'src/core/results/unzip.ts': 'extraction into its own mkdtemp folder (entries wx, links refused), moved in under a free name, never over one',
  'src/core/results/resultWriter.ts': 'the private claim folder (.wa-claim-…) and the move of its extracted folder, never over one (lstat)',
  'src/core/query/diskJson.ts': 'the query caches under global storage: temp + rename',
  'src/core/watch/store.ts': 'the watches folder under global storage',
  'src/core/table/exportView.ts': 'the table worker writes a random temp (wx) and renames it over a target its caller checked (replaceableInside), or onto the private temp name writeNewNamed gives it (writtenBy: Open in Notebook\'s view)',
  'src/core/results/files.ts': 'setAside: renames a result\'s own parts aside and back before a re-download',
  'src/vscode/language/newQuery.ts': 'a new query on a file system that is not the disk (a remote or virtual workspace) goes through VS Code; on disk through the owner',
  'src/sandbox/files.ts': 'the sandbox server\'s own mkdtemp folder of synthetic files',
  'src/runner/callCommand.ts': 'a free read run with no --out: its own mkdtemp folder under the OS temp, removed once the answer is printed',
};

/** The node:fs calls that make or move something on disk. */
const MAKERS = new Set(['writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'copyFile', 'copyFileSync', 'rename', 'renameSync', 'mkdir', 'mkdirSync', 'mkdtemp', 'mkdtempSync', 'createWriteStream', 'link', 'linkSync', 'symlink', 'symlinkSync', 'cp', 'cpSync']);
/** VS Code's file system writers (`vscode.workspace.fs.x`). */
const VSCODE_MAKERS = new Set(['writeFile', 'createDirectory', 'copy', 'rename']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every call in `text` that makes or moves something on disk, as `line: name`. */
function writersIn(text: string, file = 'x.ts'): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  // Names bound to node:fs functions, and namespaces bound to node:fs modules.
  const named = new Map<string, string>();
  const spaces = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!/^(node:)?fs(\/promises)?$/u.test(st.moduleSpecifier.text)) continue;
    const b = st.importClause?.namedBindings;
    if (b && ts.isNamespaceImport(b)) spaces.add(b.name.text);
    if (b && ts.isNamedImports(b)) for (const e of b.elements) named.set(e.name.text, (e.propertyName ?? e.name).text);
    if (st.importClause?.name) spaces.add(st.importClause.name.text);
  }
  const out: string[] = [];
  const at = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const c = n.expression;
      let fn: string | undefined;
      if (ts.isIdentifier(c)) fn = named.get(c.text);
      else if (ts.isPropertyAccessExpression(c)) {
        const target = c.expression.getText(sf);
        if (spaces.has(target) || /^(\w+\.)?promises$/u.test(target)) fn = c.name.text;
        else if (/workspace\.fs$/u.test(target) && VSCODE_MAKERS.has(c.name.text)) out.push(`${at(n)}: workspace.fs.${c.name.text}`);
      }
      // open() makes a file only with flags that write ('w', 'a', 'x', or O_… constants); 'r' reads.
      const flags = n.arguments[1];
      const opens = (fn === 'open' || fn === 'openSync') && flags !== undefined && !(ts.isStringLiteral(flags) && !/[wax]/u.test(flags.text));
      if (fn !== undefined && (MAKERS.has(fn) || opens)) out.push(`${at(n)}: ${fn}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('every place that writes a new file goes through its owner (issue 30 Deliver 4)', () => {
  const src = join(root, 'src');
  const found = tsFiles(src).flatMap((f) => {
    const name = relative(root, f).split(sep).join('/');
    return writersIn(readFileSync(f, 'utf8'), f).map((w) => `${name}:${w}`);
  });
  const fileOf = (w: string): string => w.slice(0, w.indexOf(':'));

  it('no file of src/ outside the owner (and the own-folder writers) creates or moves a file itself', () => {
    assert.deepEqual(
      found.filter((w) => fileOf(w) !== OWNER && !(fileOf(w) in OWN_FOLDER_WRITERS)),
      [],
      'write it with writeNewInside / writeNewNamed / replaceInside (src/core/files/writeInside.ts): never through a link, never over a file',
    );
  });

  it('every own-folder writer listed still writes (a stale entry would hide a new writer there)', () => {
    const writing = new Set(found.map(fileOf));
    assert.deepEqual(Object.keys(OWN_FOLDER_WRITERS).filter((f) => !writing.has(f)), []);
  });

  it('the scan sees each kind of writer, and passes over comments, strings and other objects\' methods', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-writers-'));
    try {
      const text = [
        "import { writeFile, open as openFile } from 'node:fs/promises';",
        "import * as fs from 'node:fs';",
        "import * as vscode from 'vscode';",
        'await writeFile(a, b);',
        "await openFile(a, 'wx');",
        'fs.mkdirSync(a);',
        'await vscode.workspace.fs.writeFile(u, b);',
        'await fs.promises.rename(a, b);',
        '// writeFile(a, b) in a comment',
        "const s = 'fs.writeFile(a)';",
        'await profiles.rename(id, name);',
        'await openFile(a);',
        "await openFile(a, 'r');",
      ].join('\n');
      writeFileSync(join(dir, 'a.ts'), text);
      assert.deepEqual(writersIn(text), ['4: writeFile', '5: open', '6: mkdirSync', '7: workspace.fs.writeFile', '8: rename']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
