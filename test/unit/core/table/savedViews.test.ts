/**
 * Saved views (src/core/table/savedViews.ts): saved under a cleaned name per endpoint, replaced by
 * a save of the same name in any case, the last chosen one remembered per endpoint, columns kept
 * by name so a view carries to the next result, and a damaged stored value read as far as it is
 * well-formed, never thrown on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  captureView,
  chooseView,
  cleanViewName,
  deleteView,
  lastView,
  MAX_NAME,
  MAX_VIEWS,
  parseSavedViews,
  saveView,
  viewQuery,
  viewsOf,
  type SavedView,
  type SavedViewsState,
} from '../../../../src/core/table/savedViews';
import type { TableLayout } from '../../../../src/shared/tableUiProtocol';

const COLUMNS = ['address', 'label', 'realized_pnl_usd_30d', 'winrate_30d'];
const LAYOUT: TableLayout = { hidden: ['label'], pinned: ['address'], widths: { address: 300 }, formats: { winrate_30d: 'percent' }, defaultFormat: 'compact' };
const NOW = new Date('2026-11-24T04:30:00Z');

function view(name: string, descending = true): SavedView {
  return captureView(name, { sort: [{ column: 2, descending }], filters: [{ kind: 'range', column: 3, min: 0.5 }, { kind: 'contains', column: 1, text: 'Whale' }], search: 'So1' }, COLUMNS, LAYOUT, NOW);
}

/** A stored value as globalState gives it back: JSON, no prototypes. */
const roundTrip = (s: SavedViewsState): unknown => JSON.parse(JSON.stringify(s));

describe('saved views: names', () => {
  it('cleans names: white space and control characters, length, empty', () => {
    assert.equal(cleanViewName('  Top\twhales\n 30d  '), 'Top whales 30d');
    assert.equal(cleanViewName('a\u0000b\u001fc'), 'a b c');
    assert.equal(cleanViewName(' \t\n'), undefined);
    assert.equal(cleanViewName(''), undefined);
    assert.equal(cleanViewName('x'.repeat(200))?.length, MAX_NAME);
    assert.equal(cleanViewName('🐋'.repeat(100)), '🐋'.repeat(MAX_NAME), 'cut by characters, never inside a surrogate pair');
  });

  it('a save under a name that differs only in case replaces that view, in place', () => {
    let s: SavedViewsState = {};
    s = saveView(s, 'pnl', view('Whales'));
    s = saveView(s, 'pnl', view('Bots'));
    s = saveView(s, 'pnl', view('  WHALES ', false));
    assert.deepEqual(viewsOf(s, 'pnl').map((v) => v.name), ['WHALES', 'Bots']);
    assert.equal(viewsOf(s, 'pnl')[0]?.sort[0]?.descending, undefined, 'the new content');
    assert.equal(lastView(s, 'pnl')?.name, 'WHALES');
  });

  it('refuses an empty name', () => {
    assert.throws(() => saveView({}, 'pnl', { ...view('x'), name: '   ' }), /needs a name/u);
  });

  it('names and scopes that look like object keys stay data', () => {
    let s: SavedViewsState = {};
    s = saveView(s, '__proto__', view('constructor'));
    s = saveView(s, 'toString', view('__proto__'));
    const back = parseSavedViews(roundTrip(s));
    assert.deepEqual(viewsOf(back, '__proto__').map((v) => v.name), ['constructor']);
    assert.deepEqual(viewsOf(back, 'toString').map((v) => v.name), ['__proto__']);
    assert.deepEqual(viewsOf(back, 'hasOwnProperty'), []);
    assert.equal(lastView(back, 'valueOf'), undefined);
    assert.equal(({} as Record<string, unknown>).views, undefined, 'no prototype was touched');
  });
});

