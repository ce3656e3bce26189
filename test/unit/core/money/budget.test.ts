/**
 * Spend budgets (issue 25): a paid call past the day's or the period's budget is refused before its
 * price is shown, saying what is left, what it needs and when the budget resets; the worst known
 * case is what is held; two windows over one ledger cannot each spend the day's budget; and the
 * forecast projects the period's pace to the reset.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountForecast, budgetRefusal, budgetStates, DAY_MS, forecast, HOLD_TTL_MS, utcDayStart, type Budgets } from '../../../../src/core/money/budget';
import { endpoint } from '../../../../src/core/spec/catalog';
import { quote } from '../../../../src/core/money/pricing';
import { priceGate } from '../../../../src/core/money/quota';
import { PERIOD_MS } from '../../../../src/core/money/quotaPeriod';
import { sampleAddress } from '../../../../src/core/spec/samples';
import { SpendLedger, type SpendEntry } from '../../../../src/core/money/spendLedger';

const S = { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 };
const SCOPE = 'http://127.0.0.1:1';
const now = Date.parse('2026-12-10T15:30:00Z');
const reset = new Date('2026-12-25T00:00:00Z');
let entryCount = 0;
const entry = (credits: number, at: number, extra: Partial<SpendEntry> = {}): SpendEntry => ({ endpointId: 'trending', credits, at, scope: SCOPE, id: `e${(entryCount += 1)}`, ...extra });

describe('budget states', () => {
  it('counts a UTC day from midnight and a period from reset − 30 days, per scope; 0 is no budget', () => {
    const ledger = [
      entry(100, utcDayStart(now) - 1), // yesterday: the period's, not the day's
      entry(40, utcDayStart(now) + 1000),
      entry(7, now - 10, { scope: 'other' }),
      entry(1000, reset.getTime() - PERIOD_MS - 1), // the period before
    ];
    const [day, period] = budgetStates({ perDay: 50, perPeriod: 500 }, ledger, SCOPE, now, reset);
    assert.deepEqual([day?.kind, day?.spent, day?.left, day?.resetsAt.toISOString()], ['day', 40, 10, '2026-12-11T00:00:00.000Z']);
    assert.deepEqual([period?.kind, period?.spent, period?.left, period?.resetsAt.toISOString()], ['period', 140, 360, reset.toISOString()]);
    assert.deepEqual(budgetStates({ perDay: 0, perPeriod: 0 }, ledger, SCOPE, now, reset), []);
  });

  it('counts a hold while fresh, and forgets one its window never settled', () => {
    const fresh = budgetStates({ perDay: 100, perPeriod: 0 }, [entry(30, now - 1000, { hold: true })], SCOPE, now, reset);
    assert.equal(fresh[0]?.spent, 30);
    const stale = budgetStates({ perDay: 100, perPeriod: 0 }, [entry(30, now - HOLD_TTL_MS - 1, { hold: true })], SCOPE, now, reset);
    assert.equal(stale[0]?.spent, 0);
  });
});

describe('budget gate: refused before the price, saying left, needed and reset', () => {
  const states = (b: Budgets, spent: number) => budgetStates(b, [entry(spent, now - 1000)], SCOPE, now, reset);

  it('refuses a call past the day’s budget, naming what is left, what it needs, when it resets and the setting', () => {
    const g = priceGate(quote(endpoint('trending'), { hours: 2 }), S, 1e9, reset, false, states({ perDay: 1_000, perPeriod: 0 }, 980));
    assert.equal(g.kind, 'refuse');
    assert.ok(g.kind === 'refuse');
    assert.equal(g.setting, 'walletAnalytics.budget.perDay');
    assert.match(g.message, /needs 50 credits/u);
    assert.match(g.message, /daily budget of 1,000 credits has 20 credits left/u);
    assert.match(g.message, /Nothing was sent and nothing was charged/u);
    assert.match(g.message, /resets at 2026-12-11 00:00 UTC/u);
  });

  it('refuses past the period’s budget with its reset, and lets a call within both budgets through to its price', () => {
    const g = priceGate(quote(endpoint('trending'), { hours: 2 }), S, 1e9, reset, false, states({ perDay: 0, perPeriod: 500 }, 500));
    assert.ok(g.kind === 'refuse');
    assert.equal(g.setting, 'walletAnalytics.budget.perPeriod');
    assert.match(g.message, /30-day budget of 500 credits is used up/u);
    assert.match(g.message, /resets at 2026-12-25 00:00 UTC/u);
    assert.equal(priceGate(quote(endpoint('trending'), { hours: 2 }), S, 1e9, reset, false, states({ perDay: 100, perPeriod: 500 }, 50)).kind, 'step');
  });

  it('holds a paged read’s “up to” (its worst known case), not its first page', () => {
    const q = quote(endpoint('wallet_activity'), { address: sampleAddress('main', 1) }, { pages: 20 });
    assert.equal(q.exact, false);
    const g = priceGate(q, S, 1e9, reset, false, states({ perDay: 30, perPeriod: 0 }, 15));
    assert.ok(g.kind === 'refuse', `${g.kind}: up to ${String(q.atMost)} against 15 left`);
    assert.match(g.message, new RegExp(`needs ${q.atMost ?? 0} credits`, 'u'));
  });

  it('a Wallet Database query with unknown matches: refused when even its smallest bill passes; else the question says what the budgets leave, and that a bill past it is charged whole', () => {
    const q = quote(endpoint('wallet_database'), {});
    assert.equal(priceGate(q, S, 1e9, reset, false, states({ perDay: q.credits + 10, perPeriod: 0 }, 20)).kind, 'refuse');
    const g = priceGate(q, S, 1e9, reset, false, states({ perDay: 5_000, perPeriod: 9_000 }, 1_000));
    assert.ok(g.kind === 'unbounded');
    assert.equal(g.budgetLeft, 4_000, 'the least any budget leaves');
    assert.match(g.detail, /Your budgets leave 4,000 credits: a bill past that is still charged whole/u);
    const none = priceGate(q, S, 1e9, reset);
    assert.ok(none.kind === 'unbounded');
    assert.equal(none.budgetLeft, undefined, 'no budget: nothing to say of one');
  });

  it('budgetRefusal is silent when no budget is set', () => {
    assert.equal(budgetRefusal(1e12, []), undefined);
  });
});

/** One globalState every window shares, with each window's ledger over it. */
function sharedStore(): { store: { read(): readonly SpendEntry[]; write(items: SpendEntry[]): Promise<void> }; saved: () => SpendEntry[] } {
  let saved: SpendEntry[] = [];
  return { store: { read: () => saved, write: (items) => ((saved = items), Promise.resolve()) }, saved: () => saved };
}

