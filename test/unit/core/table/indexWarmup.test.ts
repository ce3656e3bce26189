/**
 * The table worker's index warm-up (indexWarmup.ts): its scans find the rows they were given,
 * the wasm kernels are compiled once per thread, and the first source of a big file reads into
 * the warm-up's walker instead of mapping a wasm memory of its own (issue 34: the index spent a
 * fifth of its time in per-row code V8 had not optimised yet, and a table's open compiled the
 * kernels and touched fresh memory). Counted through WebAssembly's constructors, never timed.
 * And a warm worker has built no ICU formatter or collator (each pages megabytes of ICU data into
 * the worker: the quoted file's memory budget).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { openCsvFile } from '../../../../src/core/table';
import { CellWalker, spareWalker } from '../../../../src/core/table/cellWalkWasm';
import { indexWarmupSteps, warmupCsv } from '../../../../src/core/table/indexWarmup';
import { CHUNK_BYTES } from '../../../../src/core/table/rowChunks';
import { tempDir, writeTemp } from '../../tableFixtures';

interface WasmCtors {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (size: { initial: number; maximum: number }) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmCtors }).WebAssembly;

/** Runs `body` with WebAssembly.Module and WebAssembly.Memory counting their constructions. */
async function counting(body: () => Promise<void> | void): Promise<{ modules: number; memories: number }> {
  const [Module, Memory] = [wasm.Module, wasm.Memory];
  const seen = { modules: 0, memories: 0 };
  wasm.Module = class extends Module {
    constructor(bytes: Uint8Array) {
      super(bytes);
      seen.modules++;
    }
  };
  wasm.Memory = class extends Memory {
    constructor(size: { initial: number; maximum: number }) {
      super(size);
      seen.memories++;
    }
  };
  try {
    await body();
  } finally {
    [wasm.Module, wasm.Memory] = [Module, Memory];
  }
  return seen;
}

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

describe('index warm-up', () => {
  it('two walkers compile the kernels once: each instantiates the same module', async () => {
    const seen = await counting(() => {
      new CellWalker(4096);
      new CellWalker(8192);
    });
    assert.equal(seen.memories, 2);
    assert.ok(seen.modules <= 1, `compiled ${seen.modules} times`);
  });

  it('its scans find every row they were given, through the kernel and through JS, the column pass\'s kernel reads every decimal of a column of them, and it leaves a spare walker', () => {
    const steps = indexWarmupSteps();
    const found = steps.map((step) => step());
    const quoted = warmupCsv(6000, true).toString().split('\n').length - 1 - 2000; // a line break inside every 3rd row
    const plain = warmupCsv(6000, false).toString().split('\n').length - 1;
    assert.deepEqual([quoted, plain], [6000, 6000]);
    // Per round: the quoted rows' scan, the plain rows', and the decimals of the quoted rows' sixth cells that seekNumbers read.
    assert.deepEqual(found.slice(1), [6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000]);
    assert.equal(spareWalker()?.bufferBytes, CHUNK_BYTES);
  });

  it('after it, a big file\'s source reads into the warm-up\'s walker: no wasm memory mapped at open, and the rows are right', async () => {
    for (const step of indexWarmupSteps()) step();
    const rows = 40_000;
    const text = `a,b,c\n${Array.from({ length: rows }, (_, r) => `"${r}","x ""${r}""","${'y'.repeat(50)}"`).join('\n')}\n`;
    assert.ok(text.length > 2 * CHUNK_BYTES);
    const path = await writeTemp(dir, text);
    let count = -1;
    const seen = await counting(async () => {
      const source = await openCsvFile(path, { prepareColumns: false });
      await source.indexed;
      count = source.rowCount;
      await source.close();
    });
    assert.equal(count, rows);
    assert.equal(seen.memories, 0, 'the spare walker taken');
    assert.equal(spareWalker(), undefined);
  });
});

/** The repository root (the folder with package.json), from this compiled test's folder. */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

describe('a warm table worker', () => {
  it('has built no Intl.NumberFormat nor Intl.Collator (a numbers-only table never needs ICU)', async () => {
    const workerFile = join(repoRoot(), 'dist', 'tableWorker.js');
    // Counts the constructions, and reports them beside the worker's own `warm`.
    const preamble = `
      const seen = { NumberFormat: 0, Collator: 0 };
      for (const name of Object.keys(seen)) {
        const Own = Intl[name];
        Intl[name] = function (...a) { seen[name]++; return new Own(...a); };
      }
      const { parentPort } = require('node:worker_threads');
      const post = parentPort.postMessage.bind(parentPort);
      parentPort.postMessage = (m, ...rest) => (m && m.type === 'warm' ? post({ type: 'counts', seen }) : post(m, ...rest));
      require(${JSON.stringify(workerFile)});`;
    const worker = new Worker(preamble, { eval: true, workerData: {} });
    try {
      const counts = await new Promise<unknown>((resolve, reject) => {
        worker.on('message', (m: { type?: string; seen?: unknown }) => m.type === 'counts' && resolve(m.seen));
        worker.on('error', reject);
      });
      assert.deepEqual(counts, { NumberFormat: 0, Collator: 0 });
    } finally {
      await worker.terminate();
    }
  });
});