describe('saved views: per endpoint, and the last chosen', () => {
  it('keeps each endpoint apart', () => {
    let s: SavedViewsState = {};
    s = saveView(s, 'pnl', view('A'));
    s = saveView(s, 'toptraders', view('B'));
    assert.deepEqual(viewsOf(s, 'pnl').map((v) => v.name), ['A']);
    assert.deepEqual(viewsOf(s, 'toptraders').map((v) => v.name), ['B']);
    assert.equal(lastView(s, 'pnl')?.name, 'A');
    assert.equal(lastView(s, 'columns:abc'), undefined);
  });

  it('remembers the view chosen last; none when cleared or when that view is deleted', () => {
    let s: SavedViewsState = {};
    s = saveView(s, 'pnl', view('A'));
    s = saveView(s, 'pnl', view('B'));
    assert.equal(lastView(s, 'pnl')?.name, 'B');
    s = chooseView(s, 'pnl', 'a');
    assert.equal(lastView(s, 'pnl')?.name, 'A');
    s = chooseView(s, 'pnl', undefined);
    assert.equal(lastView(s, 'pnl'), undefined);
    assert.throws(() => chooseView(s, 'pnl', 'C'), /no saved view named "C"/u);
    s = chooseView(s, 'pnl', 'B');
    s = deleteView(s, 'pnl', 'b');
    assert.deepEqual(viewsOf(s, 'pnl').map((v) => v.name), ['A']);
    assert.equal(lastView(s, 'pnl'), undefined, 'a deleted view is not opened in');
    s = deleteView(s, 'pnl', 'A');
    assert.deepEqual(Object.keys(s), [], 'an endpoint without views is dropped');
  });

  it('keeps at most MAX_VIEWS per endpoint, dropping the oldest', () => {
    let s: SavedViewsState = {};
    for (let i = 0; i <= MAX_VIEWS; i++) s = saveView(s, 'pnl', view(`v${i}`));
    const names = viewsOf(s, 'pnl').map((v) => v.name);
    assert.equal(names.length, MAX_VIEWS);
    assert.equal(names[0], 'v1');
    assert.equal(names.at(-1), `v${MAX_VIEWS}`);
  });
});

describe('saved views: what a view holds and gives back', () => {
  it('captures sort, filters, search, chosen columns and number formats by column name', () => {
    const v = view('Top');
    assert.deepEqual(v, {
      name: 'Top',
      sort: [{ column: 'realized_pnl_usd_30d', descending: true }],
      filters: [
        { kind: 'range', column: 'winrate_30d', min: 0.5 },
        { kind: 'contains', column: 'label', text: 'Whale' },
      ],
      search: 'So1',
      hidden: ['label'],
      pinned: ['address'],
      formats: { winrate_30d: 'percent' },
      defaultFormat: 'compact',
      savedAt: NOW.toISOString(),
    });
  });

  it('gives the query by index over another result with the columns elsewhere, leaving out (and naming) the missing ones', () => {
    const other = ['winrate_30d', 'address', 'realized_pnl_usd_30d', 'extra'];
    const { query, layout, missing } = viewQuery(view('Top'), other, { ...LAYOUT, widths: { extra: 90 } });
    assert.deepEqual(query, { sort: [{ column: 2, descending: true }], filters: [{ kind: 'range', column: 0, min: 0.5 }], search: 'So1' });
    assert.deepEqual(missing, ['label']);
    assert.deepEqual(layout, { hidden: ['label'], pinned: ['address'], widths: { extra: 90 }, formats: { winrate_30d: 'percent' }, defaultFormat: 'compact' });
  });

  it('round-trips through the stored form', () => {
    const s = saveView(saveView({}, 'pnl', view('A')), 'pnl', view('B', false));
    assert.deepEqual(parseSavedViews(roundTrip(s)), s);
  });
});

describe('saved views: a damaged stored value', () => {
  it('is read as far as it is well-formed, never thrown on', () => {
    const good = roundTrip(saveView({}, 'pnl', view('Good'))) as Record<string, { views: unknown[]; last?: string }>;
    const goodView = good.pnl?.views[0] as Record<string, unknown>;
    for (const raw of [undefined, null, 42, 'x', [], [1, 2], { pnl: null }, { pnl: { views: 'x' } }, { pnl: [] }]) {
      assert.deepEqual(parseSavedViews(raw), {}, JSON.stringify(raw));
    }
    const bad = [
      { ...goodView, name: 7 },
      { ...goodView, name: '  ' },
      { ...goodView, sort: [{ column: 3 }] },
      { ...goodView, sort: 'x' },
      { ...goodView, filters: [{ kind: 'range', column: 'a', min: 'x' }] },
      { ...goodView, filters: [{ kind: 'regex', column: 'a' }] },
      { ...goodView, filters: [{ kind: 'contains', column: 'a' }] },
      { ...goodView, hidden: [1] },
      { ...goodView, pinned: undefined },
      { ...goodView, formats: { a: 'hex' } },
      { ...goodView, defaultFormat: 'bold' },
      null,
      'view',
    ];
    const parsed = parseSavedViews({ pnl: { views: [...bad, goodView, { ...goodView, name: 'GOOD' }], last: 'good' }, other: { views: bad }, third: 'x' });
    assert.deepEqual(Object.keys(parsed), ['pnl']);
    assert.deepEqual(viewsOf(parsed, 'pnl').map((v) => v.name), ['Good'], 'the bad ones dropped, the repeated name too');
    assert.equal(lastView(parsed, 'pnl')?.name, 'Good');
    assert.equal(lastView(parseSavedViews({ pnl: { views: [goodView], last: 'gone' } }), 'pnl'), undefined, 'a last view that is not there');
    assert.equal(lastView(parseSavedViews({ pnl: { views: [goodView], last: 5 } }), 'pnl'), undefined);
  });
});
