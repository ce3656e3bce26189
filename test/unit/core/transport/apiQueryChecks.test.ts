/**
 * Every path that sends a Wallet Database query gets the query editor's field checks before the
 * network (issue 11): the typed client itself runs them, so a script's api.call, the palette and
 * a query file cannot differ. Against the sandbox, whose request log proves nothing was sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { BadInputError } from '../../../../src/core/errors';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';

let sb: Sandbox;
let api: WalletAnalyticsApi;

before(async () => {
  sb = await startSandbox({ seed: 5, wallets: 500, altWallets: 200, delayScale: 0.001 });
  api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
});
after(() => sb.close());

const posts = (p: string) => sb.received().filter((r) => r.method === 'POST' && r.path === p).length;

describe('api.call: query field checks before the network', () => {
  it('refuses an unknown field with "did you mean", sending nothing paid', async () => {
    const before = sb.balance();
    const query = { where: { and: [{ field: 'winrate_30', op: '>', value: 0.5 }] }, limit: 5 };
    await assert.rejects(api.call('wallet_database', { query }), (e: unknown) => {
      assert.ok(e instanceof BadInputError, String(e));
      assert.equal(e.source, 'client', 'caught here, not by the server');
      assert.equal(e.charged, 'no');
      assert.match(e.message, /winrate_30.*winrate_30d/u);
      return true;
    });
    assert.equal(posts('/wallet_database'), 0, 'no query was sent');
    assert.equal(sb.balance(), before);
  });

  it('refuses a value of the wrong type, on either chain', async () => {
    const wrongType = { where: { and: [{ field: 'winrate_30d', op: '>', value: 'high' }] }, limit: 5 };
    await assert.rejects(api.call('altchain_wallet_database', { query: wrongType }), /compares numbers/u);
    await assert.rejects(api.call('wallet_database', { query: wrongType }), BadInputError);
    assert.equal(posts('/altchain_wallet_database') + posts('/wallet_database'), 0);
  });

  it('sends a good query, reading the field list once (free)', async () => {
    const query = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.5 }] }, limit: 5 };
    const lists = () => sb.received().filter((r) => r.path === '/wallet_database/columns').length;
    const before = lists();
    await api.call('wallet_database', { query });
    await api.call('wallet_database', { query });
    assert.equal(posts('/wallet_database'), 2);
    assert.ok(lists() - before <= 1, 'the field list is read at most once for both');
  });
});
