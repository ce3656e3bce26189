/**
 * npm test's typecheck and lint (scripts/checks.mjs) build each tsconfig's program once and lint
 * with it (typescript-eslint's parserOptions.programs) instead of `tsc` and `eslint .` each building
 * their own: what they report must be what the two commands report. On a small project of its own
 * (its tsconfig, and an eslint.config.mjs with a type-aware rule): tsc's error, the type-aware
 * rule's error (it needs the program's types), a folder at a time, and what the config ignores left
 * out.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { checkVerdicts, lint, programsOf, typeErrors } from '../../../scripts/checks.mjs';

/** The repository's root: found upwards, as this file is bundled into out/. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    try {
      if (require.resolve('typescript-eslint', { paths: [d] })) return d;
    } catch {
      // not here
    }
  }
  throw new Error('typescript-eslint is not installed');
}

describe("npm test's typecheck and lint on one program per tsconfig", () => {
  const dir = mkdtempSync(join(tmpdir(), 'wa-checks-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const tsEslint = pathToFileURL(require.resolve('typescript-eslint', { paths: [repoRoot()] })).href;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  // skipLibCheck as the repository's tsconfig has it: checking TypeScript's own lib files was half this file's CPU.
  write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', types: [] }, include: ['src/**/*.ts'] }));
  write(
    'eslint.config.mjs',
    [
      `import tseslint from ${JSON.stringify(tsEslint)};`,
      'export default tseslint.config(',
      "  { ignores: ['out/'] },",
      '  ...tseslint.configs.recommended,',
      "  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } }, rules: { '@typescript-eslint/no-floating-promises': 'error' } },",
      ');',
    ].join('\n'),
  );
  write('src/ok.ts', 'export const ok = (n: number): number => n + 1;\n');
  write('src/jobs/poll.ts', 'async function poll(): Promise<void> {}\nexport function start(): void {\n  poll();\n}\n');
  write('src/types/wrong.ts', "export const n: number = 'one';\n");
  write('out/built.ts', 'async function f(): Promise<void> {}\nf();\n');

  // Built once for both checks, as scripts/checks.mjs builds them once for typecheck and lint.
  let built: ReturnType<typeof programsOf> | undefined;
  const programsOnce = (): ReturnType<typeof programsOf> => (built ??= programsOf(dir, ['tsconfig.json']));

  it('reports what tsc reports, from the same programs', async () => {
    const programs = await programsOnce();
    const errors = await typeErrors(dir, programs);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.count, 1);
    assert.match(errors[0]?.text ?? '', /src\/types\/wrong\.ts.*TS2322/u);
  });

  it('runs the type-aware rules on those programs, a folder at a time, without the ignored files', async () => {
    const programs = await programsOnce();
    const said: string[] = [];
    const r = await lint(dir, programs, (line) => said.push(line));
    const files = r.results.map((x) => resolve(x.filePath).slice(resolve(dir).length + 1)).sort();
    assert.deepEqual(files, ['src/jobs/poll.ts', 'src/ok.ts', 'src/types/wrong.ts']);
    const poll = r.results.find((x) => x.filePath.endsWith('poll.ts'));
    assert.deepEqual(
      poll?.messages.map((m) => `${m.ruleId ?? ''}:${m.line}`),
      ['@typescript-eslint/no-floating-promises:3'],
    );
    assert.equal(r.errors, 1);
    assert.match(r.text, /no-floating-promises/u);
    assert.deepEqual(
      said.map((l) => l.replace(/ \([\d.]+ s\)$/u, '')),
      ['lint src/*.*: 1 file, 0 problems', 'lint src/jobs: 1 file, 1 problem', 'lint src/types: 1 file, 0 problems'],
    );
  });

  it("gives npm test each check's own verdict from the script's last lines", () => {
    const clean = 'typecheck: no errors (70.2 s)\nlint: 578 files, 0 errors (110.4 s)\n';
    const verdict = (output: string, code: number | string | null): string => checkVerdicts(output, code).map((c) => `${c.name} ${c.ok ? 'ok' : 'failed'} ${c.note}`).join('; ');
    assert.equal(verdict(clean, 0), 'typecheck ok 70 s; lint ok 40 s');
    assert.equal(verdict(clean.replace('no errors', '2 errors in tsconfig.json'), 1), 'typecheck failed failed (2 errors in tsconfig.json); lint ok 40 s');
    assert.equal(verdict(clean.replace('0 errors', '3 errors'), 1), 'typecheck ok 70 s; lint failed failed (3 errors in 578 files)');
    assert.equal(verdict('typecheck: no errors (70.2 s)\nlint src/core: 170 files, 0 problems (27.4 s)\n', 'timeout'), 'typecheck ok 70 s; lint failed failed (stopped)');
    assert.equal(verdict('checks: tsconfig.json (532 files)\n', 'timeout'), 'typecheck failed failed (stopped); lint failed failed (stopped)');
    assert.equal(verdict(clean, 1), 'typecheck ok 70 s; lint failed failed (exit 1)');
    assert.equal(verdict(clean.replace('578 files', '0 files'), 0), 'typecheck ok 70 s; lint failed failed (no files linted)');
  });
});
