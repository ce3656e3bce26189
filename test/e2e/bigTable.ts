// The e2e tier's big files: the bench generator's 100,000 × 640 /pnl result (722 MB), and a second
// one sharing 90% of its addresses for the compare test, written once to a temp folder and reused. `npm test` starts this script (node out/test/e2e/bigTable.js)
// while the unit and integration tiers run, which mostly wait, so the table file finds the file
// ready instead of spending 20–50 s writing each on an e2e lane (issue 13).
// Rows are read back from the file itself (fileRows), never regenerated from the seed: that cost
// 10–25 s of CPU for a row in the middle.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateSharedCsv } from '../../bench/compareData';
import { generateWalletCsv } from '../../bench/tableData';

export const BIG_ROWS = 100_000;
export const BIG_TITLE = `wallets-${BIG_ROWS}-seed1.csv`;
export const BIG_FILE = join(tmpdir(), 'wa-table-e2e', BIG_TITLE);
/** The compare test's B: another seed, 90% of BIG_FILE's addresses (bench/compareData.ts). */
export const OTHER_FILE = join(tmpdir(), 'wa-table-e2e', `wallets-${BIG_ROWS}-seed2-shared90.csv`);

/** Writes the file unless it is there (the generator writes `.partial`, then renames). */
export async function ensureBigTable(): Promise<{ bytes: number; reused: boolean; seconds: number }> {
  const t0 = Date.now();
  const r = await generateWalletCsv(BIG_FILE, BIG_ROWS, 1);
  return { ...r, seconds: (Date.now() - t0) / 1000 };
}

/** Writes the compare test's second file (and the first, which it is made from) unless there. */
export async function ensureOtherTable(): Promise<{ reused: boolean; seconds: number }> {
  await ensureBigTable();
  const t0 = Date.now();
  const r = await generateSharedCsv(BIG_FILE, OTHER_FILE, BIG_ROWS, 2, 0.9);
  return { ...r, seconds: (Date.now() - t0) / 1000 };
}

/**
 * The cells of the given data rows (0-based, the header is not a row) as the file holds them,
 * found by counting line feeds (the generated rows hold no quoted line breaks or commas in their
 * first cell). A scan of the file in the page cache: a few hundred ms for the middle row.
 */
export function fileRows(file: string, indexes: readonly number[]): Map<number, string[]> {
  const want = new Set(indexes.map((i) => i + 1)); // line numbers: line 0 is the header
  const last = Math.max(...want);
  const out = new Map<number, string[]>();
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(8 << 20);
    let line = 0;
    let pending: Buffer[] = []; // the bytes of the current line, when it is wanted
    for (let pos = 0; line <= last; ) {
      const n = readSync(fd, chunk, 0, chunk.length, pos);
      if (n === 0) break;
      pos += n;
      let from = 0;
      for (let nl = chunk.indexOf(10, from); from < n; nl = chunk.indexOf(10, from)) {
        const end = nl === -1 || nl >= n ? n : nl;
        if (want.has(line)) pending.push(Buffer.from(chunk.subarray(from, end)));
        if (end === n) break; // the line goes on in the next chunk
        if (want.has(line)) out.set(line - 1, Buffer.concat(pending).toString('utf8').replace(/\r$/u, '').split(','));
        pending = [];
        line++;
        from = end + 1;
        if (line > last) break;
      }
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** About what each file takes on disk, and room kept free beside them (the table file's CSV export, the system). */
const FILE_BYTES = 723e6;
const SPARE_BYTES = 1e9;

/**
 * Refuses to start writing what the disk cannot hold (issue 31.7): a half-written 722 MB file beside
 * the tiers helps no one, and the e2e files would write it again while another file runs.
 */
function checkDisk(): void {
  const dir = dirname(BIG_FILE);
  mkdirSync(dir, { recursive: true });
  const missing = [BIG_FILE, OTHER_FILE].filter((f) => !existsSync(f)).length;
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  const need = missing * FILE_BYTES + SPARE_BYTES;
  if (missing > 0 && free < need) {
    throw new Error(`${dir} has ${(free / 1e9).toFixed(1)} GB free; the e2e tier's ${missing} input file${missing > 1 ? 's' : ''} need ${(need / 1e9).toFixed(1)} GB with room to spare. Free some space (or set TMPDIR to a larger disk) and run again.`);
  }
}

if (require.main === module) {
  (async () => {
    checkDisk();
    const a = await ensureBigTable();
    console.log(`# ${BIG_FILE}: ${(a.bytes / 1e6).toFixed(0)} MB, ${a.reused ? 'reused' : `generated in ${a.seconds.toFixed(1)} s`}`);
    const b = await ensureOtherTable();
    console.log(`# ${OTHER_FILE}: ${b.reused ? 'reused' : `generated in ${b.seconds.toFixed(1)} s`}`);
  })().then(
    () => undefined,
    (e: unknown) => {
      console.error(`bigTable: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    },
  );
}
