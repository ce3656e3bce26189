// A node:test reporter beside the spec one (scripts/test-unit.mjs): each unit file's seconds (its
// top-level tests, which run one after another), written as JSON at the end. The next run starts
// the longest files first, so a long file started last does not keep the tier running alone: the
// unit tier runs several files at a time, in the order given, and the runner's three longest files
// (cli, mcp, callCli) sort last by name.
import { relative } from 'node:path';

export default async function* unitDurations(source) {
  const seconds = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = relative(process.cwd(), event.data.file);
      seconds[file] = Math.round(((seconds[file] ?? 0) + (event.data.details?.duration_ms ?? 0) / 1000) * 10) / 10;
    }
  }
  yield `${JSON.stringify(seconds, null, 2)}\n`;
}