describe('budgets across windows: one ledger', () => {
  const B: Budgets = { perDay: 1_000, perPeriod: 0 };
  const clock = () => now;

  it('a second window cannot spend past the day’s budget the first one spent', async () => {
    const { store } = sharedStore();
    const a = new SpendLedger(store, clock);
    const b = new SpendLedger(store, clock);
    const h = await a.hold('trending', 900, SCOPE, B, reset);
    assert.ok('id' in h);
    await a.record('trending', 900, SCOPE);
    await a.release(h.id);
    assert.equal(b.budgets(B, SCOPE, reset)[0]?.left, 100, 'window B reads A’s charge fresh');
    const q = quote(endpoint('mcap'), {});
    const g = priceGate(q, S, 1e9, reset, false, b.budgets(B, SCOPE, reset));
    assert.ok(g.kind === 'refuse', 'B is refused before the price');
    assert.match(g.message, /has 100 credits left/u);
  });

  it('two windows with prices shown at once: the first approval holds the budget, the second is refused at its approval', async () => {
    const { store, saved } = sharedStore();
    const a = new SpendLedger(store, clock);
    const b = new SpendLedger(store, clock);
    // Both windows see 1,000 left and show a price of 600.
    assert.equal(a.budgets(B, SCOPE, reset)[0]?.left, 1_000);
    assert.equal(b.budgets(B, SCOPE, reset)[0]?.left, 1_000);
    const ha = await a.hold('pnl', 600, SCOPE, B, reset);
    assert.ok('id' in ha, 'A approved first: held');
    const hb = await b.hold('pnl', 600, SCOPE, B, reset);
    assert.ok('refused' in hb, 'B is refused: A’s hold counts before its charge is known');
    assert.match(hb.refused, /needs 600 credits.*400 credits left/u);
    // A's charge replaces its hold: counted once.
    await a.record('pnl', 600, SCOPE);
    assert.equal(b.budgets(B, SCOPE, reset)[0]?.spent, 600);
    await a.release(ha.id);
    assert.equal(saved().filter((e) => e.hold).length, 0, 'no hold left behind');
    assert.equal(a.charges().length, 1);
  });

  it('a paged read stays held for the pages to come; what was not read is released', async () => {
    const { store } = sharedStore();
    const a = new SpendLedger(store, clock);
    const b = new SpendLedger(store, clock);
    const h = await a.hold('activity', 20, SCOPE, B, reset);
    assert.ok('id' in h);
    await a.record('activity', 1, SCOPE);
    await a.record('activity', 1, SCOPE);
    assert.equal(b.budgets(B, SCOPE, reset)[0]?.spent, 20, 'two pages charged, eighteen still held');
    await a.release(h.id);
    assert.equal(b.budgets(B, SCOPE, reset)[0]?.spent, 2);
  });

  it('a hold is not placed when no budget is set, and a window releases only its own holds', async () => {
    const { store, saved } = sharedStore();
    const a = new SpendLedger(store, clock);
    const h = await a.hold('pnl', 600, SCOPE, { perDay: 0, perPeriod: 0 }, reset);
    assert.ok('id' in h);
    assert.equal(saved().length, 0);
    const held = await a.hold('pnl', 600, SCOPE, B, reset);
    assert.ok('id' in held);
    await new SpendLedger(store, clock).release(held.id);
    assert.equal(saved().filter((e) => e.hold).length, 1);
  });
});

