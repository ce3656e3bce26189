/** The notices of one source: one per code, replaced when a later pass knows more. */
import { thousands } from '../numberText';
import type { NoticeCode, TableNotice } from './types';

export class NoticeBoard {
  private readonly byCode = new Map<NoticeCode, TableNotice>();

  constructor(private readonly changed: () => void) {}

  /** Notices in the order their codes first appeared. */
  get list(): TableNotice[] {
    return [...this.byCode.values()];
  }

  has(code: NoticeCode): boolean {
    return this.byCode.has(code);
  }

  /** Adds or replaces the notice with this code. */
  set(notice: TableNotice): void {
    this.byCode.set(notice.code, notice);
    this.changed();
  }
}

/** "row 1,234 (line 1,235)": where a person finds the place, in the table and in a text editor. */
export function place(row: number, line: number): string {
  return `row ${thousands(row)} (line ${thousands(line)})`;
}

/**
 * A count with thousands separators, written in JS (numberText.ts): an `Intl.NumberFormat` built at
 * load paged ~7 MB of ICU data into every table worker, 0.035 × the 206 MB quoted file's memory
 * budget (issue 34).
 */
export function formatCount(n: number): string {
  return thousands(n);
}
