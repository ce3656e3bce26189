/**
 * What a pipeline cell shows after it runs: its status, the credits charged, the row count and a
 * few rows, as Markdown. Every value from a result (a column name, a cell) is data from a server or
 * a file, so each is escaped (core/markdown.ts, the one Markdown escaping): no HTML tag, link, image
 * or table break can come out of it. "Not run" and "Stopped" quote a cell's text and the server's
 * message, escaped the same way (issue 30.13).
 */
import { escapeMarkdown } from '../markdown';
import { l10n } from '../l10n';
import { thousands } from '../numberText';

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

/** A cell that was not run, and why (a check's message, a plan line's words: text from the cell), as the notebook shows it. */
export function notRunMarkdown(why: string): string {
  return `**${l10n.t('Not run:')}** ${escapeMarkdown(why)}`;
}

/** A cell the run stopped at, and the message (often the server's), as the notebook shows it. */
export function stoppedMarkdown(message: string): string {
  return `**${l10n.t('Stopped:')}** ${escapeMarkdown(message)}`;
}

const MAX_CELL = 60;

function clip(s: string): string {
  return s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s;
}

/** The output's Markdown: one status line, then a small table of the first rows. */
export function summaryMarkdown(s: CellSummary): string {
  // A cell reused from disk charged nothing in this run: no credits beside its "(free)".
  const charged = s.credits === 0 ? '' : ` · ${thousands(s.credits)} credits charged`;
  const lines = [`**${escapeMarkdown(s.status)}**${charged} · ${thousands(s.rows)} rows`];
  if (s.file) lines.push('', `Result: ${escapeMarkdown(s.file)}`);
  if (s.columns.length > 0 && s.preview.length > 0) {
    lines.push('', `| ${s.columns.map((c) => escapeMarkdown(clip(c))).join(' | ')} |`, `| ${s.columns.map(() => '---').join(' | ')} |`);
    for (const r of s.preview) lines.push(`| ${s.columns.map((_, i) => escapeMarkdown(clip(r[i] ?? ''))).join(' | ')} |`);
    if (s.rows > s.preview.length) lines.push('', `… and ${thousands(s.rows - s.preview.length)} more rows: Open Result as Table.`);
  }
  return lines.join('\n');
}