describe('forecast', () => {
  it('projects the period’s pace to the reset: 10 days, 13.67M spent, 30-day period → 41M of 1000M', () => {
    const start = reset.getTime() - PERIOD_MS;
    const f = forecast(13_670_000, start, start + 10 * DAY_MS, reset, 1_000_000_000);
    assert.equal(f.projected, 41_010_000);
    assert.equal(f.text, 'at this pace: 41M of 1000M by 2026-12-25');
  });
  it('says nothing more than the spend with nothing spent, and small sums in K', () => {
    const start = reset.getTime() - PERIOD_MS;
    assert.equal(forecast(0, start, start + DAY_MS, reset, 500_000).text, 'at this pace: 0 of 500K by 2026-12-25');
    assert.equal(forecast(0, start, start + DAY_MS, reset, 500_000).short, '0 of 500K by 12-25', 'the Account row, whole at the default width');
    assert.equal(forecast(1_000, start, start + 15 * DAY_MS, reset, 1_000_000).text, 'at this pace: 2K of 1M by 2026-12-25');
  });
  it('the Account view’s: against the quota, what the account used (its balance) when more than this editor spent; against a period budget, this editor’s spend', () => {
    const start = reset.getTime() - PERIOD_MS;
    const at = { since: start, now: start + 10 * DAY_MS, by: reset, quota: 1_000_000_000, estimated: false };
    // 300M used by the account (scripts too), 1M of it from this editor, the period's start known: the pace is the account's.
    const quota = accountForecast({ ...at, spend: 1_000_000, used: 300_000_000, perPeriod: 0 });
    assert.equal(quota.basis, 'used');
    assert.equal(quota.short, '900M of 1000M by 12-25');
    assert.equal(quota.projected, 900_000_000);
    // The start only estimated (the first balance read): what was used before it has no pace; this editor's pace adds to it.
    assert.equal(accountForecast({ ...at, estimated: true, spend: 1_000_000, used: 300_000_000, perPeriod: 0 }).short, '302M of 1000M by 12-25');
    // The balance not read yet, or less used than this editor counts (a reset it has not seen): its own spend.
    assert.equal(accountForecast({ ...at, spend: 1_000_000, used: undefined, perPeriod: 0 }).short, '3M of 1000M by 12-25');
    assert.equal(accountForecast({ ...at, spend: 1_000_000, used: 500_000, perPeriod: 0 }).basis, 'spend');
    // A period budget counts this editor's calls only, whatever the account used.
    const budget = accountForecast({ ...at, spend: 1_000_000, used: 300_000_000, perPeriod: 5_000_000 });
    assert.equal(budget.basis, 'spend');
    assert.equal(budget.short, '3M of 5M by 12-25');
  });
  it('reads the pace over at least a day: a call in the period’s first minute is not a month of such calls per minute', () => {
    const start = reset.getTime() - PERIOD_MS;
    assert.equal(forecast(50, start, start + 60_000, reset, 1_000_000).projected, Math.round(50 + 50 * ((PERIOD_MS - 60_000) / DAY_MS)));
  });
});
