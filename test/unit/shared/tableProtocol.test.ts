/** The host accepts only well-formed requests from the table webview. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HISTOGRAM_BINS, MAX_HISTOGRAM_BINS } from '../../../src/shared/analysisProtocol';
import { MAX_COLUMN_LIST, MAX_QUERY_FILTERS, MAX_QUERY_TEXT, MAX_SORT_KEYS, MAX_WINDOW_CELLS, MAX_WINDOW_COLUMNS, MAX_WINDOW_ROWS, parseTableRequest } from '../../../src/shared/tableProtocol';
import { isReplyTo, parseUiRequest, TABLE_COMMANDS, UI_REPLY_TYPES, type UiMessage, type UiReplyTo } from '../../../src/shared/tableUiProtocol';
// ids.ts and tableCommands.ts hold no vscode import, so a node test may read them.
// eslint-disable-next-line no-restricted-imports
import { CommandIds } from '../../../src/vscode/base/ids';
// eslint-disable-next-line no-restricted-imports
import { TABLE_COMMAND_TITLES, tableCommandCall } from '../../../src/vscode/table/tableCommands';

describe('table: webview protocol', () => {
  it('accepts well-formed requests as they are', () => {
    const good = [
      { type: 'ready' },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: [0, 5, 639] },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: [0], cut: true },
      { type: 'setQuery', requestId: 2, query: { sort: [{ column: 3, descending: true }], filters: [{ kind: 'range', column: 4, min: 0 }, { kind: 'contains', column: 1, text: 'x' }], search: 'ab' } },
      { type: 'setQuery', requestId: 3, query: {} },
      { type: 'cancel', requestId: 2 },
      { type: 'copy', requestId: 4, first: 0, last: 2, columns: [1], format: 'tsv', header: true },
      { type: 'export', requestId: 5 },
    ];
    for (const m of good) assert.deepEqual(parseTableRequest(m), m);
  });

  it('refuses anything else', () => {
    const bad: unknown[] = [
      null,
      'ready',
      { type: 'nope' },
      { type: 'getWindow', requestId: 1, first: -1, last: 60, columns: [0] },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: ['0'] },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: [0], cut: 'yes' },
      { type: 'setQuery', requestId: 2, query: { filters: [{ kind: 'range', column: 1, min: 'a' }] } },
      { type: 'setQuery', requestId: 2, query: { filters: [{ kind: 'regex', column: 1 }] } },
      { type: 'setQuery', requestId: 2, query: { sort: [{ column: 1.5 }] } },
      { type: 'copy', requestId: 4, first: 0, last: 2, columns: [1], format: 'xlsx', header: true },
    ];
    for (const m of bad) assert.equal(parseTableRequest(m), undefined, JSON.stringify(m));
  });
});

describe('table: the webview’s requests are bounded (issue 21)', () => {
  const cols = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

  it('refuses a window of 1,000 rows × 20,000 columns, and any past the bounds, before the host reads a cell', () => {
    const oversized: unknown[] = [
      { type: 'getWindow', requestId: 1, first: 0, last: 1_000, columns: cols(20_000) },
      { type: 'getWindow', requestId: 1, first: 0, last: MAX_WINDOW_ROWS + 1, columns: [0] },
      { type: 'getWindow', requestId: 1, first: 5, last: Number.MAX_SAFE_INTEGER, columns: [0] },
      { type: 'getWindow', requestId: 1, first: 0, last: 1, columns: cols(MAX_WINDOW_COLUMNS + 1) },
      { type: 'getWindow', requestId: 1, first: 0, last: Math.floor(MAX_WINDOW_CELLS / 100) + 1, columns: cols(100) },
      { type: 'copy', requestId: 2, first: 0, last: 2, columns: cols(MAX_COLUMN_LIST + 1), format: 'tsv', header: true },
      { type: 'export', requestId: 3, columns: cols(MAX_COLUMN_LIST + 1) },
      { type: 'setQuery', requestId: 4, query: { filters: Array.from({ length: MAX_QUERY_FILTERS + 1 }, () => ({ kind: 'empty', column: 0 })) } },
      { type: 'setQuery', requestId: 4, query: { sort: Array.from({ length: MAX_SORT_KEYS + 1 }, (_, i) => ({ column: i })) } },
      { type: 'setQuery', requestId: 4, query: { search: 'x'.repeat(MAX_QUERY_TEXT + 1) } },
      { type: 'setQuery', requestId: 4, query: { filters: [{ kind: 'contains', column: 0, text: 'x'.repeat(MAX_QUERY_TEXT + 1) }] } },
      { type: 'addToList', requestId: 5, addresses: Array.from({ length: 10_001 }, () => 'So1') },
      { type: 'addToList', requestId: 5, addresses: ['x'.repeat(201)] },
    ];
    for (const m of oversized) assert.equal(parseUiRequest(m), undefined, JSON.stringify(m).slice(0, 120));
  });

  it('takes what the grid asks, up to the bounds', () => {
    const fine: unknown[] = [
      { type: 'getWindow', requestId: 1, first: 64, last: 128, columns: cols(120) },
      { type: 'getWindow', requestId: 1, first: 0, last: MAX_WINDOW_ROWS, columns: cols(Math.floor(MAX_WINDOW_CELLS / MAX_WINDOW_ROWS)) },
      { type: 'getWindow', requestId: 1, first: 0, last: 1, columns: cols(MAX_WINDOW_COLUMNS) },
      { type: 'getWindow', requestId: 1, first: 1_997, last: 2_050, columns: [2] },
      { type: 'copy', requestId: 2, first: 0, last: 1_000_000, columns: cols(1), format: 'csv', header: false },
      { type: 'setQuery', requestId: 4, query: { search: 'x'.repeat(MAX_QUERY_TEXT), sort: [{ column: 1 }, { column: 2, descending: true }] } },
      { type: 'addToList', requestId: 5, addresses: ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'] },
    ];
    for (const m of fine) assert.deepEqual(parseUiRequest(m), m, JSON.stringify(m).slice(0, 120));
  });
});

describe('table: the analysis panel’s requests (issue 15)', () => {
  it('accepts a profile, a histogram (30 bins unless asked), a scatter and a PNG to save, keeping only their own fields', () => {
    assert.deepEqual(parseUiRequest({ type: 'profile', requestId: 1, column: 3, extra: 'x' }), { type: 'profile', requestId: 1, column: 3 });
    assert.deepEqual(parseUiRequest({ type: 'histogram', requestId: 2, column: 3 }), { type: 'histogram', requestId: 2, column: 3, bins: HISTOGRAM_BINS, log: false });
    assert.deepEqual(parseUiRequest({ type: 'histogram', requestId: 2, column: 3, bins: 50, log: true }), { type: 'histogram', requestId: 2, column: 3, bins: 50, log: true });
    assert.deepEqual(parseUiRequest({ type: 'scatter', requestId: 3, x: 1, y: 2 }), { type: 'scatter', requestId: 3, x: 1, y: 2 });
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    assert.deepEqual(parseUiRequest({ type: 'savePng', requestId: 4, name: 'scatter', dataUrl: png }), { type: 'savePng', requestId: 4, name: 'scatter', dataUrl: png });
  });

  it('refuses malformed ones', () => {
    const bad: unknown[] = [
      { type: 'profile', requestId: 1 },
      { type: 'profile', requestId: 1, column: -1 },
      { type: 'histogram', requestId: 2, column: 3, bins: 0 },
      { type: 'histogram', requestId: 2, column: 3, bins: MAX_HISTOGRAM_BINS + 1 },
      { type: 'histogram', requestId: 2, column: 3, log: 'yes' },
      { type: 'scatter', requestId: 3, x: 1 },
      { type: 'savePng', requestId: 4, name: 'x', dataUrl: 'data:text/html;base64,PHNjcmlwdD4=' },
      { type: 'savePng', requestId: 4, name: 'x', dataUrl: 'javascript:alert(1)' },
    ];
    for (const m of bad) assert.equal(parseUiRequest(m), undefined, JSON.stringify(m));
  });
});

describe('table: the toolbar’s More menu (Open in Notebook, saved views, Compare with…)', () => {
  it('accepts the four commands with a request id, keeping only their own fields', () => {
    for (const command of TABLE_COMMANDS) {
      assert.deepEqual(parseUiRequest({ type: 'tableCommand', requestId: 7, command, extra: 'x' }), { type: 'tableCommand', requestId: 7, command });
    }
    assert.deepEqual([...TABLE_COMMANDS].sort(), ['applyView', 'compareWith', 'openInNotebook', 'saveView']);
  });

  it('refuses any other command, a missing id, or a command id in its place', () => {
    const bad: unknown[] = [
      { type: 'tableCommand', command: 'openInNotebook' },
      { type: 'tableCommand', requestId: 1 },
      { type: 'tableCommand', requestId: 1, command: 'deleteView' },
      { type: 'tableCommand', requestId: 1, command: 'walletAnalytics.openInNotebook' },
      { type: 'tableCommand', requestId: 1, command: 'workbench.action.terminal.new' },
      { type: 'tableCommand', requestId: 1.5, command: 'saveView' },
    ];
    for (const m of bad) assert.equal(parseUiRequest(m), undefined, JSON.stringify(m));
  });

  it('runs the title bar’s commands on the table whose toolbar was used: Compare with… on its file as A, the others on the table itself', () => {
    const file = '/results/pnl-2026-11-24.csv';
    const table = { file };
    assert.deepEqual(tableCommandCall('openInNotebook', table), { id: CommandIds.openInNotebook, arg: table });
    assert.deepEqual(tableCommandCall('saveView', table), { id: CommandIds.saveTableView, arg: table });
    assert.deepEqual(tableCommandCall('applyView', table), { id: CommandIds.applyTableView, arg: table });
    assert.equal(tableCommandCall('applyView', table).arg, table, 'the table itself, not a copy found again');
    assert.deepEqual(tableCommandCall('compareWith', table), { id: CommandIds.compareWith, arg: file });
    for (const c of TABLE_COMMANDS) assert.ok(TABLE_COMMAND_TITLES[c].length > 0);
  });
});

describe('table: requests paired with their replies (UI_REPLY_TYPES)', () => {
  it('pairs every request that is answered with its reply type; a cancel and a probe answer get none', () => {
    assert.deepEqual(Object.keys(UI_REPLY_TYPES).sort(), ['addToList', 'copy', 'copyText', 'export', 'getWindow', 'histogram', 'openExplorer', 'profile', 'savePng', 'scatter', 'setQuery', 'switchFile', 'tableCommand', 'useAsInput', 'walletActivity']);
    assert.equal(UI_REPLY_TYPES.getWindow, 'window');
    assert.equal(UI_REPLY_TYPES.setQuery, 'queryApplied');
    assert.equal(UI_REPLY_TYPES.scatter, 'scatter');
  });

  it('tells a request’s reply from any other message: its own type or failed', () => {
    const failed: UiMessage = { type: 'failed', requestId: 1, message: 'x' };
    const done: UiMessage = { type: 'done', requestId: 1 };
    assert.ok(isReplyTo('profile', failed));
    assert.ok(isReplyTo('copy', done));
    assert.ok(!isReplyTo('getWindow', done), 'a done is no window');
    assert.ok(!isReplyTo('histogram', { type: 'view', view: { version: 0, length: 0, total: 0, query: {}, countLabel: '' } } as unknown as UiMessage));
    // The pairing is a type too: the reply to a histogram can only be a histogram or failed.
    const types: UiReplyTo<'histogram'>['type'][] = ['histogram', 'failed'];
    assert.equal(types.length, 2);
  });
});
