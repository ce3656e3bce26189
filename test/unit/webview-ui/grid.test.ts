// The table webview's pure parts, without a DOM: the grid geometry (rows, columns, the compressed
// scroll range of very long tables), the cell cache's fetch plan, column choices and presets,
// number formats, the query as headers and chips change it, the host's column information, and
// the UI message validator.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDENTITY_COLUMNS, metricColumns } from '../../../src/core/spec/metrics';
import { FIRST_WINDOW, parseUiRequest, type ColumnInfo } from '../../../src/shared/tableUiProtocol';
import { BLOCK, CellCache } from '../../../src/webview-ui/cellCache';
import { ColumnModel, followColumn } from '../../../src/webview-ui/columns';
import { effectiveFormat, formatCell } from '../../../src/webview-ui/format';
import { ColumnAxis, MAX_SCROLL_HEIGHT, RowAxis } from '../../../src/webview-ui/layout';
import { busyLabel, everyRow, headerView, hidesRows, nextSort, panelFollow, rowsKey, shapesRows, withFilter } from '../../../src/webview-ui/tableQuery';
import { distinctAddresses as collectAddresses } from '../../../src/core/addressLists/addressSets';
// columnInfo.ts holds no vscode import, so a node test may read it.
// eslint-disable-next-line no-restricted-imports
import { columnInfo, likelyShown } from '../../../src/vscode/table/columnInfo';
import { sampleAddress } from '../../../src/core/spec/samples';

describe('grid geometry', () => {
  it('finds the rows in view with overscan, and scrolls the least to show a row', () => {
    const a = new RowAxis(100_000, 24, 480); // 20 rows in view
    assert.equal(a.scaled, false);
    assert.equal(a.height, 2_400_000);
    assert.deepEqual(a.range(0, 5), [0, 25]);
    assert.deepEqual(a.range(24 * 1000 + 12, 5), [995, 1026]);
    assert.equal(a.rowY(1000, 0), 24_000);
    assert.equal(a.scrollToShow(10, 0), 0, 'already in view');
    assert.equal(a.scrollToShow(30, 0), (31 - 20) * 24, 'below: its bottom at the bottom');
    assert.equal(a.scrollToShow(3, 24 * 50), 3 * 24, 'above: at the top');
    assert.deepEqual(a.range(a.scrollForTop(99_990), 0), [99_980, 100_000], 'the end: no scrolling past the last row');
    assert.deepEqual(new RowAxis(0, 24, 480).range(0, 5), [0, 0]);
  });

  it('compresses the scroll range of tables taller than browsers allow, reaching every row', () => {
    const rows = 5_000_000;
    const a = new RowAxis(rows, 24, 480);
    assert.equal(a.scaled, true);
    assert.equal(a.height, MAX_SCROLL_HEIGHT);
    const max = MAX_SCROLL_HEIGHT - 480;
    assert.deepEqual(a.range(0, 0), [0, 20]);
    assert.deepEqual(a.range(max, 0), [rows - 20, rows], 'the bottom of the scroll range shows the last rows');
    const mid = a.range(max / 2, 0);
    assert.ok(Math.abs(mid[0] - (rows - 20) / 2) <= 1, `${mid}`);
    // Rows in view are placed around the scroll position, one row height apart.
    const s = max / 3;
    const top = Math.floor(a.topRow(s));
    assert.ok(Math.abs(a.rowY(top + 1, s) - a.rowY(top, s) - 24) < 1e-6);
    assert.ok(a.rowY(top, s) <= s && a.rowY(top, s) > s - 24);
    // Every row can be brought into view.
    for (const r of [0, 1, 777_777, rows - 1]) {
      const st = a.scrollToShow(r, 0);
      const [f, l] = a.range(st, 0);
      assert.ok(r >= f && r < l, `row ${r} in [${f}, ${l}) at ${st}`);
    }
  });

  it('lays out columns of their own widths and finds those in view', () => {
    const c = new ColumnAxis([100, 50, 200, 80]);
    assert.equal(c.total, 430);
    assert.equal(c.at(0), 0);
    assert.equal(c.at(149), 1);
    assert.equal(c.at(150), 2);
    assert.equal(c.at(10_000), 3);
    assert.deepEqual(c.range(120, 100, 0), [1, 3]);
    assert.deepEqual(c.range(120, 100, 1), [0, 4]);
    assert.equal(c.scrollToShow(3, 0, 200), 230, 'right edge to the right edge');
    assert.equal(c.scrollToShow(0, 300, 200), 0);
    assert.equal(c.scrollToShow(2, 0, 150), 150, 'wider than the view: its start');
  });
});

