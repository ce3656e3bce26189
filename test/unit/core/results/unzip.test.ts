/**
 * Safe extraction of result archives: a normal zip comes out into a folder of its own;
 * zip-slip names, symlinks, too many entries, too many bytes and high-ratio bombs (declared
 * or lied about) are refused and leave nothing behind. Archives are built with yazl; the
 * malicious ones are hand-patched, since yazl itself refuses to write such names.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnzipError, type UnzipProblem } from '../../../../src/core/errors';
import { buildZip } from '../../fixtures/zips';
import { ARCHIVE_RATIO_FLOOR_BYTES, MAX_ARCHIVE_RATIO, extractZip, misleadingEntryName, shownEntryName, unsafeEntryName } from '../../../../src/core/results/unzip';


/** Replaces every occurrence of a name with another of the same length (local header and central directory). */
function rename(zip: Buffer, from: string, to: string): Buffer {
  assert.equal(from.length, to.length);
  const out = Buffer.from(zip);
  const a = Buffer.from(from);
  let i = out.indexOf(a);
  assert.ok(i >= 0, `name ${from} not found`);
  while (i >= 0) {
    Buffer.from(to).copy(out, i);
    i = out.indexOf(a, i + 1);
  }
  return out;
}

/** Makes the archive lie: every entry declares `size` uncompressed bytes. */
function lieAboutSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x02014b50) out.writeUInt32LE(size, i + 24); // central directory: uncompressed size
    else if (sig === 0x04034b50) out.writeUInt32LE(size, i + 22); // local header: uncompressed size
  }
  return out;
}

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'wa-unzip-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes the archive into a fresh folder and returns its path. */
async function place(zip: Buffer, name = 'result.zip'): Promise<string> {
  const dir = await mkdtemp(join(root, 'case-'));
  const p = join(dir, name);
  await writeFile(p, zip);
  return p;
}

async function refused(zipPath: string, problem: UnzipProblem, limits?: Parameters<typeof extractZip>[1]): Promise<UnzipError> {
  let err: unknown;
  try {
    await extractZip(zipPath, limits);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof UnzipError, `expected an UnzipError, got ${String(err)}`);
  assert.equal(err.problem, problem, err.message);
  assert.match(err.message, /Nothing was extracted\./u);
  // Nothing left behind: the folder holds only the archive, and nothing escaped above it.
  const dir = join(zipPath, '..');
  assert.deepEqual(await readdir(dir), ['result.zip']);
  assert.ok(!(await readdir(root)).some((n) => n.startsWith('evil')), 'nothing escaped');
  return err;
}

describe('unzip: a normal result archive', () => {
  it('extracts every entry into a folder of its own, with no temporary folder left', async () => {
    const zip = await buildZip([
      { name: 'So11111111111111111111111111111111111111112.csv', data: 'wallet,pnl\na,1\nb,2\n' },
      { name: 'tokens/second.csv', data: 'wallet,pnl\nc,3\n' },
    ]);
    const p = await place(zip);
    const r = await extractZip(p);
    assert.equal(r.dir, join(p, '..', 'result'));
    assert.deepEqual([...r.files].sort(), ['So11111111111111111111111111111111111111112.csv', 'tokens/second.csv']);
    assert.equal(await readFile(join(r.dir, 'tokens', 'second.csv'), 'utf8'), 'wallet,pnl\nc,3\n');
    assert.deepEqual((await readdir(join(p, '..'))).sort(), ['result', 'result.zip']);
    assert.equal(r.bytes, 'wallet,pnl\na,1\nb,2\n'.length + 'wallet,pnl\nc,3\n'.length);
  });

  it('never replaces an existing folder: the second extraction gets a suffix', async () => {
    const p = await place(await buildZip([{ name: 'a.csv', data: 'x\n1\n' }]));
    const first = await extractZip(p);
    const second = await extractZip(p);
    assert.equal(second.dir, `${first.dir}-2`);
    assert.ok((await stat(join(second.dir, 'a.csv'))).isFile());
  });
});

