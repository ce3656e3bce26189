/**
 * A pipeline priced as a whole before anything is sent (issue 24 item 2): each paid cell's price,
 * exact where its input size is known and otherwise an upper bound from the bounds the cells set
 * ("up to 5,000 wallets × 5 = 25,000"), and the total. Prices come from the catalog through
 * pricing.ts `quote`, the one owner, so the plan and the single-call price step cannot disagree.
 *
 * The person approves the plan once. What that approval allows (one approval per paid cell, bound
 * to the cell as written) is issued and judged by the one owner of approval,
 * src/core/money/approval.ts (planApprovals, cellRefusal): this module only plans.
 * Pure: no file access, no VS Code.
 */
import { findEndpoint, type Endpoint } from '../spec/catalog';
import { quote } from '../money/pricing';
import { fmtRefreshTime, nextRefresh } from '../spec/refresh';
import { asReference, type PipelineFile, type Reference } from './format';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';

interface PlanLine {
  readonly index: number;
  readonly cell: string;
  readonly endpointId: string;
  /** The price, or its upper bound when `exact` is false. */
  readonly credits: number;
  readonly exact: boolean;
  /** False when nothing bounds the price (a reference with no "top", a query's match count): the plan cannot be approved. */
  readonly bounded: boolean;
  /** Its result on disk is reused: nothing is sent, nothing charged. */
  readonly reused: boolean;
  /** As a person reads it: "up to 1,000 credits (at most 10 tokens × 100)". */
  readonly text: string;
}

export interface Plan {
  readonly lines: readonly PlanLine[];
  /** The sum of the lines (an upper bound unless every line is exact). */
  readonly total: number;
  readonly exact: boolean;
  /** The cells whose price has no bound; a plan with any cannot be approved. */
  readonly unbounded: readonly string[];
  /** "up to 26,050 credits" or "1,050 credits". */
  readonly totalText: string;
}

/** What the run knows before it starts: each cell whose result is on disk, with the number of values its list gives. */
interface PlanKnowledge {
  /** Cells whose result on disk will be reused (unless refreshed), with their list's size. */
  readonly onDisk?: ReadonlyMap<string, number>;
  /** Cells the person asked to run again even though their result is on disk. */
  readonly refresh?: ReadonlySet<string>;
  /**
   * Wallet Database cells whose very query has an answer from the current refresh period (the
   * query files' cache: src/core/query/runCache.ts lookup, the one rule): its match count, when
   * it ran, and how many wallets it returned. That answer opens free; refreshed, it prices the
   * query exactly.
   */
  readonly answers?: ReadonlyMap<string, KnownAnswer>;
  /** The time the plan is for (ms); default Date.now(). */
  readonly now?: number;
  /** Cells with a job already paid for in a run cancelled while it ran (its request id): its result is adopted, free. */
  readonly paid?: ReadonlyMap<string, string>;
}

/** A Wallet Database query's answer from the current refresh period. */
export interface KnownAnswer {
  readonly total: number;
  readonly at: number;
  /** Wallets in the answer (the limit cuts `total`). */
  readonly returned: number;
}

/** The query's `limit` (the most wallets its answer lists), when the inputs hold one. */
function queryLimit(inputs: Record<string, unknown>): number | undefined {
  const q = inputs.query;
  const limit = q && typeof q === 'object' && !Array.isArray(q) ? (q as Record<string, unknown>).limit : undefined;
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : undefined;
}

/** The most values a cell's result gives (its list), or undefined when nothing bounds it. */
function sizeBounds(file: PipelineFile, know: PlanKnowledge): Map<string, { n: number; exact: boolean } | undefined> {
  const out = new Map<string, { n: number; exact: boolean } | undefined>();
  for (const c of file.cells) {
    if (typeof c === 'string') continue;
    const disk = know.refresh?.has(c.name) ? undefined : know.onDisk?.get(c.name);
    if (disk !== undefined) out.set(c.name, { n: disk, exact: true });
    else if ('take' in c) out.set(c.name, refSize(c.take, out));
    else if ('filter' in c) {
      // A filter keeps some of its source's rows: the source's size bounds it; how many pass is known only once it ran.
      const src = out.get(c.filter.from);
      out.set(c.name, src && { n: src.n, exact: false });
    }
    else if ('call' in c) {
      // A Wallet Database answer lists at most its limit; an answer of this hour, exactly what it listed.
      const answer = know.refresh?.has(c.name) ? undefined : know.answers?.get(c.name);
      const limit = findEndpoint(c.call)?.price.kind === 'perMatch' ? queryLimit(c.inputs) : undefined;
      out.set(c.name, answer ? { n: answer.returned, exact: true } : limit === undefined ? undefined : { n: limit, exact: false });
    } else if ('sets' in c) {
      const parts = c.sets.of.map((x) => refSize(typeof x === 'string' ? { from: x } : x, out));
      const [first] = parts;
      if (c.sets.op === 'subtract') out.set(c.name, first && { n: first.n, exact: false });
      else if (c.sets.op === 'intersect') {
        const known = parts.filter((p): p is { n: number; exact: boolean } => p !== undefined);
        out.set(c.name, known.length === 0 ? undefined : { n: Math.min(...known.map((p) => p.n)), exact: false });
      } else out.set(c.name, parts.every((p) => p !== undefined) ? { n: parts.reduce((s, p) => s + (p?.n ?? 0), 0), exact: false } : undefined);
    }
  }
  return out;
}

