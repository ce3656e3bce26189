/**
 * What a command's caller (another command, a view, a test) may pass to a run, and the one place
 * that keeps only that from whatever arrived: there is deliberately no way to approve the price.
 */

/**
 * What a caller may pass: inputs (validated exactly as typed ones), pages for paged reads, and
 * how to follow the call. There is deliberately no way to approve the price.
 */
export interface RunArgs {
  readonly inputs?: Record<string, unknown>;
  /** Paged reads (activity, token creators): how many pages, instead of asking. */
  readonly pages?: number | 'all';
  /** false: wait silently and return the settled job. */
  readonly notify?: boolean;
  /** false: return as soon as the job is accepted and tracked (it completes in the background). */
  readonly wait?: boolean;
  readonly open?: boolean;
  /** The `.waquery.json` a query runs from: its last count is kept for it (an estimate, never a price). */
  readonly queryFile?: string;
}

/** Keeps only what a caller may say (see RunArgs); anything else, such as `yes`, is dropped. */
export function runArgsFrom(raw: unknown): RunArgs {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const inputs = r.inputs && typeof r.inputs === 'object' && !Array.isArray(r.inputs) ? (r.inputs as Record<string, unknown>) : undefined;
  const pages = r.pages === 'all' || (typeof r.pages === 'number' && Number.isInteger(r.pages) && r.pages > 0) ? (r.pages as number | 'all') : undefined;
  const bool = (k: string): boolean | undefined => (typeof r[k] === 'boolean' ? (r[k] as boolean) : undefined);
  const queryFile = typeof r.queryFile === 'string' ? r.queryFile : undefined;
  return { inputs, pages, notify: bool('notify'), wait: bool('wait'), open: bool('open'), ...(queryFile !== undefined ? { queryFile } : {}) };
}
