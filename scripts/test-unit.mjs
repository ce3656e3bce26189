// The unit tier as npm test runs it (scripts/test-all.mjs): node:test over the files in the order
// given, several at a time, with the spec reporter on stdout and each file's seconds kept
// (scripts/unitDurations.mjs). Not `node --test a.js b.js`: that sorts the files by name whatever
// the order given, so the runner's long files (cli, mcp, callCli) started last and ran on alone
// for about a minute at the tier's end; run() keeps the order, longest first.
//   node scripts/test-unit.mjs --concurrency=4 --durations=test-results/unit-durations.json [--hold=<file,…>] <files…>
// --hold: these files start once a line `go` comes on stdin (or stdin ends): npm test holds the
// ones that run what apt-get installs (Python's pandas and nbformat) until the system packages are
// in, one at a time, and starts the others at once. The two runs report as one: one spec output,
// one summary.
// Exit 1 if a test failed.
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import unitDurations from './unitDurations.mjs';

const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const concurrency = Math.max(1, Number(opt('concurrency')) || 1);
const durations = opt('durations');
const hold = new Set((opt('hold') ?? '').split(',').filter(Boolean));
const now = files.filter((f) => !hold.has(f));
const later = files.filter((f) => hold.has(f));

/** A run's own summary (`ℹ tests N`, `ℹ pass N`, …): summed over both runs and said once at the end. */
const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/u;
const started = Date.now();
const merged = new PassThrough({ objectMode: true });
const totals = new Map();
let failed = false;
let runs = (now.length ? 1 : 0) + (later.length ? 1 : 0);

function feed(stream) {
  stream.on('data', (event) => {
    if (event.type === 'test:fail') failed = true;
    const top = event.data?.nesting === 0 && event.data?.file === undefined;
    if (top && event.type === 'test:plan') return;
    const m = top && event.type === 'test:diagnostic' ? SUMMARY.exec(event.data.message) : null;
    if (m) totals.set(m[1], (totals.get(m[1]) ?? 0) + Number(m[2]));
    else merged.write(event);
  });
  stream.on('end', () => {
    if (--runs > 0) return;
    for (const [k, v] of totals) merged.write({ type: 'test:diagnostic', data: { nesting: 0, message: `${k} ${k === 'duration_ms' ? Date.now() - started : v}` } });
    merged.end();
  });
}

merged.compose(new spec()).pipe(process.stdout);
if (durations) {
  mkdirSync(dirname(durations), { recursive: true });
  merged.compose(unitDurations).pipe(createWriteStream(durations));
}
merged.on('end', () => {
  process.exitCode = failed ? 1 : 0;
});
if (runs === 0) feed(run({ files: [], concurrency }));
if (now.length) feed(run({ files: now, concurrency }));
if (later.length) {
  const lines = createInterface({ input: process.stdin });
  let go = false;
  const start = () => {
    if (go) return;
    go = true;
    lines.close();
    process.stdin.destroy();
    // One at a time: they run beside the first run's files (a slot more, not --concurrency more,
    // on a machine already full); the three took 93 s one after another in the last quiet run.
    feed(run({ files: later, concurrency: 1 }));
  };
  lines.on('line', (l) => l.trim() === 'go' && start());
  lines.on('close', start);
}