/** A reference's size: its "top", or its source's size, whichever is smaller; exact only when the source is known and not cut. */
function refSize(r: Reference, sizes: ReadonlyMap<string, { n: number; exact: boolean } | undefined>): { n: number; exact: boolean } | undefined {
  const src = sizes.get(r.from);
  // A named column may hold fewer distinct values than the list: the source's size is then a bound.
  const srcExact = src?.exact === true && r.column === undefined;
  if (src === undefined) return r.top === undefined ? undefined : { n: r.top, exact: false };
  if (r.top === undefined || src.n <= r.top) return { n: src.n, exact: srcExact };
  return { n: r.top, exact: false };
}

/** The plan of a pipeline: one line per paid call cell, in file order, and the total. */
export function planPipeline(file: PipelineFile, know: PlanKnowledge = {}): Plan {
  const sizes = sizeBounds(file, know);
  const lines: PlanLine[] = [];
  file.cells.forEach((c, index) => {
    if (typeof c === 'string' || !('call' in c)) return;
    const ep = findEndpoint(c.call);
    if (!ep || ep.price.kind === 'free') return;
    if (!know.refresh?.has(c.name) && know.onDisk?.has(c.name)) {
      lines.push({ index, cell: c.name, endpointId: ep.id, credits: 0, exact: true, bounded: true, reused: true, text: l10n.t('its result on disk is reused: free') });
      return;
    }
    const paid = know.paid?.get(c.name);
    if (paid !== undefined) {
      lines.push({ index, cell: c.name, endpointId: ep.id, credits: 0, exact: true, bounded: true, reused: true, text: l10n.t('already paid ({0}, cancelled while it ran): its result is awaited, free', paid) });
      return;
    }
    if (ep.price.kind === 'perMatch') {
      lines.push(queryLine(ep, index, c.name, c.inputs, know.answers?.get(c.name), know.refresh?.has(c.name) === true, know.now ?? Date.now()));
      return;
    }
    lines.push(lineOf(ep, index, c.name, c.inputs, sizes));
  });
  const total = lines.reduce((s, l) => s + l.credits, 0);
  const exact = lines.every((l) => l.exact);
  const unbounded = lines.filter((l) => !l.bounded).map((l) => l.cell);
  return { lines, total, exact, unbounded, totalText: `${exact ? '' : 'up to '}${fmtCredits(total)}` };
}

function lineOf(ep: Endpoint, index: number, cell: string, inputs: Record<string, unknown>, sizes: ReadonlyMap<string, { n: number; exact: boolean } | undefined>): PlanLine {
  const base = { index, cell, endpointId: ep.id, reused: false };
  const rule = ep.price;
  if (rule.kind === 'perItem') {
    const ref = asReference(inputs[rule.field]);
    if (ref) {
      const size = refSize(ref, sizes);
      if (!size) {
        return { ...base, credits: 0, exact: false, bounded: false, text: l10n.t('no bound: its {0}s come from “{1}” with no "top"; add "top" to bound the price', rule.unit, ref.from) };
      }
      // The price of a list of that size, from the catalog's rule.
      const q = quote(ep, { ...inputs, [rule.field]: new Array<string>(size.n).fill('') });
      if (size.exact) return { ...base, credits: q.credits, exact: true, bounded: true, text: q.text };
      const n = thousands(size.n);
      return { ...base, credits: q.credits, exact: false, bounded: true, text: l10n.t('up to {0} (at most {1} {2}s × {3})', fmtCredits(q.credits), n, rule.unit, rule.credits) };
    }
  }
  const q = quote(ep, inputs, ep.paged ? { pages: 1 } : {});
  return { ...base, credits: q.atMost ?? q.credits, exact: q.exact, bounded: true, text: q.text };
}

/**
 * A Wallet Database cell's line. Its bill follows the number of matches whatever the limit (§4.2),
 * so nothing the cell sets bounds it: only an answer of the same query from this refresh period
 * does. That answer opens free (the rule of query files: QueryRunner, QueryRunCache); asked to
 * refresh, its match count prices the query exactly (pricing.ts quote, `knownMatches`/`matchesAt`).
 * With no such answer the line has no bound, and says how to get one.
 */
function queryLine(ep: Endpoint, index: number, cell: string, inputs: Record<string, unknown>, answer: KnownAnswer | undefined, refresh: boolean, now: number): PlanLine {
  const base = { index, cell, endpointId: ep.id };
  if (answer && !refresh) {
    const text = l10n.t('free: the same query\'s answer from {0} ({1} matching wallets) opens again; nothing is sent until the refresh at {2}', fmtRefreshTime(answer.at), thousands(answer.total), fmtRefreshTime(nextRefresh(answer.at)));
    return { ...base, credits: 0, exact: true, bounded: true, reused: true, text };
  }
  const q = quote(ep, inputs, answer ? { knownMatches: answer.total, matchesAt: answer.at, now } : {});
  if (q.exact) return { ...base, credits: q.credits, exact: true, bounded: true, reused: false, text: q.text };
  return {
    ...base, credits: 0, exact: false, bounded: false, reused: false,
    text: l10n.t('no bound: a Wallet Database query is billed {0} credits per matching wallet whatever its limit, and this query has no answer since the last hourly refresh to count its matches. Run this cell alone (Run Cell asks its price as for one query) or the same query from a .waquery.json file; Run All then opens that answer free until the next refresh', ep.price.kind === 'perMatch' ? ep.price.credits : 100),
  };
}

/** The plan as lines a person reads: one per paid cell, then the total. */
export function planText(plan: Plan): string[] {
  return [...plan.lines.map((l) => `${l.cell} (${l.endpointId}): ${l.text}`), l10n.t('Total: {0}', plan.totalText)];
}
