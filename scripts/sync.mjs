// Writes what is derived from src/core: package.json's endpoint commands and the README's endpoint
// table (from the catalog), and the JSON Schema of .waquery.json files (from the zod query model).
// Run after editing src/core/spec/catalog.ts or src/core/spec/queryModel.ts: `npm run sync`. Unit tests fail until it is run.
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { moveStrings } from './nls.mjs';
import { localise } from './l10n.mjs';
import { COMMANDS_END, COMMANDS_START, commandsTable } from './commandsTable.mjs';

async function load(entry) {
  const r = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, packages: 'external', logLevel: 'error' });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', r.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
  return mod.exports;
}

const { endpointCommands, languageModelTools, ENDPOINT_COMMAND_PREFIX } = await load('src/core/manifest/manifest.ts');
const { endpointTable, ENDPOINT_TABLE_START, ENDPOINT_TABLE_END } = await load('src/core/manifest/docs.ts');
const { queryJsonSchemaText, QUERY_SCHEMA_PATH } = await load('src/core/query/schema.ts');

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const own = pkg.contributes.commands.filter((c) => !c.command.startsWith(ENDPOINT_COMMAND_PREFIX));
pkg.contributes.commands = [...own, ...endpointCommands()];
// The agents' tools (src/core/agents/declarations.ts), all generated.
pkg.contributes.languageModelTools = languageModelTools();
writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
// The titles just written (and any new literal) go to package.nls.json as %keys%.
moveStrings();

const readme = readFileSync('README.md', 'utf8');
const start = readme.indexOf(ENDPOINT_TABLE_START);
const end = readme.indexOf(ENDPOINT_TABLE_END);
if (start < 0 || end < 0) throw new Error(`README.md needs the markers ${ENDPOINT_TABLE_START} … ${ENDPOINT_TABLE_END}`);
let text = readme.slice(0, start) + endpointTable() + readme.slice(end + ENDPOINT_TABLE_END.length);
const cs = text.indexOf(COMMANDS_START);
const ce = text.indexOf(COMMANDS_END);
if (cs < 0 || ce < 0) throw new Error(`README.md needs the markers ${COMMANDS_START} … ${COMMANDS_END}`);
text = text.slice(0, cs) + commandsTable(JSON.parse(readFileSync('package.json', 'utf8')), JSON.parse(readFileSync('package.nls.json', 'utf8'))) + text.slice(ce + COMMANDS_END.length);
writeFileSync('README.md', text);
writeFileSync(QUERY_SCHEMA_PATH, queryJsonSchemaText());
// User-facing literals in the code go through l10n.t; l10n/bundle.l10n.json is rewritten.
localise();
console.log(`sync: ${endpointCommands().length} endpoint commands and ${languageModelTools().length} language-model tools in package.json; README endpoint table written; ${QUERY_SCHEMA_PATH} generated from the query model.`);