describe('cell cache', () => {
  it('asks only for missing (block, column) pairs, forgets failed asks, and evicts far blocks', () => {
    const cache = new CellCache();
    const asks = cache.plan(10, 100, [0, 5], 1000);
    assert.deepEqual(
      asks.map((a) => [a.first, a.last, a.columns]),
      [
        [0, BLOCK, [0, 5]],
        [BLOCK, 2 * BLOCK, [0, 5]],
      ],
    );
    assert.deepEqual(cache.plan(10, 100, [0, 5], 1000), [], 'already asked');
    assert.deepEqual(cache.plan(10, 20, [0, 5, 7], 1000).map((a) => a.columns), [[7]], 'only the new column');
    const first = asks[0];
    assert.ok(first);
    cache.forget(first);
    assert.deepEqual(cache.plan(0, 1, [0], 1000).map((a) => a.columns), [[0]]);
    cache.put(0, [0, 5], [['a', 'b'], ['c', 'd']]);
    assert.equal(cache.get(1, 5), 'd');
    assert.equal(cache.get(2, 5), undefined);
    assert.deepEqual(cache.plan(990, 2000, [1], 1000), [{ block: 15, first: 960, last: 1000, columns: [1] }], 'the last block is cut at the row count');
    for (let b = 0; b < 100; b++) cache.plan(b * BLOCK, b * BLOCK + 1, [0], 100 * BLOCK);
    cache.put(99 * BLOCK, [0], [['kept']]);
    cache.evict(99 * BLOCK, 99 * BLOCK + 1);
    assert.equal(cache.get(0, 0), undefined, 'far rows dropped');
    assert.equal(cache.get(99 * BLOCK, 0), 'kept');
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it('holds a cut cell as cut until a whole one replaces it, and forgets the mark with its row (issue 34)', () => {
    const cache = new CellCache();
    cache.put(0, [3, 7], [['short', 'long…'], ['x', 'y']], false, [1]);
    assert.equal(cache.isCut(0, 7), true, 'the place i × width + j names row 0, column 7');
    assert.equal(cache.isCut(0, 3), false);
    assert.equal(cache.isCut(1, 7), false);
    cache.put(0, [7], [['the whole text']]);
    assert.equal(cache.isCut(0, 7), false, 'a whole cell replaces the cut one');
    cache.plan(BLOCK, BLOCK + 1, [0], 100 * BLOCK);
    cache.put(BLOCK, [0], [['cut']], false, [0]);
    for (let b = 2; b < 60; b++) cache.plan(b * BLOCK, b * BLOCK + 1, [0], 100 * BLOCK);
    cache.evict(59 * BLOCK, 59 * BLOCK + 1);
    assert.equal(cache.isCut(BLOCK, 0), false, 'an evicted row keeps no mark');
    cache.put(0, [0], [['cut']], false, [0]);
    cache.clear();
    assert.equal(cache.isCut(0, 0), false);
  });

  it('marks an unasked first window as held, so it is not asked for again', () => {
    const cache = new CellCache();
    cache.put(0, [0, 1], Array.from({ length: BLOCK }, () => ['x', 'y']), true);
    assert.deepEqual(cache.plan(0, BLOCK, [0, 1], 10_000), []);
    assert.deepEqual(cache.plan(0, BLOCK, [0, 1, 2], 10_000).map((a) => a.columns), [[2]]);
  });
});

const wallets: ColumnInfo[] = [...IDENTITY_COLUMNS, ...metricColumns('main')].map((name, i) =>
  i === 0 ? { name, numeric: false, address: 'main' } : columnInfo([name], [])[0] ?? { name, numeric: false },
);

describe('columns', () => {
  it('pins the address column, hides and shows, and applies timeframe and group presets', () => {
    const m = new ColumnModel(wallets, () => 100);
    assert.equal(m.count, 640);
    assert.deepEqual(m.pinnedColumns, [0]);
    assert.equal(m.displayed[0], 0);
    assert.equal(m.shownCount, 640);
    m.applyPreset({ timeframes: ['7d'], groups: [] });
    assert.equal(m.shownCount, 8 + 158);
    assert.ok(m.displayed.every((c) => !wallets[c]?.timeframe || wallets[c]?.timeframe === '7d'));
    m.applyPreset({ timeframes: ['30d'], groups: ['pnl', 'winrate'] });
    assert.ok(m.displayed.every((c) => !wallets[c]?.metric || (wallets[c]?.timeframe === '30d' && ['pnl', 'winrate'].includes(wallets[c]?.group ?? ''))));
    m.hideMetrics();
    assert.equal(m.shownCount, 8);
    m.showAll();
    const pnl = wallets.findIndex((c) => c.name === 'realized_pnl_usd_7d');
    m.togglePin(pnl);
    assert.deepEqual(m.displayed.slice(0, 2), [0, pnl]);
    m.setHidden(1, true);
    assert.ok(!m.displayed.includes(1));
  });

  it('keeps the active cell on its column when a preset hides columns, or moves it to the nearest one shown', () => {
    const m = new ColumnModel(wallets, () => 100);
    const name = (d: number, shown: readonly number[]): string | undefined => wallets[shown[d] ?? -1]?.name;
    // On a 7d metric: the 7d preset hides the 1d columns before it, so its display index changes.
    let before = m.displayed;
    const on7d = before.findIndex((c) => wallets[c]?.name === 'realized_pnl_usd_7d');
    m.applyPreset({ timeframes: ['7d'], groups: [] });
    let after = m.displayed;
    assert.notEqual(name(on7d, after), 'realized_pnl_usd_7d', 'the same display index is another column now');
    assert.equal(name(followColumn(before, after, on7d), after), 'realized_pnl_usd_7d');
    // On a 1d metric the 30d preset hides: the nearest column still shown (in the order it was shown in).
    m.showAll();
    before = m.displayed;
    const on1d = before.findIndex((c) => wallets[c]?.name === 'realized_pnl_usd_1d');
    m.applyPreset({ timeframes: ['30d'], groups: [] });
    after = m.displayed;
    const landed = followColumn(before, after, on1d);
    const distance = (c: number | undefined): number => Math.abs(before.indexOf(c ?? -1) - on1d);
    assert.ok(after[landed] !== undefined && before.includes(after[landed] ?? -1));
    assert.equal(distance(after[landed]), Math.min(...after.map(distance)), 'no column still shown is nearer');
    assert.equal(followColumn([0, 1, 2, 3, 4], [0, 1, 3, 4], 2), 2, 'at equal distance, the one to its right');
    // The last column hidden: the nearest to its left; an identity column stays where it is.
    assert.equal(followColumn([0, 1, 2, 3], [0, 1, 2], 3), 2);
    assert.equal(followColumn([0, 5, 6, 1], [0, 1], 3), 1);
    assert.equal(followColumn([0, 1, 2], [2, 0, 1], 1), 2, 'a column pinned since: its new place');
    assert.equal(followColumn([0, 1], [], 1), 0);
    // The model says where its columns went since it was last asked: what the grid's reset uses.
    const g = new ColumnModel(wallets, () => 100);
    const at = g.displayed.findIndex((c) => wallets[c]?.name === 'realized_pnl_usd_7d');
    g.applyPreset({ timeframes: ['7d'], groups: [] });
    assert.equal(wallets[g.displayed[g.moves()(at)] ?? -1]?.name, 'realized_pnl_usd_7d');
    assert.equal(g.moves()(3), 3, 'nothing changed since: the same index');
  });

  it('remembers a layout by column name and applies it to another file of the same endpoint', () => {
    const m = new ColumnModel(wallets, () => 100);
    m.setHidden(1, true);
    const pnl = wallets.findIndex((c) => c.name === 'realized_pnl_usd_7d');
    m.togglePin(pnl);
    m.setWidth(pnl, 5); // clamped to the minimum
    m.formats.set(pnl, 'compact');
    m.defaultFormat = 'fixed2';
    const layout = m.toLayout();
    assert.deepEqual(layout.hidden, ['label']);
    assert.deepEqual(layout.pinned, ['address', 'realized_pnl_usd_7d']);
    // The other file has fewer columns, in another order.
    const other = [wallets[pnl], wallets[1], wallets[0]].filter((c): c is ColumnInfo => c !== undefined);
    const o = new ColumnModel(other, () => 100);
    o.applyLayout(layout);
    assert.deepEqual(o.displayed, [2, 0], 'pinned in pin order, label hidden');
    assert.equal(o.width(0), 48);
    assert.equal(o.formats.get(0), 'compact');
    assert.equal(o.defaultFormat, 'fixed2');
    // A layout that would hide everything shows everything instead.
    const none = new ColumnModel(other, () => 100);
    none.applyLayout({ hidden: other.map((c) => c.name), pinned: [], widths: {}, formats: {}, defaultFormat: 'auto' });
    assert.equal(none.shownCount, 3);
    assert.deepEqual(likelyShown(other, layout), [2, 0], 'the host guesses the same first columns');
  });
});

describe('number formats', () => {
  it('formats plain decimals only, and ratios as % by default', () => {
    assert.equal(formatCell('1234567.891234', 'thousands'), '1,234,567.8912');
    assert.equal(formatCell('-1234.5', 'fixed2'), '-1,234.50');
    assert.equal(formatCell('1534000', 'compact'), '1.53M');
    assert.equal(formatCell('0.256', 'percent'), '25.60%');
    assert.equal(formatCell('1e3', 'thousands'), '1,000');
    for (const text of ['abc', '1,234', '0x1f', 'Infinity', '', ' 12', '=1+1']) assert.equal(formatCell(text, 'thousands'), text, text);
    assert.equal(formatCell('1234.5', 'raw'), '1234.5');
  });

  it('keeps every digit of the file (formats the decimal text, not a double)', () => {
    assert.equal(formatCell('999999999999999999', 'thousands'), '999,999,999,999,999,999');
    assert.equal(formatCell('12345678901234567891', 'thousands'), '12,345,678,901,234,567,891');
    assert.equal(formatCell('-12345678901234567891.5', 'fixed2'), '-12,345,678,901,234,567,891.50');
    assert.equal(formatCell('0.123456789012345678', 'percent'), '12.35%');
    // Out of a number's range: the table holds it as text, and shows it so.
    assert.equal(formatCell('1e400', 'thousands'), '1e400');
    assert.equal(effectiveFormat({ numeric: true, kind: 'ratio' }, undefined, 'auto'), 'percent');
    assert.equal(effectiveFormat({ numeric: true, kind: 'usd' }, undefined, 'auto'), 'money', 'USD keeps its cents (issue 35 item 7)');
    assert.equal(effectiveFormat({ numeric: false }, undefined, 'auto'), 'raw');
    assert.equal(effectiveFormat({ numeric: true, kind: 'ratio' }, 'auto', 'compact'), 'compact');
    assert.equal(effectiveFormat({ numeric: true, kind: 'ratio' }, 'raw', 'auto'), 'raw');
  });
});

describe('column information', () => {
  it('tells numbers, metrics and address columns of each chain from a sample', () => {
    const names = ['wallet', 'pnl', 'winrate_7d', 'label', 'token0x'];
    const sample = Array.from({ length: 20 }, (_, i) => [
      sampleAddress('main', i),
      i === 3 ? '' : String(i * 1.5 - 4),
      String(i / 20),
      `label ${i}`,
      sampleAddress('alt', i),
    ]);
    const info = columnInfo(names, sample);
    assert.equal(info[0]?.address, 'main');
    assert.equal(info[0]?.numeric, false);
    assert.equal(info[1]?.numeric, true);
    assert.equal(info[1]?.address, undefined);
    assert.equal(info[2]?.kind, 'ratio');
    assert.equal(info[2]?.group, 'winrate');
    assert.equal(info[2]?.timeframe, '7d');
    assert.equal(info[3]?.numeric, false);
    assert.equal(info[3]?.address, undefined);
    assert.equal(info[4]?.address, 'alt');
    assert.equal(info[3]?.chars, 'label 19'.length);
  });

  it('collects distinct, normalised addresses of a column and counts what is not one', () => {
    const a = sampleAddress('main', 1);
    const b = sampleAddress('main', 2);
    assert.deepEqual(collectAddresses([a, '', b, a, 'nope', ` ${b} `], 'main'), { addresses: [a, b], skipped: 1 });
    const x = sampleAddress('alt', 1);
    assert.deepEqual(collectAddresses([x.toUpperCase().replace('0X', '0x'), x], 'alt'), { addresses: [x.toLowerCase()], skipped: 0 });
  });
});

describe('UI messages', () => {
  it('accepts the table protocol and the interface requests, and nothing malformed', () => {
    assert.deepEqual(parseUiRequest({ type: 'ready' }), { type: 'ready' });
    assert.ok(parseUiRequest({ type: 'getWindow', requestId: 1, first: 0, last: 10, columns: [0, 1] }));
    assert.ok(parseUiRequest({ type: 'useAsInput', requestId: 2, column: 0 }));
    assert.ok(parseUiRequest({ type: 'walletActivity', requestId: 3, address: 'x', chain: 'alt' }));
    assert.ok(parseUiRequest({ type: 'saveLayout', layout: { hidden: ['a'], pinned: [], widths: { a: 100 }, formats: { a: 'compact' }, defaultFormat: 'auto' } }));
    for (const bad of [
      null,
      'ready',
      { type: 'nope' },
      { type: 'getWindow', requestId: -1, first: 0, last: 1, columns: [] },
      { type: 'walletActivity', requestId: 3, address: 'x', chain: 'other' },
      { type: 'addToList', requestId: 1, addresses: [] },
      { type: 'saveLayout', layout: { hidden: [], pinned: [], widths: { a: -1 }, formats: {}, defaultFormat: 'auto' } },
      { type: 'saveLayout', layout: { hidden: [], pinned: [], widths: {}, formats: { a: 'bogus' }, defaultFormat: 'auto' } },
      { type: 'log', level: 'fatal', message: 'x' },
      { type: 'probeState', requestId: 1, state: { countLabel: 1 } },
    ]) {
      assert.equal(parseUiRequest(bad), undefined, JSON.stringify(bad));
    }
    assert.equal(FIRST_WINDOW, 0, 'the unasked first window uses an id no request gets');
  });
});

describe('the query from the page', () => {
  it('cycles a header click through ascending, descending and none; Shift+click adds, flips, removes', () => {
    assert.deepEqual(nextSort([], 2, false), [{ column: 2 }]);
    assert.deepEqual(nextSort([{ column: 2 }], 2, false), [{ column: 2, descending: true }]);
    assert.deepEqual(nextSort([{ column: 2, descending: true }], 2, false), []);
    assert.deepEqual(nextSort([{ column: 1 }, { column: 2 }], 2, false), [{ column: 2 }], 'a plain click with several keys sorts by the column alone');
    assert.deepEqual(nextSort([{ column: 1 }], 2, true), [{ column: 1 }, { column: 2 }]);
    assert.deepEqual(nextSort([{ column: 1 }, { column: 2 }], 2, true), [{ column: 1 }, { column: 2, descending: true }]);
    assert.deepEqual(nextSort([{ column: 1 }, { column: 2, descending: true }], 2, true), [{ column: 1 }]);
  });

  it('marks a header with its sort rank and filter, and says what shapes the rows', () => {
    const q = { sort: [{ column: 0 }, { column: 3, descending: true }], filters: [{ column: 3, kind: 'nonEmpty' as const }] };
    const h = headerView({ name: 'volume_7d', numeric: true, kind: 'volume', timeframe: '7d' }, 3, q);
    assert.equal(h.name, 'volume_7d');
    assert.equal(h.sort, '▼2');
    assert.equal(h.sortDirection, undefined, 'aria-sort on one header at a time: the first key’s');
    assert.equal(headerView(undefined, 0, q).sortDirection, 'ascending');
    assert.equal(h.filtered, true);
    assert.match(h.title, /^volume_7d\n\(volume, 7d\)\nFiltered \(●\)\.\nSort key 2 of 2, descending\.\nClick to sort/u);
    const plain = headerView(undefined, 5, { sort: [{ column: 5 }] });
    assert.deepEqual([plain.name, plain.sort, plain.sortDirection, plain.filtered], ['5', '▲', 'ascending', false]);
    assert.equal(headerView(undefined, 1, q).sort, undefined);
    const f = withFilter(q, 3, { column: 3, kind: 'empty' });
    assert.deepEqual(f.filters, [{ column: 3, kind: 'empty' }], 'a column has one filter at most');
    assert.deepEqual(withFilter(f, 3, undefined).filters, []);
    assert.deepEqual(f.sort, q.sort);
    assert.equal(busyLabel(q), 'Sorting, filtering…');
    assert.equal(busyLabel({ search: 'x' }), 'Searching…');
    assert.equal(busyLabel({}), 'Showing every row…');
    assert.equal(shapesRows({}), false);
    assert.equal(shapesRows({ sort: [], filters: [], search: '' }), false);
    assert.equal(shapesRows({ search: 'x' }), true);
    assert.equal(shapesRows({ filters: [{ column: 0, kind: 'empty' }] }), true);
  });

  it('Show all (a saved view in force) keeps the sort and drops the filters and search (issue 23 item 3)', () => {
    const q = { sort: [{ column: 2, descending: true }], filters: [{ column: 1, kind: 'contains' as const, text: 'WHALE' }], search: 'x' };
    assert.equal(hidesRows(q), true);
    assert.equal(hidesRows({ sort: q.sort }), false, 'a sort leaves no row out');
    assert.equal(hidesRows({ search: 'x' }), true);
    assert.deepEqual(everyRow(q), { sort: q.sort });
    assert.deepEqual(everyRow({ filters: q.filters }), {});
    assert.equal(hidesRows(everyRow(q)), false);
  });
});

describe('the analysis panel follows the table’s rows', () => {
  const range = (column: number, min: number, max: number) => ({ kind: 'range' as const, column, min, max });
  it('keys a query by the rows it keeps: filters in any order and the search, not the sort', () => {
    const a = rowsKey({ filters: [range(1, 0, 5), { kind: 'contains', column: 2, text: 'x' }], search: 'ab', sort: [{ column: 1 }] });
    assert.equal(a, rowsKey({ filters: [{ kind: 'contains', column: 2, text: 'x' }, range(1, 0, 5)], search: 'ab', sort: [{ column: 3, descending: true }] }));
    assert.notEqual(a, rowsKey({ filters: [range(1, 0, 6), { kind: 'contains', column: 2, text: 'x' }], search: 'ab' }));
    assert.notEqual(a, rowsKey({ filters: [range(1, 0, 5), { kind: 'contains', column: 2, text: 'x' }], search: 'abc' }));
    assert.equal(rowsKey({}), rowsKey({ filters: [], search: '', sort: [] }));
  });

  it('computes again when filters or search change elsewhere, keeps a chart its own brush filtered, and ignores a sort', () => {
    const computed = rowsKey({ filters: [range(4, 0, 1000)] });
    const brushed = { filters: [range(4, 0, 1000), range(7, 0.2, 0.8)] };
    assert.equal(panelFollow(computed, undefined, { filters: [range(4, 0, 1000)], sort: [{ column: 4, descending: true }] }), 'same');
    assert.equal(panelFollow(computed, rowsKey(brushed), brushed), 'offer', 'the panel’s own brush: the chart stays, a Refresh is offered');
    assert.equal(panelFollow(computed, rowsKey(brushed), { ...brushed, search: 'sniper' }), 'refresh', 'a search on top of the brush');
    assert.equal(panelFollow(computed, undefined, {}), 'refresh', 'a chip cleared');
    assert.equal(panelFollow(computed, undefined, { filters: [range(4, 0, 1000)], search: 'x' }), 'refresh');
  });
});
