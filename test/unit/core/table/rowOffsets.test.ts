/**
 * The compact row index (rowOffsets.ts): starts past 4 GiB, line numbers from checkpoints and
 * one byte a row (big steps included), against plain arrays; and row reads that do not read the
 * whole file to fetch rows scattered over it.
 */
import assert from 'node:assert/strict';
import { open, type FileHandle } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { chunkEnd, readRowChunks } from '../../../../src/core/table/rowChunks';
import { MAX_ROW_BYTES, RowOffsets } from '../../../../src/core/table/rowOffsets';
import { readRowBytes } from '../../../../src/core/table/rowReads';
import { rng, tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

describe('table: row index', () => {
  it('gives back every start, limit and line, with rows of many line breaks and starts past 4 GiB', () => {
    const rand = rng(5);
    const offsets = new RowOffsets();
    const starts: number[] = [];
    const lines: number[] = [];
    let at = 0;
    let newlines = 0;
    for (let r = 0; r < 5000; r++) {
      const x = rand();
      // Mostly plain rows; some with line breaks in quoted cells or blank lines after them; a few huge jumps.
      newlines += x < 0.6 ? 0 : x < 0.95 ? Math.floor(rand() * 5) : x < 0.99 ? 200 + Math.floor(rand() * 400) : 0;
      at += x > 0.995 ? 3 * 2 ** 31 : 1 + Math.floor(rand() * 500);
      starts.push(at);
      lines.push(newlines + 1);
      offsets.push(at, at + 1, newlines);
      newlines++;
    }
    offsets.trim();
    assert.equal(offsets.length, starts.length);
    for (let r = 0; r < starts.length; r++) {
      assert.equal(offsets.start(r), starts[r], `start of row ${r}`);
      assert.equal(offsets.line(r), lines[r], `line of row ${r}`);
      if (r + 1 < starts.length) assert.equal(offsets.limit(r), starts[r + 1]);
    }
    const last = starts[starts.length - 1] ?? 0;
    assert.equal(offsets.rowAt(last + 10), starts.length - 1);
    assert.equal(offsets.rowAt((starts[1234] ?? 0) + 0.5), 1234);
    // Rows longer than MAX_ROW_BYTES (the huge jumps), counted as they were registered, against limit − start.
    let longCount = 0;
    let firstLong = 0;
    for (let r = 0; r < starts.length; r++) {
      if (offsets.limit(r) - offsets.start(r) > MAX_ROW_BYTES && longCount++ === 0) firstLong = r;
    }
    assert.ok(longCount > 3, `long rows in the test: ${longCount}`);
    assert.deepEqual(offsets.longRows(), { count: longCount, first: firstLong });
  });

  it('counts a long last row, and none in a file of short rows', () => {
    const offsets = new RowOffsets();
    offsets.push(0, 10, 0);
    assert.deepEqual(offsets.longRows(), { count: 0, first: 0 });
    offsets.push(10, 10 + MAX_ROW_BYTES + 1, 1);
    assert.deepEqual(offsets.longRows(), { count: 1, first: 1 });
    offsets.push(10 + MAX_ROW_BYTES + 1, 20 + MAX_ROW_BYTES, 2);
    assert.deepEqual(offsets.longRows(), { count: 1, first: 1 }, 'ends where the next row starts');
    assert.deepEqual(new RowOffsets().longRows(), { count: 0, first: 0 });
  });
});

describe('table: row index sized ahead', () => {
  /** Pushes `n` rows (some with line breaks), reserving `reserveAt`: [after row, rows] first; returns the expected starts and lines. */
  function fill(offsets: RowOffsets, n: number, reserveAt: [number, number] | undefined): { starts: number[]; lines: number[] } {
    const rand = rng(9);
    const starts: number[] = [];
    const lines: number[] = [];
    let at = 0;
    let newlines = 0;
    for (let r = 0; r < n; r++) {
      if (reserveAt && r === reserveAt[0]) offsets.reserve(reserveAt[1]);
      newlines += rand() < 0.3 ? Math.floor(rand() * 3) : 0;
      at += 1 + Math.floor(rand() * 300);
      starts.push(at);
      lines.push(newlines + 1);
      offsets.push(at, at + 1, newlines);
      newlines++;
    }
    return { starts, lines };
  }

  for (const [what, reserveAt] of [
    ['an estimate too small (doubling goes on from it)', [100, 5000]],
    ['an estimate close above (kept as is, no copy at trim)', [100, 20_500]],
    ['an estimate far too big (trimmed)', [100, 200_000]],
    ['no estimate', undefined],
  ] as const) {
    it(`gives back every start and line after ${what}`, () => {
      const offsets = new RowOffsets();
      const { starts, lines } = fill(offsets, 20_000, reserveAt ? [reserveAt[0], reserveAt[1]] : undefined);
      offsets.trim();
      assert.equal(offsets.length, starts.length);
      for (let r = 0; r < starts.length; r++) {
        assert.equal(offsets.start(r), starts[r], `start of row ${r}`);
        assert.equal(offsets.line(r), lines[r], `line of row ${r}`);
      }
    });
  }
});

describe('table: row index size', () => {
  /** Rows of `gap(r)` bytes from `from`; checks every start, limit and bounds() against the plain list; returns the index. */
  function check(from: number, rows: number, gap: (r: number) => number): RowOffsets {
    const offsets = new RowOffsets();
    const starts: number[] = [];
    let at = from;
    for (let r = 0; r < rows; r++) {
      const bytes = gap(r);
      starts.push(at);
      offsets.push(at, at + bytes, r);
      at += bytes;
    }
    offsets.trim();
    for (let r = 0; r < rows; r++) {
      assert.equal(offsets.start(r), starts[r], `start of row ${r}`);
      assert.equal(offsets.limit(r), starts[r + 1] ?? at, `limit of row ${r}`);
    }
    if (at < 2 ** 32) assert.deepEqual(Array.from(offsets.bounds(10, 200)), [...starts.slice(10, 200), starts[200]]);
    return offsets;
  }

  it('keeps about 2 bytes a row for rows shorter than 1 KB (the 1,000,000-row quoted file: 2 MB, not 4)', () => {
    const rand = rng(3);
    const offsets = check(0, 20_000, () => 1 + Math.floor(rand() * 900));
    assert.ok(offsets.heldBytes <= 2.2 * 20_000, `${offsets.heldBytes} bytes for 20,000 rows`);
  });

  it('keeps 4 bytes a row once a row starts 64 KiB or more past its block of 64 rows, every start still right', () => {
    const rand = rng(4);
    const offsets = check(0, 20_000, (r) => (r === 12_345 ? 70_000 : 1 + Math.floor(rand() * 900)));
    assert.ok(offsets.heldBytes >= 4 * 20_000, `${offsets.heldBytes} bytes for 20,000 rows`);
  });

  it('gives back starts past 4 GiB in both forms', () => {
    const rand = rng(6);
    check(5 * 2 ** 30, 5000, () => 1 + Math.floor(rand() * 900));
    check(2 ** 32 - 300_000, 5000, (r) => (r === 3000 ? 100_000 : 1 + Math.floor(rand() * 900)));
  });
});

describe('table: row reads', () => {
  it('reads rows scattered over a file of short rows without reading the gaps between them', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `${i},${'x'.repeat(40)}\n`);
    const path = await writeTemp(dir, rows.join(''));
    const offsets = new RowOffsets();
    let at = 0;
    rows.forEach((row, i) => {
      offsets.push(at, at + row.length, i);
      at += row.length;
    });
    offsets.trim();
    const wanted = Array.from({ length: 200 }, (_, i) => i * 97);
    const fh = await open(path, 'r');
    try {
      const got = readRowBytes(fh, offsets, wanted);
      const buffers = new Set([...got.values()].map((b) => b.buf));
      const read = [...buffers].reduce((n, b) => n + b.length, 0);
      const useful = wanted.reduce((n, p) => n + offsets.limit(p) - offsets.start(p), 0);
      assert.ok(read <= 2 * useful, `read ${read} bytes for ${useful} wanted`);
      for (const p of wanted) {
        const b = got.get(p);
        assert.ok(b);
        const s = offsets.start(p) - b.base;
        assert.equal(b.buf.toString('utf8', s, offsets.limit(p) - b.base), rows[p]);
      }
    } finally {
      await fh.close();
    }
  });
});

