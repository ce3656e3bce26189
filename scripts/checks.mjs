// npm test's typecheck and lint on one TypeScript program per tsconfig (scripts/test-all.mjs).
// `npm run typecheck` (tsc, twice) and `npm run lint` (ESLint with typescript-eslint's project
// service) each build the same two programs and type-check them: on CI's 2 cores that was 68 s and
// 117 s, one after the other, and on a loaded machine lint printed nothing for over 300 s and was
// stopped as stalled. Here the programs are built once: tsc's diagnostics come from them, then ESLint
// runs with them as parserOptions.programs (the checker's work already done is reused by the typed
// rules), one folder at a time with a line each, so a slow machine shows progress.
// The same files, rules and diagnostics as the two npm scripts, which stay for everyday use.
//   node scripts/checks.mjs [typecheck] [lint]     both by default; exit 1 on any error
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

// TypeScript only when a program is built: test-all imports this file for checkVerdicts alone.
const tsApi = async () => (await import('typescript')).default;

/** The projects `npm run typecheck` checks, in its order; the first that holds a file lints it. */
export const TSCONFIGS = ['tsconfig.json', 'src/webview-ui/tsconfig.json'];

/** A program for each tsconfig, with its configuration's own errors. */
export async function programsOf(dir, configs = TSCONFIGS) {
  const ts = await tsApi();
  return configs.map((config) => {
    const file = join(dir, config);
    const problems = [];
    const parsed = ts.getParsedCommandLineOfConfigFile(file, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d) });
    if (!parsed) return { config, program: undefined, problems };
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: parsed.errors });
    return { config, program, problems };
  });
}

/**
 * What `tsc --noEmit -p <config>` reports for a program: its errors, formatted as tsc does
 * (getPreEmitDiagnostics' parts, the file-bound ones a file at a time with `say` told every 100 files).
 */
export async function typeErrors(dir, programs, say = () => undefined) {
  const ts = await tsApi();
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
  return programs.flatMap(({ config, program, problems }) => {
    const all = [...problems];
    if (program) {
      all.push(...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
      const files = program.getSourceFiles();
      files.forEach((f, i) => {
        all.push(...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f));
        if ((i + 1) % 100 === 0 || i === files.length - 1) say(`typecheck ${config}: ${i + 1} of ${files.length} files`);
      });
    }
    const errors = ts.sortAndDeduplicateDiagnostics(all.filter((d) => d.category === ts.DiagnosticCategory.Error));
    return errors.length ? [{ config, count: errors.length, text: ts.formatDiagnostics(errors, host) }] : [];
  });
}

/**
 * The lint's batches: each folder of `dir` that ESLint does not ignore, down to `depth` levels, a
 * folder with subfolders as its own files and then each subfolder (a line each, not one silent run
 * of minutes). A folder is ignored when a .ts file in it would be (isPathIgnored answers for files).
 */
export async function lintBatches(dir, eslint, depth = 3) {
  const ignored = async (folder) => folder.split('/').some((n) => n.startsWith('.') || n === 'node_modules') || (await eslint.isPathIgnored(join(dir, folder, 'probe.ts')));
  const folders = (at) =>
    readdirSync(join(dir, at), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => (at ? `${at}/${e.name}` : e.name))
      .sort();
  const batches = [];
  const walk = async (folder, level) => {
    const subs = [];
    if (level < depth) for (const s of folders(folder)) if (!(await ignored(s))) subs.push(s);
    if (subs.length === 0) return void batches.push([folder]);
    batches.push([`${folder}/*.*`]);
    for (const s of subs) await walk(s, level + 1);
  };
  for (const top of folders('')) if (!(await ignored(top))) await walk(top, 1);
  // Files at the top: those ESLint would lint (the configuration ignores *.js and *.mjs).
  const top = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isFile() && /\.[cm]?tsx?$/u.test(e.name) && !(await eslint.isPathIgnored(join(dir, e.name)))) top.push(e.name);
  if (top.length) batches.push(top);
  return batches;
}

