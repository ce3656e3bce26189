// The table's status line says where the person is: "Row 12 of 3,400 · volume". A result with a
// header and no data rows (a paid call can answer with none) must not say "Row 1 of 0": the grid
// keeps its active cell at row 0 even when there is no row to be on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { positionText } from '../../../src/webview-ui/positionText';

const at = (row: number, rows: [number, number] = [row, row], cols: [number, number] = [0, 0]) => ({ active: { row, col: 0 }, selection: { rows, cols } });

describe('the status line’s position', () => {
  it('names the row, the rows in all and the column', () => {
    assert.equal(positionText(at(11), 'volume', 3400), 'Row 12 of 3,400 · volume');
    assert.equal(positionText(at(-1), 'volume', 3400), 'Header · volume');
    assert.equal(positionText(at(0, [0, 2], [0, 1]), 'volume', 3400), 'Row 1 of 3,400 · volume · 3 × 2 selected');
  });

  it('a result with no data rows says so, not "Row 1 of 0"', () => {
    assert.equal(positionText(at(0), 'wallet', 0), 'No rows · wallet');
    assert.equal(positionText(at(0, [0, 0], [0, 3]), 'wallet', 0), 'No rows · wallet');
  });
});
