/** The host accepts only well-formed requests from the table webview. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTableRequest } from '../../src/shared/tableProtocol';

describe('table: webview protocol', () => {
  it('accepts well-formed requests as they are', () => {
    const good = [
      { type: 'ready' },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: [0, 5, 639] },
      { type: 'setQuery', requestId: 2, query: { sort: [{ column: 3, descending: true }], filters: [{ kind: 'range', column: 4, min: 0 }, { kind: 'contains', column: 1, text: 'x' }], search: 'ab' } },
      { type: 'setQuery', requestId: 3, query: {} },
      { type: 'cancel', requestId: 2 },
      { type: 'copy', requestId: 4, first: 0, last: 2, columns: [1], format: 'tsv', header: true },
      { type: 'export', requestId: 5 },
    ];
    for (const m of good) assert.deepEqual(parseTableRequest(m), m);
  });

  it('refuses anything else', () => {
    const bad: unknown[] = [
      null,
      'ready',
      { type: 'nope' },
      { type: 'getWindow', requestId: 1, first: -1, last: 60, columns: [0] },
      { type: 'getWindow', requestId: 1, first: 0, last: 60, columns: ['0'] },
      { type: 'setQuery', requestId: 2, query: { filters: [{ kind: 'range', column: 1, min: 'a' }] } },
      { type: 'setQuery', requestId: 2, query: { filters: [{ kind: 'regex', column: 1 }] } },
      { type: 'setQuery', requestId: 2, query: { sort: [{ column: 1.5 }] } },
      { type: 'copy', requestId: 4, first: 0, last: 2, columns: [1], format: 'xlsx', header: true },
    ];
    for (const m of bad) assert.equal(parseTableRequest(m), undefined, JSON.stringify(m));
  });
});
