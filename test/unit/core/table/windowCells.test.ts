/**
 * The grid's windows carry cells cut to a limit (issue 34: a window of long cells is bound by the
 * text it decodes and copies). What must hold: a cut cell is the first characters of the whole
 * one, exactly, whatever its quotes, line breaks or multi-byte characters, and is listed as cut;
 * a cell within the limit comes whole and unlisted; a window asked without a limit is never cut.
 * Checked against the same view's whole cells over random files, read at random sizes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openCsvFile, TableView } from '../../../../src/core/table';
import { cutCells, cutText, GRID_MAX_COLUMN_PX, prefixBytes, WINDOW_CELL_CHARS } from '../../../../src/core/table/windowCells';
import { randomCell, randomTable, rng, tempDir, tinyReads, toCsv, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

/** A cell of several random cells run together (quotes, commas, line breaks, 2–4 byte characters), up to a few hundred characters. */
function longCell(rand: () => number): string {
  const parts = Array.from({ length: Math.floor(rand() * 60) }, () => (rand() < 0.1 ? '😀漢' : randomCell(rand)));
  return parts.join(rand() < 0.5 ? ' ' : '"');
}

/** Checks every window of `view` cut to `chars` against the whole window. */
async function checkCut(view: TableView, chars: number, columns: number[], label: string): Promise<void> {
  const whole = await view.window(0, view.length, columns);
  assert.equal(whole.cut, undefined, `${label}: a window asked without a limit is never cut`);
  const cut = await view.window(0, view.length, columns, undefined, chars);
  const listed = new Set(cut.cut ?? []);
  whole.cells.forEach((row, i) =>
    row.forEach((text, j) => {
      const at = i * columns.length + j;
      const got = cut.cells[i]?.[j];
      if (text.length > chars) {
        assert.equal(got, cutText(text, chars), `${label}: row ${i}, column ${columns[j]} cut to ${chars}`);
        assert.ok(listed.has(at), `${label}: row ${i}, column ${columns[j]} is listed as cut`);
      } else {
        assert.equal(got, text, `${label}: row ${i}, column ${columns[j]} within ${chars} comes whole`);
        assert.ok(!listed.has(at), `${label}: row ${i}, column ${columns[j]} is not listed as cut`);
      }
    }),
  );
}

describe('table: windows with cells cut for the grid', () => {
  it('cuts each longer cell to its first characters, exactly, and lists it (random files, limits, column sets)', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rand = rng(seed);
      const t = randomTable(rand);
      const rows = t.rows.map((r) => r.map((v) => (rand() < 0.4 ? longCell(rand) : v)));
      const source = await openCsvFile(await writeTemp(dir, toCsv({ ...t, rows }, rand)), { readSizes: tinyReads(rand) });
      await source.indexed;
      const view = new TableView(source);
      const cols = source.columns.length;
      for (let k = 0; k < 4; k++) {
        const chars = 1 + Math.floor(rand() * 40);
        const columns = Array.from({ length: cols }, (_, c) => c).filter(() => rand() < 0.7);
        if (columns.length === 0) columns.push(Math.floor(rand() * cols));
        if (rand() < 0.5) columns.reverse();
        await checkCut(view, chars, columns, `seed ${seed}, limit ${chars}, columns ${columns.join(',')}`);
      }
      await source.close();
    }
  });

  it('reads a quoted cell closed by spaces near the limit, and a doubled quote across it, as the whole cell begins', async () => {
    const chars = 4;
    const bound = prefixBytes(chars);
    const spaces = ' '.repeat(bound);
    const pairs = '""'.repeat(bound);
    const text = `a,b,c\n"ab"${spaces},x,y\nq,"${'z'.repeat(bound - 2)}${pairs}tail",w\n"${pairs}",1,2\n`;
    const source = await openCsvFile(await writeTemp(dir, text));
    await source.indexed;
    const view = new TableView(source);
    for (const columns of [[0], [1], [0, 1], [1, 0], [0, 1, 2], [2, 1]]) await checkCut(view, chars, columns, `columns ${columns.join(',')}`);
    assert.deepEqual((await view.window(0, 3, [0, 1], undefined, chars)).cells, [['ab', 'x'], ['q', 'zzzz'], ['""""', '1']]);
    await source.close();
  });

  it('never splits a surrogate pair, and the grid limit covers its widest column', () => {
    assert.equal(cutText('ab😀c', 3), 'ab');
    assert.equal(cutText('ab😀c', 4), 'ab😀');
    assert.ok(WINDOW_CELL_CHARS * 3 >= GRID_MAX_COLUMN_PX, 'a column at its widest, in its narrowest glyphs, shows no more than the window carries');
    const cells = [['short', 'x'.repeat(10)], ['y'.repeat(11), '']];
    assert.deepEqual(cutCells(cells, 10), [2]);
    assert.deepEqual(cells, [['short', 'x'.repeat(10)], ['y'.repeat(10), '']]);
  });
});
