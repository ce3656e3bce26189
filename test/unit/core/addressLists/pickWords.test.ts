/**
 * Issue 35 item 16: Address Sets' results step. Enter with one result picked did nothing, and the
 * placeholder was cut. Enter goes on (with the highlighted result too, or to ask for the second);
 * every placeholder fits what the box shows whole.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptResults, PLACEHOLDER_MAX, resultsPlaceholder } from '../../../../src/core/addressLists/pickWords';

describe('Address Sets: the results step', () => {
  it('Enter with one result picked goes on: with the highlighted one when it is another, else to ask for the second', () => {
    assert.deepEqual(acceptResults(['/r/a.csv'], ['/r/b.csv']), { kind: 'go', files: ['/r/a.csv', '/r/b.csv'] });
    assert.deepEqual(acceptResults(['/r/a.csv'], ['/r/a.csv']), { kind: 'second', first: '/r/a.csv' });
    assert.deepEqual(acceptResults([], ['/r/b.csv']), { kind: 'second', first: '/r/b.csv' });
    assert.deepEqual(acceptResults([], []), { kind: 'none' });
    assert.deepEqual(acceptResults(['/r/a.csv', '/r/c.csv'], ['/r/b.csv']), { kind: 'go', files: ['/r/a.csv', '/r/c.csv', '/r/b.csv'] });
  });

  it('says each placeholder whole: no more than PLACEHOLDER_MAX characters, even with large counts', () => {
    const texts = [
      resultsPlaceholder({ picked: 0, reading: 0 }),
      resultsPlaceholder({ picked: 1, reading: 1 }),
      resultsPlaceholder({ picked: 12, reading: 11 }),
      resultsPlaceholder({ picked: 2, reading: 0, counts: { all: 1_234_567, any: 12_345_678, onlyFirst: 9_876_543 } }),
    ];
    for (const t of texts) assert.ok(t.length <= PLACEHOLDER_MAX, `${t.length} characters: “${t}”`);
    assert.equal(texts[0], 'Space picks a result; Enter goes on');
    assert.equal(texts[3], '1,234,567 in all · 12,345,678 in any · 9,876,543 only in the first');
  });
});
