/** How the sidebar writes credits, times, inputs and tooltips. Pure, and cheap enough for 5,000 rows. */
import { findEndpoint, shortTitle } from '../spec/catalog';
import { escapeMarkdown, markdownCode, markdownCodeBlock } from '../markdown';
import type { HistoryItem } from './merge';
import { l10n } from '../l10n';
import { compactCredits, fmtCredits, thousands } from '../numberText';
import { isPackedList } from '../spec/packedList';

/** The endpoint's title as a row label (the palette's trailing "…" dropped); the id when unknown. */
export function endpointTitle(endpointId: string): string {
  const ep = findEndpoint(endpointId);
  return ep ? shortTitle(ep) : endpointId;
}

/**
 * The server shortens long lists in `GET /requests` to `{ count, first }`. For a summary,
 * such a value counts as a list of `count` items.
 */
function shortenedList(v: unknown): { count: number; first: readonly unknown[] } | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as { count?: unknown; first?: unknown };
  return typeof o.count === 'number' && Array.isArray(o.first) ? { count: o.count, first: o.first } : undefined;
}

/** Whether the inputs hold a list the server shortened (a re-run needs the full list). */
export function hasShortenedList(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).some((v) => shortenedList(v) !== undefined);
}

/**
 * "3 tokens", "5,000 wallets", "hours 6, format csv": the words of summariseInputs (src/core/jobs/job.ts,
 * a unit test keeps them equal), fast, and counting a list the server shortened in full.
 */
export function inputSummary(inputs: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k in inputs) {
    const v = inputs[k];
    const n = Array.isArray(v) || isPackedList(v) ? v.length : shortenedList(v)?.count;
    if (n !== undefined) parts.push(`${thousands(n)} ${n === 1 ? k.replace(/s$/u, '') : k}`);
    else if (k === 'query') parts.push('query');
    else if (typeof v === 'string' && v.length > 16) parts.push(`${k} ${v.slice(0, 4)}…${v.slice(-4)}`);
    else if (v !== undefined) parts.push(`${k} ${String(v)}`);
  }
  return parts.join(', ') || l10n.t('no inputs');
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "14:05" (local time). */
export function clock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "3 Mar, 14:05", with the year when it is not this year's. */
export function dayAndClock(ms: number, nowMs: number): string {
  const d = new Date(ms);
  const year = d.getFullYear() !== new Date(nowMs).getFullYear() ? ` ${d.getFullYear()}` : '';
  return `${d.getDate()} ${MONTHS[d.getMonth()] ?? ''}${year}, ${clock(ms)}`;
}

/** "2026-11-21 14:05:09" (local time), for tooltips. */
export function fullTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clock(ms)}:${pad(d.getSeconds())}`;
}

/** "1 min 5 s", "42 s", "2 h 3 min". */
function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** Inputs for a tooltip: every field; lists longer than `maxItems` cut, with their full count. */
export function inputsForTooltip(inputs: Record<string, unknown>, maxItems = 20): string {
  const view: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inputs)) {
    const short = shortenedList(v);
    const list = Array.isArray(v) ? v : isPackedList(v) ? v.items(0, maxItems) : short?.first;
    const count = Array.isArray(v) || isPackedList(v) ? v.length : short?.count;
    if (list && count !== undefined && (count > maxItems || short)) {
      view[k] = [...list.slice(0, maxItems), `… ${thousands(count)} in all`];
    } else view[k] = v;
  }
  return JSON.stringify(view, null, 2);
}

/**
 * A Requests row's tooltip, as Markdown: what ran, its state (`statusWords`, ours), cost, times,
 * requestId, result and every input. The requestId, error, result path, an unknown endpoint id and
 * the inputs come from the server's `GET /requests`: each is written as literal text or code.
 */
export function requestTooltipMarkdown(it: HistoryItem, statusWords: string): string {
  let md = `**${escapeMarkdown(endpointTitle(it.endpointId))}** — ${statusWords}\n\n`;
  md += `requestId: ${markdownCode(it.requestId)}  \n`;
  if (it.cost !== undefined) md += `cost: ${fmtCredits(it.cost)}${it.status === 'failed' ? ' (charged at acceptance)' : ''}  \n`;
  md += `accepted: ${fullTime(it.createdAt)}  \n`;
  if (it.completedAt) md += `${it.status === 'failed' ? 'failed' : 'done'}: ${fullTime(it.completedAt)} (after ${duration(it.completedAt - it.createdAt)})  \n`;
  if (it.resultPath) md += `result: ${markdownCode(it.resultPath)}  \n`;
  if (it.error) md += `error: ${escapeMarkdown(it.error)}  \n`;
  md += '\ninputs:\n\n';
  md += markdownCodeBlock(inputsForTooltip(it.inputs), 'json');
  return md;
}

/** What the credits tooltip shows (the Account view's facts, as far as it needs them). */
interface CreditsTooltipFacts {
  readonly keyState: string;
  readonly baseUrl: string;
  readonly balance?: { readonly value: number; readonly at: number };
  readonly used?: number;
  readonly quota: number;
  readonly reset?: { readonly date: Date; readonly estimated: boolean };
  readonly spendTotal: number;
}

/**
 * The credits status bar item's tooltip, as Markdown. The last error's message (it may quote
 * the server) and the base URL are written as literal text.
 */
export function creditsTooltipMarkdown(f: CreditsTooltipFacts, error: string | undefined, warnBelow: number, criticalBelow: number): string {
  const lines = ['**Wallet Analytics credits**', ''];
  if (f.balance) {
    lines.push(`Balance: **${fmtCredits(f.balance.value)}** (read ${fullTime(f.balance.at)})`);
    if (f.used !== undefined) lines.push(`Used this period: ${fmtCredits(f.used)} of ${thousands(f.quota)}`);
  } else {
    lines.push(`Balance: unknown${error ? ` — ${escapeMarkdown(error)}` : ''}`);
  }
  lines.push(`Quota: ${thousands(f.quota)} credits every 30 days`);
  if (f.reset) lines.push(`Next reset: ${f.reset.date.toISOString().slice(0, 10)}${f.reset.estimated ? ' (estimated)' : ''}`);
  if (f.spendTotal > 0) lines.push(`Spent by this extension this period: ${fmtCredits(f.spendTotal)}`);
  lines.push(`Warns below ${compactCredits(warnBelow)}, critical below ${compactCredits(criticalBelow)} (walletAnalytics.credits.*)`);
  lines.push(`Service: ${escapeMarkdown(f.baseUrl)}${f.keyState === 'sandbox' ? ' (sandbox: synthetic data, no real credits)' : ''}`);
  lines.push('', 'Click to open the Account view.');
  // Two trailing spaces: a line break in Markdown.
  return lines.join('  \n');
}
