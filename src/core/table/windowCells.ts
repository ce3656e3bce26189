/**
 * How much of a cell the grid's windows carry. A window of 60 rows with one 5–20 KB text cell a
 * row is 0.8 MB of text to decode in the worker and copy twice (worker → host → webview), which
 * took 30–45 ms of a window's 16 ms budget (issue 34); the grid never draws more than a column's
 * width of it. So the grid asks for cells cut to WINDOW_CELL_CHARS characters, marked cut, and
 * whatever needs the whole value (the cell's copy, the card, an address action, export, search)
 * reads it whole through the engine. The limit lives here, once; the grid's widest column and the
 * narrowest glyph it draws decide it.
 */

/** The widest a grid column can be dragged (the webview's columns.ts clamps to it). */
export const GRID_MAX_COLUMN_PX = 1200;
/** The narrowest character the grid's font draws ("i", "l", "." at the editor's 12–13 px): about 3 px. */
const NARROWEST_GLYPH_PX = 3;
/** Characters of a cell a grid window carries: more than the widest column can show. */
export const WINDOW_CELL_CHARS = Math.ceil(GRID_MAX_COLUMN_PX / NARROWEST_GLYPH_PX);

/**
 * Bytes of a cell to decode so that its first `chars` + 1 characters come out exact: a UTF-16 unit
 * takes at most 3 bytes (a doubled quote 2 for one), and the last few bytes may end mid-character.
 */
export function prefixBytes(chars: number): number {
  return 3 * (chars + 1) + 8;
}

/** The first `chars` UTF-16 units of `text`, never half a surrogate pair. */
export function cutText(text: string, chars: number): string {
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/**
 * Cuts, in place, every cell longer than `chars` and returns where they were (i × width + j, row
 * major), or undefined when none was: what the grid marks as cut.
 */
export function cutCells(cells: string[][], chars: number): number[] | undefined {
  let cut: number[] | undefined;
  for (let i = 0; i < cells.length; i++) {
    const row = cells[i] as string[];
    for (let j = 0; j < row.length; j++) {
      const text = row[j] as string;
      if (text.length <= chars) continue;
      row[j] = cutText(text, chars);
      (cut ??= []).push(i * row.length + j);
    }
  }
  return cut;
}
