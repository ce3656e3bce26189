/**
 * What a pipeline cell shows after it runs: its status, the credits charged, the row count and a
 * few rows, as Markdown. Every value from a result (a column name, a cell) is data from a server or
 * a file, so each is escaped: no HTML tag, link, image or table break can come out of it.
 */

/** A cell's output, as the notebook shows it. */
export interface CellSummary {
  readonly status: string;
  /** Credits charged by this run for the cell (0 when its result was reused). */
  readonly credits: number;
  readonly rows: number;
  readonly columns: readonly string[];
  readonly preview: readonly (readonly string[])[];
  readonly file?: string;
}

/** Text made inert in Markdown: every character that could start markup is a backslash escape or an entity. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/gu, ' ')
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~"']/gu, (c) => `\\${c}`);
}

const MAX_CELL = 60;

function clip(s: string): string {
  return s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s;
}

/** The output's Markdown: one status line, then a small table of the first rows. */
export function summaryMarkdown(s: CellSummary): string {
  // A cell reused from disk charged nothing in this run: no credits beside its "(free)".
  const charged = s.credits === 0 ? '' : ` · ${s.credits.toLocaleString('en-US')} credits charged`;
  const lines = [`**${escapeMarkdown(s.status)}**${charged} · ${s.rows.toLocaleString('en-US')} rows`];
  if (s.file) lines.push('', `Result: ${escapeMarkdown(s.file)}`);
  if (s.columns.length > 0 && s.preview.length > 0) {
    lines.push('', `| ${s.columns.map((c) => escapeMarkdown(clip(c))).join(' | ')} |`, `| ${s.columns.map(() => '---').join(' | ')} |`);
    for (const r of s.preview) lines.push(`| ${s.columns.map((_, i) => escapeMarkdown(clip(r[i] ?? ''))).join(' | ')} |`);
    if (s.rows > s.preview.length) lines.push('', `… and ${(s.rows - s.preview.length).toLocaleString('en-US')} more rows: Open Result as Table.`);
  }
  return lines.join('\n');
}