describe('unzip: zip-slip is refused', () => {
  it('a “../” entry', async () => {
    const zip = rename(await buildZip([{ name: 'ok.csv', data: 'a\n' }, { name: 'xx/evil.csv', data: 'pwned' }]), 'xx/evil.csv', '../evil.csv');
    const e = await refused(await place(zip), 'zipSlip');
    assert.match(e.message, /\.\.\/evil\.csv/u);
  });

  it('an absolute path', async () => {
    const zip = rename(await buildZip([{ name: 'Xevil.csv', data: 'pwned' }]), 'Xevil.csv', '/evil.csv');
    const e = await refused(await place(zip), 'zipSlip');
    assert.match(e.message, /absolute path/u);
  });

  it('a drive letter', async () => {
    const zip = rename(await buildZip([{ name: 'CX/evil.csv', data: 'pwned' }]), 'CX/evil.csv', 'C:/evil.csv');
    await refused(await place(zip), 'zipSlip');
  });

  it('a backslash path', async () => {
    const zip = rename(await buildZip([{ name: 'xxxevil.csv', data: 'pwned' }]), 'xxxevil.csv', '..\\evil.csv');
    await refused(await place(zip), 'zipSlip');
  });

  it('a symbolic link entry', async () => {
    const zip = await buildZip([{ name: 'link.csv', data: '/etc/passwd', mode: 0o120777 }]);
    const e = await refused(await place(zip), 'symlink');
    assert.match(e.message, /symbolic link/u);
  });

  it('unsafeEntryName names each unsafe form (our own check, behind yauzl’s)', () => {
    assert.equal(unsafeEntryName('a/b.csv'), undefined);
    assert.equal(unsafeEntryName('a..b.csv'), undefined);
    assert.match(unsafeEntryName('../x') ?? '', /\.\./u);
    assert.match(unsafeEntryName('a/../../x') ?? '', /\.\./u);
    assert.match(unsafeEntryName('/etc/passwd') ?? '', /absolute/u);
    assert.match(unsafeEntryName('C:\\x') ?? '', /backslash|drive/u);
    assert.match(unsafeEntryName('D:x') ?? '', /drive/u);
    assert.match(unsafeEntryName('a\0b') ?? '', /NUL/u);
    assert.match(unsafeEntryName('') ?? '', /empty/u);
  });
});

