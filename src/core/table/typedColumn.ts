/** Builds a TypedColumn cell by cell; shared by every source. */
import { parseNumberText } from './numbers';
import { CellKind, type TypedColumn } from './types';

export class TypedColumnBuilder {
  readonly numbers: Float64Array;
  readonly kinds: Uint8Array;
  private texts: string[] | undefined;
  private readonly fullText: string[] | undefined;
  private emptyCount = 0;
  private numberCount = 0;
  private textCount = 0;

  constructor(
    readonly column: number,
    private readonly rows: number,
    withFullText: boolean,
  ) {
    this.numbers = new Float64Array(rows).fill(NaN);
    this.kinds = new Uint8Array(rows);
    this.fullText = withFullText ? new Array<string>(rows).fill('') : undefined;
  }

  /** True when the builder also wants the text of number cells. */
  get wantsFullText(): boolean {
    return this.fullText !== undefined;
  }

  empty(_r: number): void {
    this.emptyCount++;
  }

  number(r: number, value: number, text?: string): void {
    this.numbers[r] = value;
    this.kinds[r] = CellKind.Number;
    this.numberCount++;
    if (this.fullText && text !== undefined) this.fullText[r] = text;
  }

  text(r: number, text: string): void {
    this.kinds[r] = CellKind.Text;
    this.textCount++;
    this.texts ??= new Array<string>(this.rows).fill('');
    this.texts[r] = text;
    if (this.fullText) this.fullText[r] = text;
  }

  /** Classifies a cell given as text (sources that hold strings). */
  cell(r: number, text: string): void {
    if (text === '') this.empty(r);
    else {
      const n = parseNumberText(text);
      if (Number.isNaN(n)) this.text(r, text);
      else this.number(r, n, text);
    }
  }

  finish(): TypedColumn {
    // A column without numbers has the text of every cell already ('' for empty ones).
    const fullText = this.fullText ?? (this.numberCount === 0 ? (this.texts ?? new Array<string>(this.rows).fill('')) : undefined);
    return {
      column: this.column,
      numbers: this.numbers,
      kinds: this.kinds,
      emptyCount: this.emptyCount,
      numberCount: this.numberCount,
      textCount: this.textCount,
      texts: this.texts,
      fullText,
    };
  }
}
