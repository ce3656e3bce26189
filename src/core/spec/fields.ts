/**
 * Input fields of an endpoint: a zod schema for validation plus what a prompt needs
 * (label, description, kind, limits, options). `key` is our name for the field, used by the
 * rest of the code; `wire` is its name in the query string, JSON body or path. The spec does
 * not show the wire names, so they are ours and live only in the catalog.
 *
 * Every field states its whole rule in one sentence (`rule`), e.g. "Hours must be a whole number
 * from 1 to 24.": it is the message for any wrong value, whatever is wrong with it (a string, a
 * fraction, a number out of range). "X is required." is said only when X is missing
 * (validateInput in ./catalog).
 *
 * A field's schema is built on its first use, not with the catalog (issue 34 item 1): the catalog's
 * hundred-odd zod schemas were built when the features loaded, tens of milliseconds before any
 * input was checked. `schema` is a getter that builds it once.
 */
import { z } from 'zod';
import { addressListSchema, addressRule, addressSchema, type Chain } from './addresses';
import { isPackedList } from './packedList';
import { thousands } from '../numberText';

type FieldKind =
  | 'address'
  | 'addressList'
  | 'integer'
  | 'number'
  | 'enum'
  | 'timestamp'
  | 'text'
  | 'tokenWindows'
  | 'query'
  | 'textList';

export interface FieldSpec {
  readonly key: string;
  /** Name on the wire. `*` (only for a `query` field) means "this field is the whole JSON body". */
  readonly wire: string;
  readonly label: string;
  readonly description: string;
  readonly kind: FieldKind;
  readonly chain?: Chain;
  readonly optional: boolean;
  readonly default?: string | number;
  readonly options?: readonly string[];
  /** Bounds: of the value for numbers, of the length for lists and text. */
  readonly min?: number;
  readonly max?: number;
  /** A text field's form, as regular-expression text (its schema holds it too): for code generated in another language. */
  readonly pattern?: string;
  /** The field's whole rule in one sentence, naming the field: the message for a wrong value. */
  readonly rule: string;
  /** Validates one value of this field (not undefined: optionality is applied by the endpoint). */
  readonly schema: z.ZodType;
}

type Base = { key: string; label: string; description: string; wire?: string; optional?: boolean };

/** A field whose schema `build` makes on the first read of `schema`, once. */
function spec(b: Base, rest: Omit<FieldSpec, 'key' | 'wire' | 'label' | 'description' | 'optional' | 'schema'>, build: () => z.ZodType): FieldSpec {
  let built: z.ZodType | undefined;
  return {
    key: b.key, wire: b.wire ?? b.key, label: b.label, description: b.description, optional: b.optional ?? false, ...rest,
    get schema(): z.ZodType {
      return (built ??= build());
    },
  };
}

export function addressField(b: Base & { chain: Chain }): FieldSpec {
  const rule = `${b.label} must be ${addressRule(b.chain)}.`;
  return spec(b, { kind: 'address', chain: b.chain, rule }, () => addressSchema(b.chain, rule));
}

export function addressListField(b: Base & { chain: Chain; max: number; what: string; min?: number }): FieldSpec {
  const min = b.min ?? 1;
  const kind = b.chain === 'alt' ? 'second-chain (0x)' : 'base58';
  const rule = `${b.label} must be a list of ${thousands(min)} to ${thousands(b.max)} ${kind} addresses.`;
  return spec(b, { kind: 'addressList', chain: b.chain, min, max: b.max, rule }, () => {
    const schema = addressListSchema(b.chain, b.max, rule);
    return min > 1 ? schema.refine((l) => l.length >= min, { error: (iss) => `${rule} This list has ${listLength(iss.input)} distinct ${b.what}.` }) : schema;
  });
}

function listLength(v: unknown): string {
  return Array.isArray(v) || isPackedList(v) ? thousands(v.length) : '0';
}

