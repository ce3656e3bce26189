import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { QUERY_SCHEMA_PATH, queryJsonSchema, queryJsonSchemaText } from '../../../../src/core/query/schema';
import { repoRoot } from '../../querySupport';

interface Manifest {
  contributes: {
    languages?: { id: string; extensions?: string[]; configuration?: string; icon?: { light: string; dark: string } }[];
    grammars?: { language: string; scopeName: string; path: string }[];
    jsonValidation?: { fileMatch: string | string[]; url: string }[];
    jsonLanguageParticipants?: { languageId: string; comments?: boolean }[];
    snippets?: { language: string; path: string }[];
  };
}

const root = repoRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

describe('query JSON Schema: generated from the zod model', () => {
  it(`the committed ${QUERY_SCHEMA_PATH} is exactly what the model generates (run \`npm run sync\` after changing the model)`, () => {
    const committed = readFileSync(join(root, QUERY_SCHEMA_PATH), 'utf8');
    assert.equal(committed, queryJsonSchemaText(), `${QUERY_SCHEMA_PATH} has drifted from src/core/spec/queryModel.ts: run \`npm run sync\``);
  });

  it('carries the model: required where and limit, the operators, the limit bounds, named recursive definitions', () => {
    const s = queryJsonSchema() as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { minimum?: number; maximum?: number; enum?: string[] }>;
      definitions: Record<string, { properties?: Record<string, { enum?: string[] }>; anyOf?: { $ref: string }[] }>;
      allowComments: boolean;
      allowTrailingCommas: boolean;
    };
    assert.deepEqual(s.required, ['where', 'limit']);
    assert.equal(s.additionalProperties, false);
    assert.equal(s.properties.limit?.minimum, 1);
    assert.equal(s.properties.limit?.maximum, 100_000);
    assert.deepEqual(s.properties.$chain?.enum, ['main', 'alt']);
    assert.deepEqual(s.definitions.Condition?.properties?.op?.enum, ['=', '!=', '>', '>=', '<', '<=', 'between', 'in']);
    assert.deepEqual(s.definitions.QueryNode?.anyOf?.map((r) => r.$ref), ['#/definitions/Condition', '#/definitions/AndGroup', '#/definitions/OrGroup']);
    assert.ok(s.allowComments && s.allowTrailingCommas, 'JSONC: comments and trailing commas allowed for the JSON language service');
  });

  it('a change to the model changes the text the drift test compares (the test can fail)', () => {
    const text = queryJsonSchemaText();
    assert.notEqual(text.replace('"maximum": 100000', '"maximum": 1000'), text);
  });

  it('package.json hands the schema to the JSON language service for the waquery language', () => {
    const c = manifest.contributes;
    const lang = c.languages?.find((l) => l.id === 'waquery');
    assert.deepEqual(lang?.extensions, ['.waquery.json']);
    assert.ok(lang?.configuration?.startsWith('./media/'), 'the language configuration ships in media/');
    assert.ok(lang?.icon?.light.startsWith('./media/icons/waquery'), 'a file icon');
    assert.deepEqual(c.jsonLanguageParticipants?.find((p) => p.languageId === 'waquery'), { languageId: 'waquery', comments: true });
    const v = c.jsonValidation?.find((j) => j.url === `./${QUERY_SCHEMA_PATH}`);
    assert.deepEqual(v?.fileMatch, '*.waquery.json');
    const g = c.grammars?.find((x) => x.language === 'waquery');
    assert.ok(g, 'a grammar');
    const grammar = JSON.parse(readFileSync(join(root, g.path), 'utf8')) as { scopeName: string; patterns: { include: string }[] };
    assert.equal(grammar.scopeName, g.scopeName);
    assert.deepEqual(grammar.patterns, [{ include: 'source.json.comments' }], 'JSON (with comments) highlighting, reused');
    // The query snippets come from a completion provider that knows where they land (querySnippets.test.ts),
    // not from a static file that cannot add the comma a list needs.
    assert.equal(c.snippets?.find((x) => x.language === 'waquery'), undefined, 'no static snippets for waquery');
  });
});
