// A trader's formatting in the table (issue 23 item 5): profits and returns with their sign (and a
// gain or a loss tone for the colour), decided by the one classifier and the metric catalog;
// timestamps in the person's time zone with UTC on hover; a column sliding under the pinned ones
// shows its start, not the tail of its number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyColumn, isSignedColumn, isSignedName } from '../../../src/core/table/columnKind';
import { METRICS } from '../../../src/core/spec/metrics';
// eslint-disable-next-line no-restricted-imports -- columnInfo.ts is pure (no vscode import)
import { columnInfo } from '../../../src/vscode/table/columnInfo';
import { durationText, metricCell, signedCell, timeCell } from '../../../src/webview-ui/format';
import { ColumnAxis } from '../../../src/webview-ui/layout';
import { sampleAddress } from '../../../src/core/spec/samples';

const signedNames = (): string[] => METRICS.filter((m) => isSignedName(m.name)).map((m) => m.name);

describe('which columns are profits and returns', () => {
  it('the one rule (core/table/columnKind.ts) marks the catalog’s PnL and ROI metrics signed, not their spreads, shares or positive sums', () => {
    const s = signedNames();
    for (const n of ['realized_pnl_usd', 'unrealized_pnl_native', 'total_pnl_usd', 'worst_trade_pnl_usd', 'avg_trade_pnl_usd', 'pnl_after_fees_usd', 'roi', 'realized_roi', 'median_trade_roi']) {
      assert.ok(s.includes(n), `${n} is signed`);
    }
    for (const n of ['gross_profit_usd', 'gross_loss_usd', 'pnl_stddev_usd', 'profit_factor', 'fees_paid_usd', 'roi_2x_share', 'roi_stddev', 'sharpe_ratio', 'winrate', 'net_flow_usd']) {
      assert.ok(!s.includes(n), `${n} is not signed`);
    }
  });

  it('the classifier says so for metric columns and for PnL/ROI names outside the catalog, numbers only', () => {
    const num = classifyColumn(['1.5', '-2']);
    assert.equal(isSignedColumn(num, 'realized_pnl_usd_7d'), true);
    assert.equal(isSignedColumn(num, 'roi_all'), true);
    assert.equal(isSignedColumn(num, 'winrate_7d'), false);
    assert.equal(isSignedColumn(num, 'pnl_usd'), true);
    assert.equal(isSignedColumn(num, 'pnl'), true);
    assert.equal(isSignedColumn(num, 'realized_profit'), true);
    assert.equal(isSignedColumn(num, 'pnl_share'), false);
    assert.equal(isSignedColumn(num, 'volume_usd'), false);
    assert.equal(isSignedColumn(classifyColumn(['n/a', 'x']), 'pnl'), false, 'text is never signed');
  });

  it('the table’s column information carries signed and date columns', () => {
    const rows = [
      [sampleAddress('main', 1), '12.5', '0.4', '2024-05-01T12:00:00Z', '0.5'],
      [sampleAddress('main', 2), '-3', '-0.1', '2024-05-02T08:30:00Z', '0.7'],
    ];
    const info = columnInfo(['wallet', 'pnl_usd', 'roi_7d', 'first_seen', 'winrate_7d'], rows);
    assert.deepEqual(
      info.map((c) => [c.name, c.signed === true, c.date === true]),
      [
        ['wallet', false, false],
        ['pnl_usd', true, false],
        ['roi_7d', true, false],
        ['first_seen', false, true],
        ['winrate_7d', false, false],
      ],
    );
  });
});

describe('signed values', () => {
  it('a gain leads with +, a loss with − (not colour alone); zero and text as they are', () => {
    assert.deepEqual(signedCell('12.5', '12.5'), { text: '+12.5', tone: 'gain' });
    assert.deepEqual(signedCell('-7.37', '-7.37'), { text: '\u22127.37', tone: 'loss' });
    assert.deepEqual(signedCell('-1234.5', '-1,234.5'), { text: '\u22121,234.5', tone: 'loss' });
    assert.deepEqual(signedCell('0', '0'), { text: '0' });
    assert.deepEqual(signedCell('n/a', 'n/a'), { text: 'n/a' });
  });
});

describe('timestamps', () => {
  it('shows an ISO time in the person’s zone, its UTC time on hover', () => {
    const c = timeCell('2024-05-01T12:00:05Z', 'Asia/Tokyo');
    assert.equal(c.text, '2024-05-01 21:00:05');
    assert.match(c.title ?? '', /^2024-05-01 12:00:05 UTC/u);
    assert.equal(timeCell('2024-05-01T23:30:00.123+02:00', 'UTC').text, '2024-05-01 21:30:00');
    assert.equal(timeCell('2024-05-01 12:00', 'America/New_York').text, '2024-05-01 08:00:00', 'no zone: the service’s UTC');
  });

  it('reads the person’s own zone from the Date itself (the grid’s path), the same as Intl says', () => {
    const was = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      const c = timeCell('2024-05-01T12:00:05Z');
      assert.equal(c.text, '2024-05-01 21:00:05');
      assert.equal(c.text, timeCell('2024-05-01T12:00:05Z', 'Asia/Tokyo').text);
      assert.match(c.title ?? '', /^2024-05-01 12:00:05 UTC \(shown in your time zone, /u);
    } finally {
      if (was === undefined) delete process.env.TZ;
      else process.env.TZ = was;
    }
  });

  it('leaves a date without a time and anything else as it is', () => {
    assert.deepEqual(timeCell('2024-05-01', 'Asia/Tokyo'), { text: '2024-05-01' });
    assert.deepEqual(timeCell('yesterday', 'Asia/Tokyo'), { text: 'yesterday' });
  });
});

describe('metric values on a card', () => {
  it('money, ratios, counts and durations are formatted; signed ones carry their sign', () => {
    assert.deepEqual(metricCell('-1234.5678', 'usd', true), { text: '\u22121,234.57', tone: 'loss' });
    assert.deepEqual(metricCell('0.25', 'ratio', true), { text: '+25.00%', tone: 'gain' });
    assert.deepEqual(metricCell('0.5', 'ratio', false), { text: '50.00%' });
    assert.deepEqual(metricCell('12345', 'count', false), { text: '12,345' });
    assert.deepEqual(metricCell('3725', 'seconds', false), { text: '1h 02m' });
    assert.deepEqual(metricCell('', 'usd', true), { text: '—' });
    assert.deepEqual(metricCell(undefined, 'usd', true), { text: '—' });
    assert.equal(durationText(45), '45s');
    assert.equal(durationText(90_000), '1d 1h');
  });
});

describe('a column under the pinned ones', () => {
  it('is found with how much of it is covered, so its text starts at the pinned edge', () => {
    const a = new ColumnAxis([100, 120, 80]);
    assert.equal(a.covered(0), undefined, 'not scrolled: nothing is under the pinned columns');
    assert.deepEqual(a.covered(40), { column: 0, px: 40 });
    assert.equal(a.covered(100), undefined, 'a column starts right at the edge');
    assert.deepEqual(a.covered(130), { column: 1, px: 30 });
  });
});
