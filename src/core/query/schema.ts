/**
 * The JSON Schema of a `.waquery.json` file, generated from the zod model (model.ts), so the
 * editor's structure checks and the client's validation rest on one source. `npm run sync`
 * writes it to QUERY_SCHEMA_PATH; a unit test fails when the committed file drifts from this.
 *
 * The JSON language service applies it through package.json `jsonValidation` (fileMatch
 * `*.waquery.json`) once `jsonLanguageParticipants` has told it to serve the `waquery` language.
 */
import { z } from 'zod';
import { queryModelSchemas } from '../spec/queryModel';

/** Where the generated schema lives in the repository (and in the .vsix). */
export const QUERY_SCHEMA_PATH = 'media/waquery.schema.json';

/**
 * The schema as a plain object. Draft 7, which every JSON language service reads in full.
 * Named definitions instead of zod's `__schema0`, so the service's messages and hovers read well.
 * The rules a JSON Schema cannot say (an operator's value shape: `between` takes [min, max]) stay
 * in zod and reach the editor through the query diagnostics (analyze.ts), which run the model.
 */
export function queryJsonSchema(): Record<string, unknown> {
  // The built schemas, not their stand-ins (src/core/lazySchema.ts): definitions are named by identity.
  const { AndGroup, Condition, Group, OrGroup, QueryFile, QueryNode } = queryModelSchemas();
  const ids = new Map<unknown, string>([
    [Condition, 'Condition'],
    [AndGroup, 'AndGroup'],
    [OrGroup, 'OrGroup'],
    [Group, 'Group'],
    [QueryNode, 'QueryNode'],
  ]);
  // The model's descriptions (.describe(), kept in zod's global registry) plus a name for each definition.
  const metadata = z.registry<Record<string, unknown>>();
  metadata.get = (schema) => {
    const id = ids.get(schema);
    const meta = z.globalRegistry.get(schema);
    return id === undefined ? meta : { ...meta, id };
  };
  const generated = z.toJSONSchema(QueryFile, { io: 'input', target: 'draft-7', metadata }) as Record<string, unknown>;
  const { $schema, ...rest } = withFileKeys(generated);
  return {
    $schema,
    title: 'Wallet Database query (.waquery.json)',
    description:
      'The JSON body sent to POST /wallet_database (or /altchain_wallet_database), plus keys starting with "$" that stay in the file. Generated from src/core/spec/queryModel.ts by `npm run sync`.',
    // VS Code's JSON language service: comments and trailing commas are part of the format (JSONC).
    allowComments: true,
    allowTrailingCommas: true,
    ...rest,
  };
}

/** What a `$` key may hold: anything (it stays in the file; model.ts withoutFileKeys). */
const FILE_KEYS = { '^\\$': {} } as const;

/**
 * The schema with `$` keys allowed at the root and in every group and condition, as the model
 * reads a file (withoutFileKeys drops them before the strict objects see it): zod's strict
 * objects say `additionalProperties: false`, which a pattern property lifts for `$` keys alone.
 */
function withFileKeys(schema: Record<string, unknown>): Record<string, unknown> {
  const definitions = schema.definitions as Record<string, Record<string, unknown>> | undefined;
  const lifted = Object.fromEntries(
    Object.entries(definitions ?? {}).map(([name, d]) => [name, d.type === 'object' ? { ...d, patternProperties: FILE_KEYS } : d]),
  );
  return { ...schema, patternProperties: FILE_KEYS, ...(definitions ? { definitions: lifted } : {}) };
}

/** The schema file's text, exactly as committed: 2-space JSON with a final newline. */
export function queryJsonSchemaText(): string {
  return `${JSON.stringify(queryJsonSchema(), null, 2)}\n`;
}
