/**
 * The sandbox's own input rules, over raw HTTP with the demo key: numbers in query strings are
 * decimal digits only (no hex, binary, octal, exponent, spaces or empty value), a refusal is a
 * 400 that charges nothing (checked on GET /credits and the ledger), and a request id is an
 * opaque string: an odd-looking unknown one is a 404, never a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Credits, ErrorBody, SubmitAck } from '../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';

let sb: Sandbox;
let token = '';

before(async () => {
  sb = await startSandbox({ wallets: 500, altWallets: 200, delayScale: 0.001 });
  token = sb.addresses('token', 1)[0] ?? '';
});
after(() => sb.close());

interface Answer {
  status: number;
  body: unknown;
}

/** A raw request: the path and query go on the wire exactly as written here. */
async function raw(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { api_key: sb.demoKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${sb.baseUrl}${pathAndQuery}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function balance(): Promise<number> {
  const r = await raw('GET', '/credits');
  assert.equal(r.status, 200);
  return Credits.parse(r.body);
}

function error(a: Answer): { code: string; message: string } {
  const e = ErrorBody.parse(a.body).error;
  return typeof e === 'object' ? { code: e.code ?? '', message: e.message ?? '' } : { code: '', message: String(e) };
}

/** Sends a request that must be refused with 400 bad_input naming `param`; proves nothing was charged. */
async function refused(method: 'GET' | 'POST', pathAndQuery: string, param: string, body?: unknown): Promise<string> {
  const before = await balance();
  const since = sb.ledger().length;
  const r = await raw(method, pathAndQuery, body);
  assert.equal(r.status, 400, `${method} ${pathAndQuery} ${JSON.stringify(body) ?? ''}: ${JSON.stringify(r.body)}`);
  const e = error(r);
  assert.equal(e.code, 'bad_input');
  assert.ok(e.message.includes(param), `the message names “${param}”: ${e.message}`);
  assert.equal(await balance(), before, `${pathAndQuery}: the balance did not move`);
  assert.equal(sb.ledger().length, since, `${pathAndQuery}: nothing in the ledger`);
  return e.message;
}

/** Sends a request that must be accepted and charged exactly `credits`. */
async function accepted(method: 'GET' | 'POST', pathAndQuery: string, credits: number, body?: unknown): Promise<Answer> {
  const before = await balance();
  const r = await raw(method, pathAndQuery, body);
  assert.equal(r.status, 200, `${pathAndQuery}: ${JSON.stringify(r.body)}`);
  assert.equal(before - (await balance()), credits, `${pathAndQuery}: charged`);
  return r;
}

describe('sandbox inputs: numbers in query strings are decimal digits only', () => {
  it('refuses hex, padded, exponent and empty hours (400, nothing charged)', async () => {
    for (const hours of ['0x1', '%205%20', '%205', '5%20', '1e1', '1E1', '', '0b1', '0o7', '+1', '-1', '1.0', '1.', '.5', 'Infinity', 'NaN', '1_0', '%EF%BC%95' /* fullwidth 5 */]) {
      const message = await refused('GET', `/trending?hours=${hours}`, 'hours');
      assert.match(message, /whole number from 1 to 24/u, message);
    }
  });

  it('refuses a hex, exponent or padded market cap, and hex days', async () => {
    await refused('GET', '/mcaptokens?mcap_usd=0x10&days=3', 'mcap_usd');
    await refused('GET', '/mcaptokens?mcap_usd=1e5&days=3', 'mcap_usd');
    await refused('GET', '/mcaptokens?mcap_usd=%2050000&days=3', 'mcap_usd');
    await refused('GET', '/mcaptokens?mcap_usd=50000&days=0x3', 'days');
    await refused('GET', `/mcap?token=${token}&min_mcap_usd=0x0&max_mcap_usd=5000`, 'min_mcap_usd');
    await refused('GET', `/buysellfilter?token=${token}&side=buy&min_native=1e-3&max_native=5`, 'min_native');
    await refused('GET', `/timestamp?token=${token}&from=0x6553F100&to=1700086400`, 'from');
    await refused('GET', `/timestamp?token=${token}&from=1700000000&to=1700086400.5`, 'to');
  });

  it('refuses a number given twice', async () => {
    await refused('GET', '/trending?hours=1&hours=2', 'hours');
  });

  it('accepts plain decimals, with a fraction where the field takes one, and charges the price', async () => {
    await accepted('GET', '/trending?hours=5', 50);
    await accepted('GET', '/mcaptokens?mcap_usd=50000.5&days=3', 500);
    await accepted('GET', `/buysellfilter?token=${token}&side=buy&min_native=0.25&max_native=5`, 1000);
  });

  it('keeps the ranges: hours 1..24 on the main chain, 1..12 for the second chain’s DEX wallets', async () => {
    assert.match(await refused('GET', '/trending?hours=25', 'hours'), /1 to 24/u);
    assert.match(await refused('GET', '/trending?hours=0', 'hours'), /1 to 24/u);
    assert.match(await refused('GET', '/altchain_dexwallets?dex=uniswap_v3&hours=13', 'hours'), /1 to 12/u);
    await accepted('GET', '/altchain_dexwallets?dex=uniswap_v3&hours=12', 500);
  });

  it('wants JSON numbers, whole where the field is whole, in a POST body', async () => {
    const tokens = [token];
    await refused('POST', '/earlybuyers', 'buyers', { tokens, buyers: '100' });
    await refused('POST', '/earlybuyers', 'buyers', { tokens, buyers: 1.5 });
    await refused('POST', '/token_creators', 'page_size', { page_size: '5' });
    await accepted('POST', '/earlybuyers', 50, { tokens, buyers: 100 });
  });
});

describe('sandbox inputs: the rest of its own rules', () => {
  it('refuses a fragment without base58 characters, and token windows in milliseconds or negative', async () => {
    for (const f of ['...', '..', 'ab...', '0OIl', 'abc%20']) await refused('GET', `/findaddress?fragment=${f}`, 'fragment');
    await accepted('GET', '/findaddress?fragment=ab...c', 500);
    const [t1, t2] = sb.addresses('token', 2);
    const windows = (from: number, to: number) => ({ tokens: [{ token: t1, from, to }, { token: t2, from: 1_700_000_000, to: 1_700_086_400 }] });
    await refused('POST', '/tokensoverlap', 'tokens', windows(1_700_000_000_000, 1_700_086_400_000));
    await refused('POST', '/tokensoverlap', 'tokens', windows(-5, 1_700_086_400));
    await refused('POST', '/tokensoverlap', 'tokens', windows(1_700_086_400, 1_700_000_000));
    await accepted('POST', '/tokensoverlap', 100, windows(1_700_000_000, 1_700_086_400));
  });

  it('charges a list per distinct address (second-chain addresses compared in lower case)', async () => {
    const [a, b] = sb.addresses('wallet', 2);
    await accepted('POST', '/pnl', 10, { wallets: [a, b, a, a] });
    const alt = sb.addresses('altWallet', 1)[0] ?? '';
    await accepted('POST', '/altchain_pnlplus', 5, { wallets: [alt, `0x${alt.slice(2).toUpperCase()}`] });
  });

  it('refuses unknown parameters, a query string on a POST, and a body that is not an object', async () => {
    await refused('GET', '/trending?hours=1&hour=2', 'hour');
    await refused('POST', '/pnl?wallets=x', 'wallets', { wallets: sb.addresses('wallet', 1) });
    await refused('POST', '/pnl', 'body', [sb.addresses('wallet', 1)[0]]);
    await refused('POST', '/pnl', 'extra', { wallets: sb.addresses('wallet', 1), extra: 1 });
  });
});

describe('sandbox inputs: request ids are opaque', () => {
  it('answers 404 (not 400) for an unknown id however it looks, and finds a real one', async () => {
    for (const id of ['Zm9v%2BYmFy%2FcQ%3D%3D', 'a%20b', 'x'.repeat(600), '%F0%9F%99%82', 'req.with.dots']) {
      const r = await raw('GET', `/request/${id}`);
      assert.equal(r.status, 404, `${id}: ${JSON.stringify(r.body)}`);
      assert.equal(error(r).code, 'not_found');
    }
    const ack = SubmitAck.parse((await accepted('GET', '/trending?hours=1', 50)).body);
    assert.equal((await raw('GET', `/request/${encodeURIComponent(ack.requestId)}`)).status, 200);
  });
});
