// Moves every user-facing string of package.json into package.nls.json (issue 26: localisable), so
// a translation is one more package.nls.<lang>.json beside it. Idempotent: a string already written
// as %key% stays; a new literal (a command added since) gets its key from its id. Run by
// `npm run sync`; test/unit/house/nls.test.ts fails on a literal left in package.json.
//   node scripts/nls.mjs           rewrite package.json and package.nls.json
//   node scripts/nls.mjs --check   exit 1 (listing them) when a literal is left
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { userFacingStrings } from './nlsPaths.mjs';

/** Moves the literals (or, with check, lists them and exits 1 when there are any). */
export function moveStrings(check = false) {
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const nls = existsSync('package.nls.json') ? JSON.parse(readFileSync('package.nls.json', 'utf8')) : {};
const literals = [];
for (const s of userFacingStrings(pkg)) {
  const v = s.get();
  if (typeof v !== 'string' || /^%[^%\s]+%$/u.test(v)) continue;
  literals.push(s.key);
  if (check) continue;
  // A literal is the newest text for its key (a title edited since it was moved).
  nls[s.key] = v;
  s.set(`%${s.key}%`);
}
if (check) {
  if (literals.length) {
    console.error(`nls: ${literals.length} literal strings in package.json (run npm run sync):\n  ${literals.join('\n  ')}`);
    process.exit(1);
  }
} else {
  // Keys no string uses any more are dropped, so the file holds exactly what package.json says.
  const used = new Set(userFacingStrings(pkg).map((s) => s.key));
  const out = Object.fromEntries(Object.entries(nls).filter(([k]) => used.has(k)));
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync('package.nls.json', `${JSON.stringify(out, null, 2)}\n`);
  console.log(`nls: ${literals.length} strings moved; package.nls.json holds ${Object.keys(out).length}.`);
}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) moveStrings(process.argv.includes('--check'));
