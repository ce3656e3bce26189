// Builds the bundles (extension host, its table and sandbox workers, the command-line runner, the table webview and the notebook renderer) and, with --tests, the test entries.
//   node esbuild.mjs                 development build with source maps
//   node esbuild.mjs --production    minified
//   node esbuild.mjs --watch         rebuild on change
//   node esbuild.mjs --tests         also build test/ and bench/ into out/
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Every file under dir whose name passes keep() (none if dir does not exist, as in a fresh clone). */
function walk(dir, keep) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(name)) out.push(p);
  }
  return out;
}

/**
 * `.wat` (WebAssembly text) imports become their module's bytes, compiled here by wabt's
 * wat2wasm: the kernels are reviewed as readable source, and no binary is checked in.
 */
const watPlugin = {
  name: 'wat',
  setup(build) {
    build.onLoad({ filter: /\.wat$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const wabt = await (await import('wabt')).default();
      const module = wabt.parseWat(args.path, await readFile(args.path, 'utf8'), { simd: true });
      try {
        module.validate();
        const { buffer } = module.toBinary({});
        return { contents: `export default new Uint8Array([${Array.from(buffer).join(',')}]);`, loader: 'js' };
      } finally {
        module.destroy();
      }
    });
  },
};

// charset ascii: a bundle with one non-ASCII character is read by V8 as two-byte source, slower to scan (issue 34).
const common = { bundle: true, plugins: [watPlugin], sourcemap: true, minify: production, logLevel: 'warning', legalComments: 'none', charset: 'ascii' };

/**
 * The extension's features are their own bundle, dist/features.js: the entry (src/extension.ts)
 * reaches them by `import('./vscode/features')`, which this turns into a require() of the sibling
 * bundle at run time, so VS Code loads and compiles a few kilobytes at activation, and the
 * features' 1.7 MB (undici, zod, the catalog) only on their first use (issue 34 item 1).
 */
const featuresEntry = 'src/vscode/features.ts';
const featuresApart = {
  name: 'features-apart',
  setup(build) {
    build.onResolve({ filter: /\/features$/ }, async (args) => {
      if (!args.importer.endsWith(join('src', 'extension.ts'))) return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'apart' });
      return r.path.endsWith(join('src', 'vscode', 'features.ts')) ? { path: './features.js', external: true } : undefined;
    });
  },
};

/**
 * undici is its own bundle too, dist/undici.js, required on the first request (src/core/transport/undici.ts
 * and proxy.ts require it inside a function): read with the features it took 0.2–1.4 s on a loaded
 * machine and a third of their bytes (issue 34 item 1). Every `undici` the host's bundles import
 * becomes a require() of that sibling file, where the import is.
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/**
 * `vscode` is read once per bundle: esbuild turns each file's `import * as vscode from 'vscode'` into
 * its own __toESM(require('vscode')), a copy of every one of the API's few hundred names, 71 times in
 * the features (about 50 ms of their load under a stub, issue 34 item 1). Every import of it
 * goes through one module that re-exports it instead, so the names are copied once.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/**
 * zod's 60-odd translated error messages (zod/v4/locales, re-exported whole as `z.locales`) are
 * 265 KB, a fifth of the features' bytes, read and compiled at every load and never used: our
 * messages go through l10n.t, and zod's English default comes from locales/en.js, imported on its
 * own. The namespace is an empty module in the host's bundles (issue 34 item 1).
 */
const zodLocalesOut = {
  name: 'zod-locales-out',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/u.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-locales-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales-out' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

const builds = [
  {
    ...common,
    plugins: [...common.plugins, featuresApart, undiciApart, vscodeOnce, zodLocalesOut],
    // That import() becomes a require(): the extension host's loader, which serves `vscode`, sees it.
    supported: { 'dynamic-import': false },
    // The table worker and the sandbox's worker are entries of their own: the host starts each by file
    // (src/core/table/remoteTable.ts, src/sandbox/thread.ts).
    entryPoints: { extension: 'src/extension.ts', features: featuresEntry, tableWorker: 'src/core/table/tableWorker.ts', sandboxWorker: 'src/sandbox/worker.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's UMD entry requires its modules dynamically, which a bundle cannot follow: take ESM entries first.
    mainFields: ['module', 'main'],
  },
  {
    ...common,
    // undici's own bundle (undiciApart above): its CommonJS entry as it is, so module.exports is undici's.
    entryPoints: { undici: createRequire(import.meta.url).resolve('undici') },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    // The command-line runner (issue 32): one file with every dependency inside, runnable by Node 20
    // alone (package.json "bin"; the export copies it beside a pipeline). It is its own table worker.
    entryPoints: { cli: 'src/runner/cli.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    mainFields: ['module', 'main'],
  },
  {
    ...common,
    entryPoints: { webview: 'src/webview-ui/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    // The pipeline notebook's renderer (package.json notebookRenderer): VS Code imports it as an ES module.
    entryPoints: { cellResultRenderer: 'src/webview-ui/cellResult/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
  },
];

if (tests) {
  const testCommon = {
    bundle: true,
    plugins: [watPlugin],
    sourcemap: 'inline',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outbase: '.',
    outdir: 'out',
    logLevel: 'warning',
    // Tests resolve their third-party packages from node_modules at run time.
    packages: 'external',
    external: ['vscode'],
  };
  // Runners pick up every *.test.js under out/test, so a deleted test must not linger there.
  if (!watch) rmSync('out/test', { recursive: true, force: true });
  // The unit test of the entry (test/unit/vscode/extension.test.ts) never loads the features: apart here too, not 5 MB inside it.
  builds.push({ ...testCommon, plugins: [...testCommon.plugins, featuresApart], entryPoints: walk('test/unit', (n) => n.endsWith('.test.ts')) });
  // index.ts (the entry VS Code calls) and one bundle per suite file, which index.ts loads with mocha.
  builds.push({ ...testCommon, entryPoints: walk('test/integration', (n) => n === 'index.ts' || n.endsWith('.test.ts')) });
  builds.push({ ...testCommon, entryPoints: walk('test/e2e', (n) => n.endsWith('.test.ts') || n === 'bigTable.ts') });
  builds.push({ ...testCommon, entryPoints: walk('bench', (n) => n.endsWith('.ts')) });
  builds.push({ ...testCommon, entryPoints: ['src/sandbox/cli.ts'].filter((f) => existsSync(f)) });
}

const contexts = await Promise.all(builds.filter((b) => b.entryPoints.length ?? Object.keys(b.entryPoints).length).map((b) => esbuild.context(b)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching');
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  // The runner is run as a program (`./wallet-analytics.cjs`, npm's bin): executable.
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
}
