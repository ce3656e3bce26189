// The unit tier as npm test runs it (scripts/test-all.mjs): node:test over the files in the order
// given, several at a time, with the spec reporter on stdout and each file's seconds kept
// (scripts/unitDurations.mjs). Not `node --test a.js b.js`: that sorts the files by name whatever
// the order given, so the runner's long files (cli, mcp, callCli) started last and ran on alone
// for about a minute at the tier's end; run() keeps the order, longest first.
//   node scripts/test-unit.mjs --concurrency=4 --durations=test-results/unit-durations.json <files…>
// Exit 1 if a test failed.
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import unitDurations from './unitDurations.mjs';

const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const concurrency = Math.max(1, Number(opt('concurrency')) || 1);
const durations = opt('durations');

const stream = run({ files, concurrency });
let failed = false;
stream.on('test:fail', () => (failed = true));
stream.compose(new spec()).pipe(process.stdout);
if (durations) {
  mkdirSync(dirname(durations), { recursive: true });
  stream.compose(unitDurations).pipe(createWriteStream(durations));
}
stream.on('end', () => {
  process.exitCode = failed ? 1 : 0;
});
