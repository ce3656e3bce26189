/**
 * An address list from anywhere (typed, pasted, an agent's) is checked a slice at a time before the
 * endpoint's input check (issue 34 item 4): 100,000 addresses walked in the schema's one loop were
 * one long turn of the extension host's loop at each check of a call. Counted, not timed: the
 * items read between two turns of the loop. And what comes out (what is priced, approved and sent)
 * is what the input check alone gives, problems included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { validateInputSliced } from '../../../../src/core/spec/listCheck';
import { sampleAddress } from '../../../../src/core/spec/samples';

/** A base58 address per i, distinct for every i (the samples repeat past a few thousand). */
const wallet = (i: number): string => `W${i.toString().replace(/0/gu, 'z').padStart(43, 'x')}`;

/** The most list items read in one turn of the loop while `run` runs (a ticker of setImmediate counts the turns). */
async function mostReadInOneTurn(list: readonly unknown[], run: (list: readonly unknown[]) => Promise<unknown>): Promise<{ most: number; turns: number }> {
  let reads = 0;
  let most = 0;
  let turns = 0;
  const counted = new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/u.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  let ticking = true;
  const tick = (): void => {
    most = Math.max(most, reads);
    reads = 0;
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await run(counted);
  } finally {
    ticking = false;
  }
  return { most: Math.max(most, reads), turns };
}

describe('an address list checked a slice at a time (issue 34 item 4)', () => {
  const pnl = endpoint('pnl');

  it('100,000 addresses an agent gives are read at most a few thousand a turn of the loop, and the list checked is the one sent', async () => {
    const list = Array.from({ length: 100_000 }, (_, i) => wallet(i));
    let checked: unknown;
    const { most, turns } = await mostReadInOneTurn(list, async (l) => {
      checked = await validateInputSliced(pnl, { wallets: l });
    });
    assert.ok(most <= 4_096, `${most} items read in one turn (of ${turns})`);
    const v = checked as ReturnType<typeof validateInput>;
    assert.ok(v.ok);
    assert.deepEqual(v.input.wallets, list);
    assert.ok(Object.isFrozen(v.input.wallets), 'marked checked: the preflight and the send take it as it is');
  });

  it('gives what the input check alone gives: trimmed, normalised, de-duplicated; a bad item said in the same words', async () => {
    const lists: unknown[] = [
      Array.from({ length: 5_000 }, (_, i) => (i % 3 === 0 ? ` ${wallet(i % 1000)} ` : wallet(i))),
      Array.from({ length: 5_000 }, (_, i) => (i === 4_500 ? 'not an address' : wallet(i))),
      Array.from({ length: 5_000 }, (_, i) => (i === 3_000 ? 7 : wallet(i))),
      Array.from({ length: 100_001 }, (_, i) => wallet(i)),
      [wallet(1)],
      'nope',
    ];
    for (const wallets of lists) {
      assert.deepEqual(await validateInputSliced(pnl, { wallets }), validateInput(pnl, { wallets }), JSON.stringify(wallets).slice(0, 80));
    }
    // The second chain: upper-case hex normalised to lower, as the input check does.
    const alt = endpoint('altchain_pnlplus');
    const hex = Array.from({ length: 5_000 }, (_, i) => (i % 2 ? sampleAddress('alt', i).toUpperCase().replace('0X', '0x') : sampleAddress('alt', i)));
    const altGot = await validateInputSliced(alt, { wallets: hex });
    assert.deepEqual(altGot, validateInput(alt, { wallets: hex }));
    assert.ok(altGot.ok && (altGot.input.wallets as string[]).every((w) => w === w.toLowerCase()));
  });
});
