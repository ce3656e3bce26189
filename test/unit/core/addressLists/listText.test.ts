/**
 * A list source of 100,000 entries is parsed without holding the extension host's thread (issue 34
 * item 4): parsing built a translated sentence for every bad entry and ran as one 330–640 ms pass.
 * Held here by counting, never by timing: the translated messages looked up while parsing, and
 * the turns a host timer gets while the sliced parse runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badEntriesText, parseAddressList, parseAddressListSliced, PARSE_SLICE } from '../../../../src/core/addressLists/listText';
import { countingLookups } from '../../fixtures/countingLookups';
import { countingTurns } from '../../loopTurns';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A distinct 44-character base58 address for each i: z, then i in base58 after a run of 1s (base58's zero). */
function address(i: number): string {
  let s = '';
  for (let n = i; n > 0 || s === ''; n = Math.floor(n / 58)) s = (BASE58[n % 58] ?? '') + s;
  return `z${s.padStart(43, '1')}`;
}

/** 100,000 entries: every other one not an address (a column of notes, a pasted log). */
const ENTRIES = Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? address(i) : `note-${i}`));

describe('a list of addresses parsed (issue 34 item 4)', () => {
  it('parsing 100,000 entries, half of them bad, builds no translated message; the words for the bad ones build only those shown', () => {
    const parsed = countingLookups(() => parseAddressList(ENTRIES.join('\n'), 'main'));
    assert.equal(parsed.result.valid.length, 50_000);
    assert.equal(parsed.result.invalid.length, 50_000);
    assert.equal(parsed.lookups, 0, `${parsed.lookups} messages built while parsing`);
    const words = countingLookups(() => badEntriesText(parsed.result, 5));
    // Five entries' reasons and their five lines, the "and N more" and the sentence around them.
    assert.ok(words.lookups <= 12, `${words.lookups} messages built for five bad entries shown`);
    assert.match(words.result ?? '', /^50,000 entries are not addresses: line 2 “note-1” \(“-” is not a base58 character \(base58 has no 0, O, I or l\)\); line 4 “note-3”/u);
    const bad = parsed.result.invalid[1];
    assert.deepEqual([bad?.line, bad?.value, bad?.reason], [4, 'note-3', '“-” is not a base58 character (base58 has no 0, O, I or l)']);
  });

  it('a list source of 100,000 entries is parsed while a timer on the host keeps firing, to the same list as in one go', async () => {
    const { value: sliced, turns } = await countingTurns(() => parseAddressListSliced(ENTRIES, 'main'));
    // One turn of the loop at least between two slices of PARSE_SLICE entries.
    assert.ok(turns >= Math.floor(ENTRIES.length / PARSE_SLICE) - 1, `the host's loop turned ${turns} times while 100,000 entries were parsed`);
    const whole = parseAddressList(ENTRIES.join('\n'), 'main');
    assert.deepEqual(sliced.valid, whole.valid);
    assert.deepEqual(sliced.invalid.map((b) => [b.line, b.value]), whole.invalid.map((b) => [b.line, b.value]));
    const text = await parseAddressListSliced(ENTRIES.join('\n'), 'main');
    assert.deepEqual(text.invalid.slice(0, 3).map((b) => [b.line, b.value]), [[2, 'note-1'], [4, 'note-3'], [6, 'note-5']]);
  });

  it('counts lines across every kind of line end, entries several to a line, quotes and blank lines as before', async () => {
    const [a, b, c] = [address(1), address(2), address(3)];
    const text = `${a}; 'x1'\r\n\r\n${b},${a}\rbad0 "${c}"\n\n\`x2\``;
    for (const r of [parseAddressList(text, 'main'), await parseAddressListSliced(text, 'main')]) {
      assert.deepEqual(r.valid, [a, b, c]);
      assert.equal(r.duplicates, 1);
      assert.deepEqual(r.invalid.map((x) => [x.line, x.value]), [[1, 'x1'], [4, 'bad0'], [6, 'x2']]);
    }
    const cells = await parseAddressListSliced([a, '', `${b} x3`, 'x4'], 'main');
    assert.deepEqual(cells.valid, [a, b]);
    assert.deepEqual(cells.invalid.map((x) => [x.line, x.value]), [[3, 'x3'], [4, 'x4']]);
  });

  it('a list source of 100,000 distinct addresses fills no one Set past a sixteenth of them (a Set growing past 65,536 rehashes them all in one turn: 34–58 ms at load 11)', async () => {
    const distinct = Array.from({ length: 100_000 }, (_, i) => address(i * 7919));
    const add = Set.prototype.add;
    let largest = 0;
    Set.prototype.add = function <T>(this: Set<T>, v: T): Set<T> {
      largest = Math.max(largest, this.size + 1);
      return add.call(this, v) as Set<T>;
    };
    let parsed;
    try {
      parsed = await parseAddressListSliced(distinct, 'main');
    } finally {
      Set.prototype.add = add;
    }
    assert.equal(parsed.valid.length, 100_000);
    assert.deepEqual(parsed.valid.slice(0, 3), distinct.slice(0, 3), 'first-seen order kept');
    assert.ok(largest <= 100_000 / 16, `a Set of ${largest} entries was filled`);
    const again = await parseAddressListSliced([...distinct.slice(0, 10), ...distinct.slice(0, 10)].join(' '), 'main');
    assert.deepEqual([again.valid.length, again.duplicates], [10, 10]);
  });
});
