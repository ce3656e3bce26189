/**
 * Input fields of an endpoint: a zod schema for validation plus what a prompt needs
 * (label, description, kind, limits, options). `key` is our name for the field, used by the
 * rest of the code; `wire` is its name in the query string, JSON body or path. The spec does
 * not show the wire names, so they are ours and live only in the catalog.
 */
import { z } from 'zod';
import { addressListSchema, addressSchema, type Chain } from './addresses';

export type FieldKind =
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
  /** Validates one value of this field (not undefined: optionality is applied by the endpoint). */
  readonly schema: z.ZodType;
}

type Base = { key: string; label: string; description: string; wire?: string; optional?: boolean };

function spec(b: Base, rest: Omit<FieldSpec, 'key' | 'wire' | 'label' | 'description' | 'optional'>): FieldSpec {
  return { key: b.key, wire: b.wire ?? b.key, label: b.label, description: b.description, optional: b.optional ?? false, ...rest };
}

export function addressField(b: Base & { chain: Chain }): FieldSpec {
  return spec(b, { kind: 'address', chain: b.chain, schema: addressSchema(b.chain) });
}

export function addressListField(b: Base & { chain: Chain; max: number; what: string; min?: number }): FieldSpec {
  let schema = addressListSchema(b.chain, b.max, b.what);
  if (b.min && b.min > 1) {
    const min = b.min;
    schema = schema.refine((l) => l.length >= min, { message: `Give at least ${min} distinct ${b.what}.` });
  }
  return spec(b, { kind: 'addressList', chain: b.chain, min: b.min ?? 1, max: b.max, schema });
}

export function integerField(b: Base & { min: number; max: number; default?: number }): FieldSpec {
  const schema = z
    .number({ error: `${b.label} must be a whole number.` })
    .int(`${b.label} must be a whole number.`)
    .min(b.min, `${b.label} must be at least ${b.min.toLocaleString('en-US')}.`)
    .max(b.max, `${b.label} must be at most ${b.max.toLocaleString('en-US')}.`);
  return spec(b, { kind: 'integer', min: b.min, max: b.max, default: b.default, schema });
}

export function numberField(b: Base & { min?: number; max?: number }): FieldSpec {
  let schema = z.number({ error: `${b.label} must be a number.` }).finite(`${b.label} must be a finite number.`);
  if (b.min !== undefined) schema = schema.min(b.min, `${b.label} must be at least ${b.min}.`);
  if (b.max !== undefined) schema = schema.max(b.max, `${b.label} must be at most ${b.max}.`);
  return spec(b, { kind: 'number', min: b.min, max: b.max, schema });
}

/** Unix time in seconds. Prompts accept ISO dates too and convert. */
export function timestampField(b: Base): FieldSpec {
  const schema = z
    .number({ error: `${b.label} must be a Unix time in seconds.` })
    .int(`${b.label} must be a whole number of seconds.`)
    .min(1_262_304_000, `${b.label} is before 2010: give Unix seconds, not milliseconds or a year.`)
    .max(4_102_444_800, `${b.label} is after 2100: give Unix seconds, not milliseconds.`);
  return spec(b, { kind: 'timestamp', schema });
}

export function enumField(b: Base & { options: readonly [string, ...string[]]; default?: string }): FieldSpec {
  const schema = z.enum(b.options, { error: `${b.label} must be one of: ${b.options.join(', ')}.` });
  return spec(b, { kind: 'enum', options: b.options, default: b.default, schema });
}

export function textField(b: Base & { min: number; max: number; pattern?: RegExp; patternMessage?: string }): FieldSpec {
  let schema = z
    .string()
    .trim()
    .min(b.min, `${b.label} needs at least ${b.min} characters.`)
    .max(b.max, `${b.label} takes at most ${b.max} characters.`);
  if (b.pattern) schema = schema.regex(b.pattern, b.patternMessage ?? `${b.label} has characters that are not allowed.`);
  return spec(b, { kind: 'text', min: b.min, max: b.max, schema });
}

export function textListField(b: Base & { min: number; max: number }): FieldSpec {
  const schema = z.array(z.string().min(1)).min(b.min).max(b.max);
  return spec(b, { kind: 'textList', min: b.min, max: b.max, schema });
}

export function customField(
  b: Base & { kind: FieldKind; schema: z.ZodType; min?: number; max?: number; chain?: Chain; options?: readonly string[] },
): FieldSpec {
  return spec(b, { kind: b.kind, schema: b.schema, min: b.min, max: b.max, chain: b.chain, options: b.options });
}