describe('unzip: zip bombs are refused', () => {
  it('too many entries', async () => {
    const zip = await buildZip(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.csv`, data: 'a\n' })));
    const e = await refused(await place(zip), 'tooManyEntries', { limits: { maxEntries: 5 } });
    assert.match(e.message, /6 entries/u);
  });

  it('too large in total (declared sizes)', async () => {
    const zip = await buildZip([
      { name: 'a.csv', data: randomBytes(600) },
      { name: 'b.csv', data: randomBytes(600) },
    ]);
    await refused(await place(zip), 'tooLarge', { limits: { maxTotalBytes: 1000 } });
  });

  it('a high compression ratio (declared)', async () => {
    const zip = await buildZip([{ name: 'zeros.csv', data: Buffer.alloc(8 * 1024 ** 2) }]);
    const e = await refused(await place(zip), 'ratio');
    assert.match(e.message, /zip bomb/u);
  });

  it('an entry that lies about its size is stopped while inflating', async () => {
    const zip = lieAboutSize(await buildZip([{ name: 'zeros.csv', data: Buffer.alloc(4 * 1024 ** 2) }]), 1000);
    const e = await refused(await place(zip), 'tooLarge');
    assert.match(e.message, /declares 1000 bytes but inflates to more/u);
  });

  it('the same file name twice', async () => {
    const zip = await buildZip([
      { name: 'a.csv', data: 'one' },
      { name: 'a.csv', data: 'two' },
    ]);
    const e = await refused(await place(zip), 'corrupt');
    assert.match(e.message, /same file name twice/u);
  });

  it('a file that is not a zip', async () => {
    await refused(await place(randomBytes(2000)), 'corrupt');
  });
});

describe('unzip: many small entries are bounded together (issue 12)', () => {
  it('the limits are named and sane: 100:1 in all, above 64 MiB', () => {
    assert.equal(MAX_ARCHIVE_RATIO, 100);
    assert.equal(ARCHIVE_RATIO_FLOOR_BYTES, 64 * 1024 ** 2);
  });

  it('entries each under the per-entry floor, far beyond the archive’s size in all, are refused before anything is written', async () => {
    // 40 entries of 64 KiB zeros: each under the 1 MiB per-entry floor, 2.5 MiB from a few KB in all.
    const zeros = Buffer.alloc(64 * 1024);
    const zip = await buildZip(Array.from({ length: 40 }, (_, i) => ({ name: `t${i}.csv`, data: zeros })));
    const e = await refused(await place(zip), 'ratio', { limits: { archiveRatioFloorBytes: 1024 ** 2 } });
    assert.match(e.message, /its 40 files would inflate to 2\.5 MiB from 0\.0 MiB, \d+:1 in all, beyond the 100:1 allowed above 1\.0 MiB \(a zip bomb\)/u);
  });

  it('the same archive under the floor is extracted: small archives are never refused for their ratio', async () => {
    const zeros = Buffer.alloc(64 * 1024);
    const zip = await buildZip(Array.from({ length: 40 }, (_, i) => ({ name: `t${i}.csv`, data: zeros })));
    const r = await extractZip(await place(zip));
    assert.equal(r.files.length, 40);
  });

  it('an ordinary archive well over the floor passes: incompressible CSV at a low ratio', async () => {
    const rows = randomBytes(3 * 1024 ** 2).toString('base64');
    const zip = await buildZip([{ name: 'a.csv', data: rows }, { name: 'b.csv', data: rows.slice(0, 1000) }]);
    const r = await extractZip(await place(zip), { limits: { archiveRatioFloorBytes: 1024 ** 2 } });
    assert.equal(r.files.length, 2);
  });
});

describe('unzip: names that mislead are refused, and the message shows them escaped (issue 12)', () => {
  const cases: [string, RegExp, string][] = [
    ['report\u202Evsc.exe', /text-direction control \(U\+202E\)/u, 'report[U+202E]vsc.exe'],
    ['a\u202Ab.csv', /U\+202A/u, 'a[U+202A]b.csv'],
    ['\u2066x\u2069.csv', /U\+2066/u, '[U+2066]x[U+2069].csv'],
    ['bell\u0007.csv', /control character \(U\+0007\)/u, 'bell[U+0007].csv'],
    ['line\nbreak.csv', /control character \(U\+000A\)/u, 'line[U+000A]break.csv'],
    ['c1\u0085.csv', /control character \(U\+0085\)/u, 'c1[U+0085].csv'],
    // Issue 21: Python and IPython end a line at these, so a name carrying them broke out of a notebook's comment.
    ['a\u2028%x\u2028code#.csv', /line or paragraph separator \(U\+2028\)/u, 'a[U+2028]%x[U+2028]code#.csv'],
    ['p\u2029.csv', /line or paragraph separator \(U\+2029\)/u, 'p[U+2029].csv'],
    ['.hidden.csv', /leading dot/u, '.hidden.csv'],
    ['tokens/.git/config', /leading dot/u, 'tokens/.git/config'],
    ['.config/x.csv', /leading dot/u, '.config/x.csv'],
  ];
  for (const [name, why, shown] of cases) {
    it(`refuses the entry ${shown} and names it so`, async () => {
      const zip = await buildZip([
        { name: 'ok.csv', data: 'a\n' },
        { name, data: 'x\n' },
      ]);
      const e = await refused(await place(zip), 'badName');
      assert.match(e.message, why);
      assert.ok(e.message.includes(`“${shown}”`), e.message);
      assert.ok(![...e.message].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || /[\u202A-\u202E\u2066-\u2069\u2028\u2029]/u.test(ch)), 'the message itself holds no control character');
    });
  }

  it('misleadingEntryName and shownEntryName agree on what is ordinary', () => {
    assert.equal(misleadingEntryName('tokens/So111.csv'), undefined);
    assert.equal(misleadingEntryName('résumé 2024 (1).csv'), undefined);
    assert.equal(misleadingEntryName('a.b.csv'), undefined);
    assert.equal(shownEntryName('tokens/So111.csv'), 'tokens/So111.csv');
    assert.equal(shownEntryName('\u200Fx'), '[U+200F]x');
  });
});