export function integerField(b: Base & { min: number; max: number; default?: number }): FieldSpec {
  const rule = `${b.label} must be a whole number from ${thousands(b.min)} to ${thousands(b.max)}.`;
  return spec(b, { kind: 'integer', min: b.min, max: b.max, default: b.default, rule }, () =>
    z.number({ error: rule }).int({ error: rule }).min(b.min, { error: rule }).max(b.max, { error: rule }),
  );
}

export function numberField(b: Base & { min?: number; max?: number }): FieldSpec {
  const range =
    b.min !== undefined && b.max !== undefined ? ` from ${thousands(b.min)} to ${thousands(b.max)}`
    : b.min !== undefined ? ` of at least ${thousands(b.min)}`
    : b.max !== undefined ? ` of at most ${thousands(b.max)}`
    : '';
  const rule = `${b.label} must be a number${range}.`;
  return spec(b, { kind: 'number', min: b.min, max: b.max, rule }, () => {
    let schema = z.number({ error: rule });
    if (b.min !== undefined) schema = schema.min(b.min, { error: rule });
    if (b.max !== undefined) schema = schema.max(b.max, { error: rule });
    return schema;
  });
}

/** Unix seconds accepted for a time: 2010-01-01 to 2100-01-01 (UTC). A millisecond time is far above. */
const UNIX_MIN = 1_262_304_000;
const UNIX_MAX = 4_102_444_800;

/**
 * A Unix time in seconds, named `label` in its messages: the one schema for every time input
 * (timestamp fields, and each window of tokensoverlap). Prompts accept ISO dates too and convert.
 */
export function unixSecondsSchema(label: string): z.ZodType<number> {
  const rule = `${label} must be a Unix time in seconds between 2010 and 2100`;
  const message = (iss: { input?: unknown }): string => {
    const v = iss.input;
    const ms = typeof v === 'number' && Number.isFinite(v) && v / 1000 >= UNIX_MIN && v / 1000 <= UNIX_MAX;
    return ms ? `${rule}; ${v} looks like milliseconds.` : `${rule}.`;
  };
  return z.number({ error: message }).int({ error: message }).min(UNIX_MIN, { error: message }).max(UNIX_MAX, { error: message });
}

export function timestampField(b: Base): FieldSpec {
  return spec(b, { kind: 'timestamp', rule: `${b.label} must be a Unix time in seconds between 2010 and 2100.` }, () => unixSecondsSchema(b.label));
}

export function enumField(b: Base & { options: readonly [string, ...string[]]; default?: string }): FieldSpec {
  const rule = `${b.label} must be one of: ${b.options.join(', ')}.`;
  return spec(b, { kind: 'enum', options: b.options, default: b.default, rule }, () => z.enum(b.options, { error: rule }));
}

/** `rule` replaces the default "X must be MIN to MAX characters." when the text has a form (a pattern). */
export function textField(b: Base & { min: number; max: number; pattern?: RegExp; rule?: string }): FieldSpec {
  const rule = b.rule ?? `${b.label} must be ${thousands(b.min)} to ${thousands(b.max)} characters.`;
  return spec(b, { kind: 'text', min: b.min, max: b.max, rule, ...(b.pattern ? { pattern: b.pattern.source } : {}) }, () => {
    const schema = z.string({ error: rule }).trim().min(b.min, { error: rule }).max(b.max, { error: rule });
    return b.pattern ? schema.regex(b.pattern, { error: rule }) : schema;
  });
}

/** A field with its own schema, which `schema` builds on first use; `rule` is its whole rule in one sentence, said for a value of the wrong type. */
export function customField(
  b: Base & { kind: FieldKind; schema: () => z.ZodType; rule: string; min?: number; max?: number; chain?: Chain; options?: readonly string[] },
): FieldSpec {
  return spec(b, { kind: b.kind, rule: b.rule, min: b.min, max: b.max, chain: b.chain, options: b.options }, b.schema);
}
