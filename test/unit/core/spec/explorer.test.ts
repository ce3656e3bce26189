// "Open in Explorer" (issue 23 item 6): the address's page from the person's https template per
// chain; no template, a bad one or a cell that is not an address gives a message, never a URL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as explorer from '../../../../src/core/spec/explorer';

const { explorerLink } = explorer;
import { sampleAddress } from '../../../../src/core/spec/samples';
import { parseUiRequest } from '../../../../src/shared/tableUiProtocol';
import { USER_ONLY_KEYS } from '../../../../src/core/manifest/userOnlySettings';

const MAIN = sampleAddress('main', 1);
const ALT = '0x52908400098527886e0f7030069857d2e4169ee7';

describe('explorer links', () => {
  it('fills {address} of an https template per chain', () => {
    assert.deepEqual(explorerLink('https://explorer.example/account/{address}', MAIN, 'main'), { url: `https://explorer.example/account/${MAIN}` });
    assert.deepEqual(explorerLink(' https://scan.example/address/{address}?tab=tx ', ALT, 'alt'), { url: `https://scan.example/address/${ALT}?tab=tx` });
  });

  it('with no template, says which setting to set and how', () => {
    const l = explorerLink('', MAIN, 'main');
    assert.ok('problem' in l && l.unset);
    assert.match(l.problem, /set walletAnalytics\.explorer\.mainUrl to .*https:\/\/.*\{address\}/u);
    const alt = explorerLink('  ', ALT, 'alt');
    assert.ok('problem' in alt && /walletAnalytics\.explorer\.altUrl/u.test(alt.problem));
  });

  it('refuses a template that is not https or has no {address}, and a cell that is not an address', () => {
    for (const t of ['http://explorer.example/{address}', 'javascript:alert(1)//{address}', 'file:///etc/{address}', 'https://explorer.example/account/', 'not a url {address}']) {
      const l = explorerLink(t, MAIN, 'main');
      assert.ok('problem' in l && !l.unset, t);
    }
    const l = explorerLink('https://explorer.example/account/{address}', '../../evil?x=', 'main');
    assert.ok('problem' in l, 'only a real address of the chain goes in the URL');
    assert.ok('problem' in explorerLink('https://explorer.example/account/{address}', MAIN, 'alt'), 'a main-chain address is not an alt one');
  });

  it('the templates are user settings only, and the webview asks with a well-formed message', () => {
    assert.ok(USER_ONLY_KEYS.includes('explorer.mainUrl') && USER_ONLY_KEYS.includes('explorer.altUrl'));
    assert.deepEqual(parseUiRequest({ type: 'openExplorer', requestId: 3, address: MAIN, chain: 'main' }), { type: 'openExplorer', requestId: 3, address: MAIN, chain: 'main' });
    assert.equal(parseUiRequest({ type: 'openExplorer', requestId: 3, address: MAIN, chain: 'moon' }), undefined);
    assert.equal(parseUiRequest({ type: 'openExplorer', requestId: 3, address: 'x'.repeat(500), chain: 'main' }), undefined);
  });

  it('offers the known explorers of each chain to pick from on first use, each a working template (issue 35.19)', () => {
    const known = (explorer as { KNOWN_EXPLORERS?: Record<'main' | 'alt', readonly { name: string; template: string }[]> }).KNOWN_EXPLORERS;
    assert.ok(known, 'a list of known explorers per chain');
    for (const [chain, address] of [['main', MAIN], ['alt', ALT]] as const) {
      assert.ok(known[chain].length >= 2, `${chain}: more than one to pick from`);
      for (const e of known[chain]) {
        const l = explorerLink(e.template, address, chain);
        assert.ok('url' in l && l.url.startsWith('https://') && l.url.includes(address), `${e.name}: ${e.template}`);
      }
    }
    assert.ok(known.main.some((e) => e.name === 'Solscan'));
  });
});
