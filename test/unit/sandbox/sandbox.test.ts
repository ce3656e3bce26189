/** The sandbox's synthetic data (pure, no HTTP) and its CLI. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { addressProblem } from '../../../src/core/spec/addresses';
import { METRICS, metricColumns } from '../../../src/core/spec/metrics';
import { sampleAddress } from '../../../src/core/spec/samples';
import { ColumnInfo } from '../../../src/core/spec/wire';
import { parseArgs } from '../../../src/sandbox/cliArgs';
import { ALL_METRIC_COLUMNS, columnInfos, queryColumns } from '../../../src/sandbox/columns';
import { buildMarket } from '../../../src/sandbox/market';
import { RECIPES, finish, finishColumn, unrecipedMetrics, type Post } from '../../../src/sandbox/recipes';
import { HourView, generateWallets, pnlHeader, walletAddresses } from '../../../src/sandbox/wallets';

const HOUR = 490_000;

function view(n: number, seed = 42, chain: 'main' | 'alt' = 'main', hour = HOUR): HourView {
  return new HourView(generateWallets(chain, seed, walletAddresses(chain, seed, n)), hour);
}

describe('sandbox data: wallets', () => {
  it('every metric has a deliberate recipe', () => {
    assert.deepEqual(unrecipedMetrics(), []);
    assert.equal(RECIPES.length, METRICS.length);
  });

  it('rounds a whole column exactly as it rounds one value', () => {
    const tricky = [NaN, -0, 0, -0.004, 0.004, 0.99995, 1.5, -3.5, 9_999.999, 10_000.5, -12_345.5, 2.675, 1e9 + 0.5, 101];
    for (const post of ['money', 'number', 'ratio', 'score', 'count', 'int', 'seconds'] as Post[]) {
      const col = Float64Array.from(tricky);
      finishColumn(post, col);
      tricky.forEach((v, i) => assert.ok(Object.is(col[i], finish(post, v)), `${post}(${v}): ${col[i]} vs ${finish(post, v)}`));
    }
  });

  it('addresses are valid and distinct on both chains (alt: 0x + 40 lower-case hex)', () => {
    for (const chain of ['main', 'alt'] as const) {
      const list = walletAddresses(chain, 7, 2_000);
      assert.equal(new Set(list).size, list.length);
      for (const a of list) assert.equal(addressProblem(a, chain), undefined, a);
      if (chain === 'alt') for (const a of list) assert.match(a, /^0x[0-9a-f]{40}$/u);
    }
  });

  it('is deterministic from the seed, and different for another seed', () => {
    const a = view(500);
    const b = view(500);
    const c = view(500, 43);
    for (const col of [0, 100, 400, 631]) {
      assert.deepEqual(a.column(col), b.column(col));
      assert.notDeepEqual(a.column(col), c.column(col));
    }
  });

  it('a wallet reads the same alone as in the universe (pnl files agree with the database)', () => {
    const all = view(300);
    const i = 123;
    const alone = new HourView(generateWallets('main', 42, [all.set.addresses[i]!]), HOUR);
    for (let col = 0; col < 632; col++) assert.ok(Object.is(alone.value(col, 0), all.value(col, i)), `column ${col}`);
    assert.deepEqual(alone.identity(0), all.identity(i));
  });

  it('has realistic ranges: ratios in 0..1, counts whole and ≥ 0, some negative pnl, some nulls', () => {
    const v = view(3_000);
    let negativePnl = 0;
    let nulls = 0;
    for (const c of ALL_METRIC_COLUMNS) {
      const values = v.column(c.index);
      for (const x of values) {
        if (x !== x) {
          nulls++;
          continue;
        }
        assert.ok(Number.isFinite(x), c.name);
        if (c.metric.kind === 'ratio') assert.ok(x >= 0 && x <= 1, `${c.name}=${x}`);
        if (c.metric.kind === 'count' || c.metric.kind === 'seconds') assert.ok(Number.isInteger(x) && x >= 0, `${c.name}=${x}`);
        if (c.name.endsWith('_score_30d')) assert.ok(x >= 0 && x <= 100, `${c.name}=${x}`);
      }
      if (c.name === 'realized_pnl_usd_30d') negativePnl = values.filter((x) => x < 0).length;
    }
    assert.ok(negativePnl > 100, `negative pnl: ${negativePnl}`);
    assert.ok(nulls > 1_000, `nulls: ${nulls}`);
  });

  it('changes with the hour (the hourly refresh), a little', () => {
    const a = view(1_000, 42, 'main', HOUR);
    const b = view(1_000, 42, 'main', HOUR + 1);
    const col = metricColumns().indexOf('volume_usd_30d');
    let changed = 0;
    for (let i = 0; i < 1_000; i++) {
      const x = a.value(col, i);
      const y = b.value(col, i);
      if (x !== y) changed++;
      if (x > 0) assert.ok(Math.abs(y / x - 1) < 0.05, `${x} → ${y}`);
    }
    assert.ok(changed > 500);
  });

  it('keeps more trades in longer timeframes', () => {
    const v = view(2_000);
    const tc = (tf: string) => v.column(metricColumns().indexOf(`trade_count_${tf}`));
    const [d1, d30, all] = [tc('1d'), tc('30d'), tc('all')];
    let ordered = 0;
    for (let i = 0; i < 2_000; i++) if (d1[i]! <= d30[i]! * 1.3 + 2 && d30[i]! <= all[i]! * 1.3 + 2) ordered++;
    assert.ok(ordered > 1_950, `ordered: ${ordered}`);
  });
});

describe('sandbox data: columns and chains', () => {
  it('serves ColumnInfo for every metric column on its chain (158 × 4 each), with the chain-only fields apart', () => {
    const main = columnInfos('main');
    const alt = columnInfos('alt');
    for (const c of [...main, ...alt]) ColumnInfo.parse(c);
    const names = (l: typeof main) => new Set(l.map((c) => c.name));
    assert.ok(names(main).has('launchpad_token_share_30d'));
    assert.ok(!names(alt).has('launchpad_token_share_30d'));
    assert.ok(!names(alt).has('pre_migration_buy_share_7d'));
    assert.ok(names(alt).has('private_tx_share_all'));
    assert.ok(!names(main).has('private_tx_share_all'));
    assert.ok(names(main).has('mev_victim_count_all') && names(alt).has('mev_victim_count_all'));
    assert.equal(main.filter((c) => c.metric).length, 632);
    assert.equal(alt.filter((c) => c.metric).length, 632);
    assert.deepEqual(main.filter((c) => c.metric).map((c) => c.name), metricColumns('main'));
    assert.deepEqual(alt.filter((c) => c.metric).map((c) => c.name), metricColumns('alt'));
    const winrate = main.find((c) => c.name === 'winrate_30d');
    assert.deepEqual(
      { type: winrate?.type, metric: winrate?.metric, timeframe: winrate?.timeframe, group: winrate?.group, kind: winrate?.kind },
      { type: 'number', metric: 'winrate', timeframe: '30d', group: 'winrate', kind: 'ratio' },
    );
    assert.equal(main.find((c) => c.name === 'trade_count_7d')?.type, 'integer');
    assert.equal(queryColumns('main').get('main_dex')?.kind, 'category');
  });

  it('writes pnl files with the identity columns then the chain’s 632 metric columns', () => {
    for (const chain of ['main', 'alt'] as const) {
      const h = pnlHeader(chain);
      assert.equal(h[0], 'address');
      assert.equal(h.length, 8 + 632);
      assert.deepEqual(h.slice(8), metricColumns(chain));
    }
    assert.notDeepEqual(pnlHeader('main'), pnlHeader('alt'));
  });
});

describe('sandbox data: market', () => {
  it('plants the catalog sample addresses, so sample inputs find data', () => {
    const m = buildMarket(42);
    for (const i of [1, 2, 7, 10, 11]) assert.ok(m.tokenIndex.has(sampleAddress('main', i)), `token ${i}`);
    assert.ok(m.creatorIndex.has(sampleAddress('main', 7)));
    assert.ok(m.programIndex.has(sampleAddress('main', 7)));
    assert.ok(m.tableIndex.has(sampleAddress('main', 7)));
    assert.ok(m.tokens.some((t) => t.migratedAgo !== undefined && t.migratedAgo < 6 * 3600), 'migrations in the last 6 hours');
    for (const c of m.creators) assert.ok(c.tokens.length > 0);
  });
});

describe('sandbox CLI', () => {
  it('parses its options', () => {
    assert.deepEqual(parseArgs(['--port', '8787', '--seed=7', '--job-delay', '1000-8000', '--wallets', '5000']), {
      port: 8787,
      seed: 7,
      jobDelayMs: [1000, 8000],
      wallets: 5000,
    });
    assert.deepEqual(parseArgs(['--job-delay', '0.01']), { delayScale: 0.01 });
    assert.throws(() => parseArgs(['--port', 'x']), /--port takes a whole number/u);
    assert.throws(() => parseArgs(['--job-delay', '9-1']), /above/u);
    assert.throws(() => parseArgs(['--bogus']), /Unknown option/u);
    assert.throws(() => parseArgs(['--host', '0.0.0.0']), /loopback/u);
    assert.deepEqual(parseArgs(['--host', '127.0.0.3']), { host: '127.0.0.3' });
  });

  it('--port: prints the base URL, the key and a curl line; /credits answers', { timeout: 15_000 }, async () => {
    let cli = resolve(__dirname, '../../../src/sandbox/cli.js');
    let built: string | undefined;
    if (!existsSync(cli)) {
      // Built alone (not by esbuild.mjs --tests): a self-contained CLI in a temp directory.
      built = mkdtempSync(join(tmpdir(), 'wa-sandbox-cli-'));
      cli = join(built, 'cli.js');
      const esbuild = (await import('esbuild')) as typeof import('esbuild');
      await esbuild.build({ entryPoints: [resolve(process.cwd(), 'src/sandbox/cli.ts')], bundle: true, platform: 'node', outfile: cli, logLevel: 'error' });
    }
    const port = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    const child = spawn(process.execPath, [cli, '--port', String(port), '--wallets', '500'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await new Promise<void>((res, rej) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('curl')) res();
        });
        child.once('exit', (code) => rej(new Error(`the CLI exited with ${String(code)}: ${err}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      assert.match(out, new RegExp(`listening on ${base}`, 'u'));
      assert.match(out, /Demo API key: sandbox-demo-key/u);
      assert.ok(out.includes(`curl -H 'api_key: sandbox-demo-key' ${base}/credits`), out);
      const r = await fetch(`${base}/credits`, { headers: { api_key: 'sandbox-demo-key' } });
      assert.equal(r.status, 200);
      assert.equal(await r.json(), '1000000000');
    } finally {
      child.kill('SIGTERM');
      if (built) rmSync(built, { recursive: true, force: true });
    }
  });
});
