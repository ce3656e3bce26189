/** The notices of one source: one per code, replaced when a later pass knows more. */
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

const count = new Intl.NumberFormat('en-US');

/** "row 1,234 (line 1,235)": where a person finds the place, in the table and in a text editor. */
export function place(row: number, line: number): string {
  return `row ${count.format(row)} (line ${count.format(line)})`;
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return count.format(n);
}