describe('table: whole-row chunks', () => {
  it('keeps two reads in flight while a chunk is worked on, and yields the chunks in file order when reads finish out of order', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `${i},${'y'.repeat(i % 37)}\n`);
    const bytes = Buffer.from(rows.join(''));
    const offsets = new RowOffsets();
    let at = 0;
    rows.forEach((row, i) => {
      offsets.push(at, at + row.length, i);
      at += row.length;
    });
    // A file whose reads finish later the earlier they were asked (a few turns of the event loop, no clock).
    let inFlight = 0;
    let issued = 0;
    const turns = (n: number): Promise<void> => (n <= 0 ? Promise.resolve() : new Promise<void>((done) => setImmediate(done)).then(() => turns(n - 1)));
    const fh = {
      read: async (buf: Buffer, offset: number, length: number, position: number) => {
        inFlight++;
        await turns(7 - 2 * (issued++ % 2));
        const bytesRead = bytes.copy(buf, offset, position, position + length);
        inFlight--;
        return { bytesRead, buffer: buf };
      },
    } as unknown as FileHandle;
    const buffers = [Buffer.alloc(256), Buffer.alloc(256), Buffer.alloc(256)];
    const seen: string[] = [];
    let mostWhileWorking = 0;
    for await (const chunk of readRowChunks(fh, offsets, 0, rows.length, buffers)) {
      mostWhileWorking = Math.max(mostWhileWorking, inFlight);
      for (let r = chunk.first; r < chunk.last; r++) seen.push(chunk.buf.toString('utf8', offsets.start(r) - chunk.base, offsets.limit(r) - chunk.base));
      await turns(2); // the caller works on the chunk across turns: no read may land in its buffer meanwhile
      assert.equal(chunk.buf.toString('utf8', 0, rows[chunk.first]?.length), rows[chunk.first], 'the chunk held is not read into');
    }
    assert.deepEqual(seen, rows);
    assert.equal(mostWhileWorking, 2, 'two reads in flight while the third buffer is worked on');
  });

  it('ends a chunk after the last row that fits (at least one row), as a walk over the rows would', () => {
    const rand = rng(5);
    for (let round = 0; round < 200; round++) {
      const offsets = new RowOffsets();
      const rows = 1 + Math.floor(rand() * 60);
      let at = 0;
      for (let r = 0; r < rows; r++) {
        const len = 1 + Math.floor(rand() * (rand() < 0.1 ? 500 : 20));
        offsets.push(at, at + len, r);
        at += len;
      }
      const r0 = Math.floor(rand() * rows);
      const last = r0 + 1 + Math.floor(rand() * (rows - r0));
      const limit = offsets.start(r0) + Math.floor(rand() * 200);
      let walked = r0 + 1;
      while (walked < last && offsets.limit(walked) <= limit) walked++;
      assert.equal(chunkEnd(offsets, r0, last, limit), walked, `round ${round}`);
    }
  });
});
