// Number formats as a trader reads them (issue 35 item 7): "Numbers: as in file" shows the file's
// text exactly (no "+" added, no time moved to the person's zone); USD amounts in auto keep their
// cents ("−5,016.10" beside "+3,795.50"); a column profile writes every number the same way
// ("170,184" beside "21,193.6", not "170184").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ColumnProfile } from '../../../src/shared/analysisProtocol';
import { profileRows } from '../../../src/webview-ui/chartTables';
import { displayCell, effectiveFormat, FILE_SWITCH_CHARS, fileSwitchLabel } from '../../../src/webview-ui/format';
// columnInfo.ts holds no vscode import, so a node test may read it.
// eslint-disable-next-line no-restricted-imports
import { columnInfo } from '../../../src/vscode/table/columnInfo';

const MINUS = '\u2212';
const pnl = { kind: 'usd', numeric: true, signed: true };
const time = { numeric: false, date: true };

describe('number formats (issue 35 item 7)', () => {
  it('"as in the file" shows the file’s text exactly, a gain or a loss still coloured', () => {
    assert.deepEqual(displayCell(pnl, '3795.5', undefined, 'raw', true), { text: '3795.5', tone: 'gain' });
    assert.deepEqual(displayCell(pnl, '-5016.1', undefined, 'raw', true), { text: '-5016.1', tone: 'loss' });
    assert.deepEqual(displayCell(pnl, '-5016.1', undefined, 'raw', false), { text: '-5016.1' });
    assert.deepEqual(displayCell(time, '2026-01-20T18:42:07Z', undefined, 'raw', true), { text: '2026-01-20T18:42:07Z' });
    assert.deepEqual(displayCell(pnl, '3795.5', 'raw', 'auto', true), { text: '3795.5', tone: 'gain' }, 'a column’s own choice too');
    assert.notEqual(displayCell(time, '2026-01-20T18:42:07Z', undefined, 'auto', true).title, undefined, 'auto still shows a time with UTC on hover');
  });

  it('auto keeps a USD amount’s cents', () => {
    assert.equal(effectiveFormat(pnl, undefined, 'auto'), 'money');
    assert.equal(displayCell(pnl, '-5016.1', undefined, 'auto', true).text, `${MINUS}5,016.10`);
    assert.equal(displayCell(pnl, '3795.50', undefined, 'auto', true).text, '+3,795.50');
    assert.equal(displayCell(pnl, '12.34567', undefined, 'auto', true).text, '+12.3457', 'finer digits kept up to four');
    assert.equal(displayCell({ kind: 'count', numeric: true }, '170184', undefined, 'auto', true).text, '170,184');
  });

  it('a column profile writes its min and max as it writes its mean: with separators, every digit of the file', () => {
    const p: ColumnProfile = { column: 0, name: 'volume_usd_7d', type: 'number', count: 10, empty: 0, distinct: 10, top: [], ms: 1, min: 170184, max: 1.2345678901234567e19, maxText: '12345678901234567890', mean: 21193.6, median: 2000, p5: 1, p95: 3 };
    const rows = new Map(profileRows(p));
    assert.equal(rows.get('Min'), '170,184');
    assert.equal(rows.get('Max'), '12,345,678,901,234,567,890');
    assert.equal(rows.get('Mean'), '21,193.6');
  });

  it('a USD column outside the wallet metrics (Top Traders’ pnl_usd) keeps its cents too', () => {
    const [pnl, rank, name] = columnInfo(['pnl_usd', 'rank', 'token_usd'], [['557846.63', '1', 'abc'], ['25135', '2', 'def'], ['-12401.3', '3', 'ghi']]);
    assert.equal(pnl?.kind, 'usd');
    assert.equal(effectiveFormat(pnl!, undefined, 'auto'), 'money');
    assert.equal(displayCell(pnl!, '25135', undefined, 'auto', true).text, '+25,135.00');
    assert.equal(rank?.kind, undefined, 'a count is not money');
    assert.equal(name?.kind, undefined, 'a column of text named _usd is not money');
  });
});

describe('the file switcher of a result of several files', () => {
  const mintA = 's1XT9VhhfTo9VZBy59Z3BP7bVuFHMhD5jhFhZhj53P5Z';
  const mintB = 's1XT9VhhfTo9VZBy59Z3BP7bVuFHMq2wXfKLmN8rTt4Q';
  it('shows a token’s file by its start and its end, with its extension, within the switcher’s room', () => {
    const a = fileSwitchLabel(`${mintA}.csv`);
    const b = fileSwitchLabel(`toptraders-2026-11-28-1622/${mintB}.csv`);
    assert.equal(a, 's1XT9VhhfTo9…hFhZhj53P5Z.csv');
    assert.ok(a.length <= FILE_SWITCH_CHARS && b.length <= FILE_SWITCH_CHARS, `${a} / ${b}`);
    // Two mints alike for their first 29 characters (what the switcher showed before) still read apart.
    assert.notEqual(a, b);
    assert.ok(b.endsWith('rTt4Q.csv') && !b.includes('/'), b);
  });
  it('leaves a name that fits as it is', () => {
    assert.equal(fileSwitchLabel('part-0001.csv'), 'part-0001.csv');
    assert.equal(fileSwitchLabel('x'.repeat(FILE_SWITCH_CHARS)), 'x'.repeat(FILE_SWITCH_CHARS));
  });
});
