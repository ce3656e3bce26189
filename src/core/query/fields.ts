/**
 * The queryable fields as the server lists them (`GET /wallet_database/columns` and the
 * second chain's twin), indexed for the editor: look-ups, the chain a field exists on only,
 * and the words a person reads in completions and hovers.
 */
import type { Chain } from '../spec/addresses';
import { escapeMarkdown, markdownCode } from '../markdown';
import { TIMEFRAME_LABEL, type Timeframe } from '../spec/metrics';
import type { ColumnInfo } from '../spec/wire';

/** What is known of each chain's fields; a chain is absent when its list could not be read. */
export interface ChainColumns {
  readonly main?: readonly ColumnInfo[];
  readonly alt?: readonly ColumnInfo[];
}

export const CHAIN_LABEL: Record<Chain, string> = { main: 'main chain', alt: 'second chain' };

export function otherChain(chain: Chain): Chain {
  return chain === 'main' ? 'alt' : 'main';
}

/** One chain's fields by name, with the other chain's for "exists only there". */
export class FieldIndex {
  private readonly byName: ReadonlyMap<string, ColumnInfo>;
  private readonly otherByName: ReadonlyMap<string, ColumnInfo> | undefined;

  constructor(
    readonly chain: Chain,
    readonly columns: readonly ColumnInfo[],
    other?: readonly ColumnInfo[],
  ) {
    this.byName = new Map(columns.map((c) => [c.name, c]));
    this.otherByName = other ? new Map(other.map((c) => [c.name, c])) : undefined;
  }

  /** The index of a chain, or undefined when that chain's list is not known. */
  static of(cols: ChainColumns | undefined, chain: Chain): FieldIndex | undefined {
    const own = cols?.[chain];
    return own ? new FieldIndex(chain, own, cols?.[otherChain(chain)]) : undefined;
  }

  get(name: string): ColumnInfo | undefined {
    return this.byName.get(name);
  }

  names(): IterableIterator<string> {
    return this.byName.keys();
  }

  /** The field on the other chain, when this chain does not have it. */
  onOtherChainOnly(name: string): ColumnInfo | undefined {
    return this.byName.has(name) ? undefined : this.otherByName?.get(name);
  }
}

/** The value kind a condition on this field compares: numbers, names (strings) or booleans. */
export function valueKind(c: ColumnInfo): 'number' | 'string' | 'boolean' {
  return c.type === 'integer' || c.type === 'number' ? 'number' : c.type;
}

/** The names a categorical field takes, when the server lists them (our sandbox does, as `values`). */
export function allowedValues(c: ColumnInfo): readonly string[] | undefined {
  const v = (c as Record<string, unknown>).values;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** "last 30 days" for "30d"; the raw timeframe when it is not one we know. */
function timeframeLabel(c: ColumnInfo): string | undefined {
  if (c.timeframe === undefined) return undefined;
  return TIMEFRAME_LABEL[c.timeframe as Timeframe] ?? c.timeframe;
}

/** The short line shown next to a completion: "30d · number (ratio)". */
export function fieldDetail(c: ColumnInfo): string {
  const type = c.kind && c.kind !== c.type ? `${c.type} (${c.kind})` : c.type;
  return [c.timeframe ?? (c.kind === 'category' ? 'no timeframe' : undefined), type].filter(Boolean).join(' · ');
}

/**
 * Markdown for a hover on a field: its description, timeframe and value type. Every string here
 * comes from the server's field list, so each is written as literal text (escapeMarkdown).
 */
export function fieldHoverMarkdown(c: ColumnInfo, chain: Chain): string {
  const lines = [`**${escapeMarkdown(c.name)}** — ${CHAIN_LABEL[chain]} Wallet Database field`, ''];
  if (c.description) lines.push(escapeMarkdown(c.description), '');
  const tf = timeframeLabel(c);
  lines.push(`- Timeframe: ${tf ? `${escapeMarkdown(tf)} (${markdownCode(c.timeframe ?? '')})` : 'none (not a windowed metric)'}`);
  lines.push(`- Value type: ${escapeMarkdown(c.type)}${c.kind && c.kind !== c.type ? ` (${escapeMarkdown(c.kind)})` : ''}`);
  if (c.group) lines.push(`- Group: ${escapeMarkdown(c.group)}`);
  const values = allowedValues(c);
  if (values) lines.push(`- Values: ${values.map((v) => markdownCode(JSON.stringify(v))).join(', ')}`);
  return lines.join('\n');
}
