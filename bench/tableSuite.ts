/**
 * `npm run bench:table`: the table's benchmarks in one run, because issue 15 asks one command to
 * report every budget of the table and its analysis: the data path (tableBench.ts), the analysis
 * panel's profile, histogram and scatter payload (analysisBench.ts) and the compare of two results
 * (compareBench.ts). Each runs in its own process, one after the other (so none competes with
 * another for the two cores), its output passed through; then every PASS or FAIL line again, in
 * one block, so the verdicts need no scrolling. A bench that fails or crashes does not stop the
 * next one; the exit code is 1 when any line failed or any bench did not finish.
 *
 *   npm run bench:table                       # all three at full size
 *   npm run bench:table -- --rows 20000       # the arguments go to each bench (each ignores those it does not know)
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { verdictLines } from './verdicts';

const BENCHES = [
  { name: 'table data path', file: 'tableBench.js' },
  { name: 'analysis panel', file: 'analysisBench.js' },
  { name: 'compare and address sets', file: 'compareBench.js' },
] as const;

function run(file: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(__dirname, file), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const t0 = performance.now();
  const summary: string[] = [];
  let ok = true;
  for (const bench of BENCHES) {
    console.log(`\n## ${bench.name} (bench/${bench.file.replace(/\.js$/u, '.ts')})\n`);
    const r = await run(bench.file, args);
    const lines = verdictLines(r.output);
    summary.push(`${bench.name}:`, ...lines.map((l) => `  ${l}`));
    if (r.code !== 0 && !lines.some((l) => l.includes('FAIL'))) summary.push(`  FAIL  ${bench.file} exited with code ${String(r.code)} before its verdicts`);
    ok &&= r.code === 0;
  }
  const [l1, l5] = loadavg();
  console.log(
    `\n## Summary of npm run bench:table (${((performance.now() - t0) / 60_000).toFixed(1)} min, ${cpus().length} cores, load average ${(l1 ?? 0).toFixed(2)} / ${(l5 ?? 0).toFixed(2)} at the end)\n\n${summary.join('\n')}`,
  );
  if (!ok) process.exitCode = 1;
}

void main();
