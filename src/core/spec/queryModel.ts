/**
 * The Wallet Database query model (§2.5): nested AND/OR groups of conditions, a `limit`,
 * and optional sort and columns. One zod schema, shared by the catalog (client input),
 * the sandbox (server evaluation) and the `.waquery.json` language (JSON Schema + diagnostics).
 * The body names (`where`, `and`, `or`, `field`, `op`, `value`, `limit`, `sort`, `columns`)
 * are ours: the spec does not show them. The schemas are built on their first use (issue 34 item 1),
 * all together: queryModelSchemas.
 */
import { z } from 'zod';
import { l10n } from '../l10n';
import { lazySchema } from '../lazySchema';

export const OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'between', 'in'] as const;
export type Operator = (typeof OPERATORS)[number];

/** The most addresses a query may ask for (our bound; the bill follows matches, not this). */
export const MAX_QUERY_LIMIT = 100_000;

/** The query model's condition (built with the rest on first use: buildModel). */
function buildCondition() {
  const Scalar = z.union([z.number(), z.string(), z.boolean()]);
  return z
    .strictObject({
      field: z.string().min(1).describe('A queryable field, e.g. "winrate_30d" (see GET /wallet_database/columns).'),
      op: z.enum(OPERATORS).describe('Comparison: =, !=, >, >=, <, <=, between (value [min, max]) or in (value a list).'),
      value: z
        .union([Scalar, z.array(Scalar)])
        .describe('A number, string or boolean; [min, max] for between; a non-empty list for in.'),
    })
    .superRefine((c, ctx) => {
      if (c.op === 'between') {
        if (!Array.isArray(c.value) || c.value.length !== 2 || c.value.some((v) => typeof v !== 'number')) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: l10n.t('"between" takes [min, max], two numbers.') });
        }
      } else if (c.op === 'in') {
        if (!Array.isArray(c.value) || c.value.length === 0) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: l10n.t('"in" takes a non-empty list of values.') });
        }
      } else if (Array.isArray(c.value)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: l10n.t('"{0}" takes a single value, not a list.', c.op) });
      } else if (['>', '>=', '<', '<='].includes(c.op) && typeof c.value !== 'number') {
        ctx.addIssue({ code: 'custom', path: ['value'], message: l10n.t('"{0}" compares numbers; the value must be a number.', c.op) });
      }
    });
}
export type Condition = z.infer<ReturnType<typeof buildCondition>>;

interface AndGroup {
  and: QueryNode[];
}
interface OrGroup {
  or: QueryNode[];
}
type Group = AndGroup | OrGroup;
export type QueryNode = Condition | Group;

/** The JSON body sent to `/wallet_database` and `/altchain_wallet_database`. */
function buildBody(group: z.ZodType<Group>) {
  const SortKey = z.strictObject({
    field: z.string().min(1),
    dir: z.enum(['asc', 'desc']).default('desc'),
  });
  return z.strictObject({
    where: group.describe('The conditions: an {"and": [...]} or {"or": [...]} group, nested as deep as needed.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_QUERY_LIMIT)
      .describe('How many addresses to return at most. The bill follows the number of matches, not this limit.'),
    sort: z.array(SortKey).optional().describe('Order of the returned wallets.'),
    columns: z.array(z.string().min(1)).optional().describe('Fields to return for each wallet besides its address.'),
  });
}
export type QueryBody = z.infer<ReturnType<typeof buildBody>>;

/**
 * A `.waquery.json` file: the body plus file-only keys starting with `$`, never sent:
 * `$schema` (for editors) and `$chain` ("main" or "alt": which database the file targets) are
 * read; any other (`"$comment"`, at any depth) is the person's own and is dropped before this
 * schema sees the file (withoutFileKeys).
 */
function buildFile(body: ReturnType<typeof buildBody>) {
  return body.extend({
    $schema: z.string().optional(),
    $chain: z.enum(['main', 'alt']).optional().describe('Which chain the query runs on: "main" (default) or "alt".'),
  });
}
export type QueryFile = z.infer<ReturnType<typeof buildFile>>;

/** The model's schemas, built together (they refer to one another: the JSON Schema names them by identity, src/core/query/schema.ts). */
function buildModel() {
  const Condition = buildCondition();
  const AndGroup: z.ZodType<AndGroup> = z.strictObject({
    get and(): z.ZodArray<z.ZodType<QueryNode>> {
      return z.array(QueryNode).describe('Every condition or group in this list must hold.');
    },
  });
  const OrGroup: z.ZodType<OrGroup> = z.strictObject({
    get or(): z.ZodArray<z.ZodType<QueryNode>> {
      return z.array(QueryNode).describe('At least one condition or group in this list must hold.');
    },
  });
  const Group: z.ZodType<Group> = z.union([AndGroup, OrGroup]);
  const QueryNode: z.ZodType<QueryNode> = z.union([Condition, AndGroup, OrGroup]);
  const QueryBody = buildBody(Group);
  return { Condition, AndGroup, OrGroup, Group, QueryNode, QueryBody, QueryFile: buildFile(QueryBody) };
}

let model: ReturnType<typeof buildModel> | undefined;
/** The model's schemas themselves, built on the first use of any (issue 34 item 1), once. */
export function queryModelSchemas(): ReturnType<typeof buildModel> {
  return (model ??= buildModel());
}

export const Condition = lazySchema(() => queryModelSchemas().Condition);
export const QueryNode = lazySchema(() => queryModelSchemas().QueryNode);
export const QueryBody = lazySchema(() => queryModelSchemas().QueryBody);
export const QueryFile = lazySchema(() => queryModelSchemas().QueryFile);

/** True for a key that stays in the file and is never sent: one starting with `$`. */
function isFileKey(key: string): boolean {
  return key.startsWith('$');
}

/** The keys of the file's root that are read (the rest of its `$` keys are only kept in the file). */
const READ_FILE_KEYS: ReadonlySet<string> = new Set(['$schema', '$chain']);

/** A parsed query file with its `$` keys dropped at every depth, except the root's `$schema` and `$chain` (which QueryFile reads). */
export function withoutFileKeys(raw: unknown): unknown {
  const drop = (v: unknown, root: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => drop(x, false));
    if (v === null || typeof v !== 'object') return v;
    const kept = Object.entries(v).filter(([k]) => !isFileKey(k) || (root && READ_FILE_KEYS.has(k)));
    return Object.fromEntries(kept.map(([k, x]) => [k, drop(x, false)]));
  };
  return drop(raw, true);
}

/** The body to send for a query file: the file minus its `$` keys. */
export function bodyOfFile(file: QueryFile): QueryBody {
  const { $schema: _s, $chain: _c, ...body } = file;
  return body;
}

/** A canonical string of a body, equal for equal queries whatever their key order: the cache key. */
export function canonicalQuery(body: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .filter((k) => !isFileKey(k))
          .sort()
          .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(body));
}

export function isAnd(n: QueryNode): n is AndGroup {
  return typeof n === 'object' && 'and' in n;
}
