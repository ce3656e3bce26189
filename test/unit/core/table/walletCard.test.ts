// A wallet on one card (issue 23 item 4): a row of wallet metrics read as the catalog's groups,
// metrics as rows and the four timeframes as columns, the other columns apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDENTITY_COLUMNS, METRIC_GROUPS, metricColumns, metricsOn, TIMEFRAMES } from '../../../../src/core/spec/metrics';
import { isWalletRow, walletCard } from '../../../../src/core/table/walletCard';
import { sampleAddress } from '../../../../src/core/spec/samples';

describe('a wallet card', () => {
  it('reads a whole wallet row (639 columns) as grouped metrics × the four timeframes', () => {
    const columns = [...IDENTITY_COLUMNS, ...metricColumns('main')];
    const values = columns.map((c, i) => (c === 'address' ? sampleAddress('main', 1) : c === 'label' ? 'whale' : String(i)));
    assert.ok(isWalletRow(columns));
    const card = walletCard(columns, values);
    assert.deepEqual(card.timeframes, [...TIMEFRAMES]);
    assert.deepEqual(
      card.groups.map((g) => g.group),
      [...METRIC_GROUPS],
      'every group, in the catalog order',
    );
    assert.equal(
      card.groups.reduce((n, g) => n + g.metrics.length, 0),
      metricsOn('main').length,
      'one row per metric of the chain',
    );
    const pnl = card.groups[0]?.metrics[0];
    assert.equal(pnl?.metric.name, 'realized_pnl_usd');
    const at = (name: string): string => String(columns.indexOf(name));
    assert.deepEqual(pnl?.values, { '1d': at('realized_pnl_usd_1d'), '7d': at('realized_pnl_usd_7d'), '30d': at('realized_pnl_usd_30d'), all: at('realized_pnl_usd_all') });
    assert.deepEqual(
      card.fields.map((f) => f.name),
      [...IDENTITY_COLUMNS],
    );
    assert.equal(card.fields.find((f) => f.name === 'label')?.value, 'whale');
  });

  it('keeps the catalog order whatever the file order, and only the timeframes present', () => {
    const columns = ['winrate_7d', 'address', 'roi_7d', 'realized_pnl_usd_7d', 'realized_pnl_usd_all', 'note'];
    const card = walletCard(columns, ['0.5', 'A', '0.2', '-3', '10', 'x']);
    assert.deepEqual(card.timeframes, ['7d', 'all']);
    assert.deepEqual(
      card.groups.map((g) => [g.group, g.metrics.map((m) => m.metric.name)]),
      [
        ['pnl', ['realized_pnl_usd']],
        ['roi', ['roi']],
        ['winrate', ['winrate']],
      ],
    );
    assert.deepEqual(card.groups[1]?.metrics[0]?.values, { '7d': '0.2' });
    assert.deepEqual(
      card.fields.map((f) => [f.column, f.name, f.value]),
      [
        [1, 'address', 'A'],
        [5, 'note', 'x'],
      ],
    );
  });

  it('is offered only for rows with wallet metric columns', () => {
    assert.equal(isWalletRow(['wallet', 'pnl_usd']), false);
    assert.equal(isWalletRow(['address', 'winrate_30d']), true);
    assert.equal(isWalletRow(['winrate_90d']), false, 'not a timeframe of the catalog');
  });
});
