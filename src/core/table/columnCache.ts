/**
 * Typed columns built on demand and kept: each column is built once (again only to add its full
 * text), and the columns missing from one request are built together, in one pass.
 */
import type { ColumnNeed, TaskOptions, TypedColumn } from './types';

export class ColumnCache {
  private readonly built = new Map<number, TypedColumn>();
  private readonly building = new Map<number, { text: boolean; promise: Promise<TypedColumn> }>();

  /** @param build makes the given columns in one go, in the order given */
  constructor(private readonly build: (needs: readonly ColumnNeed[], options: TaskOptions) => Promise<TypedColumn[]>) {}

  /** The columns of `needs`, in order; builds those not built or being built (`options` go to that build). */
  get(needs: readonly ColumnNeed[], options: TaskOptions = {}): Promise<TypedColumn[]> {
    const wantText = new Map<number, boolean>();
    for (const n of needs) wantText.set(n.column, (wantText.get(n.column) ?? false) || n.text === true);
    const missing: ColumnNeed[] = [];
    for (const [column, text] of wantText) {
      const done = this.built.get(column);
      const pending = this.building.get(column);
      if ((done && (!text || done.fullText)) || (pending && (!text || pending.text))) continue;
      missing.push({ column, text });
    }
    if (missing.length > 0) {
      const pass = this.build(missing, options);
      missing.forEach((need, i) => {
        const promise = pass.then((cols) => {
          const col = cols[i] as TypedColumn;
          this.built.set(need.column, col);
          return col;
        });
        const entry = { text: need.text === true, promise };
        this.building.set(need.column, entry);
        // Forget the attempt either way: a success is in `built`, a failure may be retried.
        promise.finally(() => this.forget(need.column, entry)).catch(() => undefined);
      });
    }
    return Promise.all(
      needs.map((n) => this.building.get(n.column)?.promise ?? Promise.resolve(this.built.get(n.column) as TypedColumn)),
    );
  }

  private forget(column: number, entry: { promise: Promise<TypedColumn> }): void {
    if (this.building.get(column) === entry) this.building.delete(column);
  }
}