/** ESLint over `dir` as `eslint .` runs it, with the given programs: its results, a batch at a time. */
export async function lint(dir, programs, say = () => undefined) {
  const { ESLint } = await import('eslint');
  const eslint = new ESLint({
    cwd: dir,
    errorOnUnmatchedPattern: false,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: programs.flatMap((p) => (p.program ? [p.program] : [])) } } },
  });
  const results = [];
  for (const batch of await lintBatches(dir, eslint)) {
    const t0 = Date.now();
    const r = await eslint.lintFiles(batch);
    results.push(...r);
    if (r.length === 0) continue;
    const problems = r.reduce((s, x) => s + x.errorCount + x.warningCount, 0);
    say(`lint ${batch.join(' ')}: ${r.length} file${r.length === 1 ? '' : 's'}, ${problems} problem${problems === 1 ? '' : 's'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const formatter = await eslint.loadFormatter('stylish');
  return { results, text: await formatter.format(results), errors: results.reduce((s, x) => s + x.errorCount + x.fatalErrorCount, 0) };
}

/**
 * npm test's two verdicts from this script's output and exit code (scripts/test-all.mjs), from its
 * last lines (`typecheck: no errors (…)`, `lint: N files, 0 errors (…)`): a check whose line is
 * missing (the script died or was stopped) failed, and so did one that linted no file.
 */
export function checkVerdicts(output, code) {
  const why = code === 'timeout' ? 'stopped' : `exit ${code}`;
  const typecheck = /^typecheck: (.*) \(([\d.]+) s\)$/mu.exec(output);
  const lint = /^lint: (\d+) files, (\d+) errors? \(([\d.]+) s\)$/mu.exec(output);
  const typeOk = typecheck?.[1] === 'no errors';
  // A non-zero exit with both lines clean is a failure of its own, counted on lint (the last).
  const lintOk = !!lint && Number(lint[1]) > 0 && lint[2] === '0' && (code === 0 || (!typeOk && code === 1));
  const lintSeconds = lint ? Number(lint[3]) - Number(typecheck?.[2] ?? 0) : 0;
  return [
    { name: 'typecheck', ok: typeOk, note: typeOk ? `${Number(typecheck[2]).toFixed(0)} s` : `failed (${typecheck ? typecheck[1] : why})` },
    { name: 'lint', ok: lintOk, note: lintOk ? `${lintSeconds.toFixed(0)} s` : `failed (${lint && Number(lint[1]) > 0 && lint[2] !== '0' ? `${lint[2]} errors in ${lint[1]} files` : lint && Number(lint[1]) === 0 ? 'no files linted' : why})` },
  ];
}

// Run as a script (not imported by its unit test, which is bundled without import.meta).
async function main() {
  const root = resolve(dirname(process.argv[1] ?? '.'), '..');
  const asked = process.argv.slice(2);
  const want = new Set(asked.length ? asked : ['typecheck', 'lint']);
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  let failed = false;
  const programs = await programsOf(root);
  console.log(`checks: ${programs.map((p) => `${p.config} (${p.program?.getRootFileNames().length ?? 0} files)`).join(', ')} built in ${secs()}`);
  if (want.has('typecheck')) {
    const errors = await typeErrors(root, programs, (line) => console.log(line));
    for (const e of errors) console.log(e.text);
    console.log(`typecheck: ${errors.length ? errors.map((e) => `${e.count} error${e.count > 1 ? 's' : ''} in ${e.config}`).join(', ') : 'no errors'} (${secs()})`);
    failed ||= errors.length > 0;
  }
  if (want.has('lint')) {
    const r = await lint(root, programs, (line) => console.log(line));
    if (r.text) console.log(r.text);
    console.log(`lint: ${r.results.length} files, ${r.errors} error${r.errors === 1 ? '' : 's'} (${secs()})`);
    failed ||= r.errors > 0 || r.results.length === 0;
  }
  process.exitCode = failed ? 1 : 0;
}

if (basename(process.argv[1] ?? '') === 'checks.mjs') {
  main().catch((e) => {
    console.error(`checks: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  });
}
