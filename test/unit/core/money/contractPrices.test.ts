/**
 * The price contract, where the two sides are independent: the client's `quote()` (from the
 * catalog's price rules) against what the sandbox actually took (the drop of GET /credits and
 * its ledger), for every priced endpoint and several input sizes. The sandbox prices from its
 * own table transcribed from the spec (src/sandbox/prices.ts), so a wrong client price is a
 * failure here; the last tests prove that by breaking the client on purpose, and check that no
 * sandbox file imports the client's pricing or validation.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { ENDPOINTS, encodeRequest, endpoint, validateInput, type Endpoint, type PriceRule } from '../../../../src/core/spec/catalog';
import { integerField, type FieldSpec } from '../../../../src/core/spec/fields';
import { isPaid, quote, type QuoteContext } from '../../../../src/core/money/pricing';
import { sampleInput } from '../../../../src/core/spec/samples';
import { ActivityPage, CreatorsPage, Credits, ErrorBody, WalletDatabaseResult } from '../../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

let sb: Sandbox;

before(async () => {
  sb = await startSandbox({ seed: 11, wallets: 2_000, altWallets: 500, delayScale: 0.001 });
});
after(() => sb.close());

interface Answer {
  status: number;
  body: unknown;
}

async function wire(method: string, path: string, query: Record<string, string>, body?: unknown): Promise<Answer> {
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = { api_key: sb.demoKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${sb.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function credits(): Promise<number> {
  const r = await wire('GET', '/credits', {});
  assert.equal(r.status, 200);
  return Credits.parse(r.body);
}

/** The count a rule needs from the answer (matches, creators returned, pages), as the client reads it. */
function contextOf(ep: Endpoint, body: unknown): QuoteContext {
  switch (ep.price.kind) {
    case 'perMatch':
      return { knownMatches: WalletDatabaseResult.parse(body).total };
    case 'perReturned':
      return { returned: CreatorsPage.parse(body).creators.length };
    case 'perPage':
      return { pages: 1 };
    default:
      return {};
  }
}

interface Compared {
  readonly quoted: number;
  readonly charged: number;
  readonly ledger: number;
  readonly body: unknown;
}

/** Sends what the client would send for this input, and reads what the client quoted and what the sandbox took. */
async function compare(ep: Endpoint, raw: Record<string, unknown>): Promise<Compared> {
  const v = validateInput(ep, raw);
  assert.ok(v.ok, `${ep.id}: the client accepts the input: ${v.ok ? '' : v.errors.join(' ')}`);
  const w = encodeRequest(ep, v.input);
  const since = sb.ledger().length;
  const before = await credits();
  const r = await wire(w.method, w.path, w.query, w.body);
  assert.equal(r.status, 200, `${ep.id}: ${JSON.stringify(r.body)}`);
  const charged = before - (await credits());
  const ledger = sb.ledger().slice(since).reduce((n, e) => n + e.credits, 0);
  return { quoted: quote(ep, v.input, contextOf(ep, r.body)).credits, charged, ledger, body: r.body };
}

const seen = new Map<string, number[]>();

/** compare() and assert the client's price is what was taken; answers the body for follow-ups. */
async function agrees(ep: Endpoint, raw: Record<string, unknown>, what: string): Promise<unknown> {
  const c = await compare(ep, raw);
  assert.equal(c.charged, c.quoted, `${ep.id} (${what}): the client quoted ${c.quoted}, the sandbox charged ${c.charged}`);
  assert.equal(c.ledger, c.charged, `${ep.id} (${what}): the ledger agrees with the balance`);
  seen.set(ep.id, [...(seen.get(ep.id) ?? []), c.charged]);
  return c.body;
}

describe('contract prices: the client’s quote equals the sandbox’s charge', () => {
  it('per-item queued endpoints, at 1, 7 and 250 wallets and 1, 3 and 20 tokens', async () => {
    const wallets = sb.addresses('wallet', 250);
    const altWallets = sb.addresses('altWallet', 250);
    for (const n of [1, 7, 250]) {
      await agrees(endpoint('pnl'), { wallets: wallets.slice(0, n) }, `${n} wallets`);
      await agrees(endpoint('altchain_pnlplus'), { wallets: altWallets.slice(0, n) }, `${n} wallets`);
    }
    const tokens = sb.addresses('token', 20);
    for (const n of [1, 3, 20]) {
      for (const id of ['toptraders', 'earlybuyers', 'alltraders', 'athmcap']) await agrees(endpoint(id), { tokens: tokens.slice(0, n) }, `${n} tokens`);
    }
    assert.deepEqual(seen.get('pnl'), [5, 35, 1_250]);
    assert.deepEqual(seen.get('toptraders'), [100, 300, 2_000]);
  });

  it('flat queued endpoints and the second chain’s one-wallet pnl, with their sample inputs and each file switch', async () => {
    const flat = ENDPOINTS.filter((e) => e.price.kind === 'flat');
    assert.ok(flat.length >= 18);
    for (const ep of flat) {
      const input = ep.id === 'token_creator' ? { address: sb.addresses('creator', 1)[0] } : sampleInput(ep);
      await agrees(ep, input, 'sample');
      for (const f of ep.fields) {
        if (f.kind !== 'enum' || !['format', 'output', 'side'].includes(f.key)) continue;
        for (const o of f.options ?? []) if (o !== input[f.key]) await agrees(ep, { ...input, [f.key]: o }, `${f.key}=${o}`);
      }
    }
  });

  it('the Wallet Database on both chains, matching nothing, a few and many wallets', async () => {
    for (const id of ['wallet_database', 'altchain_wallet_database']) {
      const ep = endpoint(id);
      const none = await agrees(ep, { query: { where: { and: [{ field: 'winrate_30d', op: '>', value: 1 }] }, limit: 10 } }, 'no match');
      assert.equal(WalletDatabaseResult.parse(none).total, 0);
      const many = WalletDatabaseResult.parse(
        await agrees(ep, { query: { where: { and: [] }, limit: 5, sort: [{ field: 'winrate_30d', dir: 'desc' }], columns: ['winrate_30d'] } }, 'every wallet'),
      );
      assert.ok(many.total >= 500, `${id}: ${many.total} matches`);
      const fifth = many.wallets[4]?.winrate_30d;
      assert.equal(typeof fifth, 'number');
      const few = WalletDatabaseResult.parse(await agrees(ep, { query: { where: { and: [{ field: 'winrate_30d', op: '>=', value: fifth }] }, limit: 2 } }, 'a few'));
      assert.ok(few.total >= 5 && few.total < 50, `${id}: ${few.total} matches`);
    }
  });

  it('token creators: pages of 1, 17 and 100, the last partial page, and a page past the end', async () => {
    const ep = endpoint('token_creators');
    let total = 0;
    for (const size of [1, 17, 100]) total = CreatorsPage.parse(await agrees(ep, { page: 1, page_size: size }, `page of ${size}`)).total ?? 0;
    assert.ok(total > 17 && total % 17 !== 0, `${total} creators`);
    const last = Math.ceil(total / 17);
    assert.equal(CreatorsPage.parse(await agrees(ep, { page: last, page_size: 17, sort: 'rug_count', order: 'asc' }, 'last page')).creators.length, total % 17);
    assert.equal(CreatorsPage.parse(await agrees(ep, { page: last + 1, page_size: 17 }, 'past the end')).creators.length, 0);
  });

  it('wallet activity on both chains: pages read one by one along the cursor', async () => {
    for (const [id, kind] of [['wallet_activity', 'wallet'], ['altchain_wallet_activity', 'altWallet']] as const) {
      const ep = endpoint(id);
      const wallet = sb.addresses(kind, 1)[0] ?? '';
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = ActivityPage.parse(await agrees(ep, { address: wallet, ...(cursor ? { cursor } : {}) }, `page ${pages + 1}`));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor && pages < 3);
      assert.ok(pages >= 1);
    }
  });

  it('every paid catalog endpoint was compared', () => {
    assert.deepEqual([...seen.keys()].sort(), ENDPOINTS.filter(isPaid).map((e) => e.id).sort());
  });
});

describe('contract prices: the sandbox can disagree with a broken client', () => {
  it('a wrong client price shows up: with pnl at 6 per wallet in the catalog, the sandbox still takes the spec’s 5', async () => {
    const ep = endpoint('pnl') as { price: PriceRule };
    const right = ep.price;
    ep.price = { kind: 'perItem', field: 'wallets', credits: 6, unit: 'wallet' };
    try {
      const c = await compare(endpoint('pnl'), { wallets: sb.addresses('wallet', 3) });
      assert.equal(c.quoted, 18);
      assert.equal(c.charged, 15);
      assert.notEqual(c.charged, c.quoted, 'the comparison flags the broken rule');
    } finally {
      ep.price = right;
    }
  });

  it('a wrong flat price and a wrong per-match price show up too', async () => {
    const trending = endpoint('trending') as { price: PriceRule };
    const db = endpoint('wallet_database') as { price: PriceRule };
    const [t0, d0] = [trending.price, db.price];
    trending.price = { kind: 'flat', credits: 5 };
    db.price = { kind: 'perMatch', credits: 10, minimum: 10 };
    try {
      const t = await compare(endpoint('trending'), { hours: 1 });
      assert.deepEqual([t.quoted, t.charged], [5, 50]);
      const d = await compare(endpoint('wallet_database'), { query: { where: { and: [{ field: 'winrate_30d', op: '>', value: 1 }] }, limit: 1 } });
      assert.deepEqual([d.quoted, d.charged], [10, 100]);
    } finally {
      trending.price = t0;
      db.price = d0;
    }
  });

  it('a wrong client input rule shows up: with hours up to 99 in the catalog, the sandbox refuses 99 and charges nothing', async () => {
    const ep = endpoint('trending') as { fields: readonly FieldSpec[] };
    const right = ep.fields;
    ep.fields = right.map((f) => (f.key === 'hours' ? integerField({ key: 'hours', label: 'Hours', description: 'broken on purpose', min: 1, max: 99, default: 1 }) : f));
    try {
      const v = validateInput(endpoint('trending'), { hours: 99 });
      assert.ok(v.ok, 'the broken client accepts 99');
      const before = await credits();
      const w = encodeRequest(endpoint('trending'), v.input);
      const r = await wire(w.method, w.path, w.query);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      const e = ErrorBody.parse(r.body).error;
      assert.equal(typeof e === 'object' ? e.code : e, 'bad_input');
      assert.equal(await credits(), before);
    } finally {
      ep.fields = right;
    }
  });
});

// ---- the sandbox imports none of the client's pricing or validation ----

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/**
 * What a file under the sandbox may not take from the client (paths relative to the core dir):
 * `*` is the whole module; otherwise the names listed. Type-only imports of these names are
 * harmless (they carry no rule) except where the whole module is closed.
 */
const FORBIDDEN: Record<string, '*' | readonly string[]> = {
  'pricing.ts': '*',
  'fields.ts': '*',
  'catalog.ts': ['quote', 'validateInput', 'decodeRequest', 'routeRequest', 'inputSchema', 'encodeRequest', 'ENDPOINTS', 'endpoint', 'findEndpoint', 'LIMITS'],
  'samples.ts': ['sampleInput'],
  'query/model.ts': ['QueryBody', 'QueryFile', 'Condition', 'AndGroup', 'OrGroup', 'Group', 'QueryNode', 'SortKey'],
};

/** Every import of a forbidden module or name from coreDir by a file under dir, as "file: name from module". */
function clientRuleImports(dir: string, coreDir: string, base: string): string[] {
  const out: string[] = [];
  for (const file of tsFiles(dir)) {
    const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const st of src.statements) {
      if (!ts.isImportDeclaration(st) && !ts.isExportDeclaration(st)) continue;
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!spec?.startsWith('.')) continue;
      const target = relative(coreDir, resolve(dirname(file), spec)).replace(/\\/gu, '/').replace(/\.js$/u, '');
      const rule = FORBIDDEN[`${target}.ts`] ?? FORBIDDEN[`${target}/index.ts`];
      if (!rule) continue;
      const where = `${relative(base, file).replace(/\\/gu, '/')}: `;
      if (rule === '*') {
        out.push(`${where}${spec}`);
        continue;
      }
      const names: { name: string; typeOnly: boolean }[] = [];
      if (ts.isImportDeclaration(st)) {
        const clause = st.importClause;
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push({ name: '*', typeOnly: clause.isTypeOnly });
        else if (bindings) for (const el of bindings.elements) names.push({ name: (el.propertyName ?? el.name).text, typeOnly: clause.isTypeOnly || el.isTypeOnly });
      } else if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) names.push({ name: (el.propertyName ?? el.name).text, typeOnly: st.isTypeOnly || el.isTypeOnly });
      } else names.push({ name: '*', typeOnly: st.isTypeOnly });
      for (const n of names) if (!n.typeOnly && (n.name === '*' || rule.includes(n.name))) out.push(`${where}${n.name} from ${spec}`);
    }
  }
  return out.sort();
}

describe('contract prices: the sandbox is its own server', () => {
  it('no file under src/sandbox imports the client’s pricing, field schemas, validation or routing', () => {
    const root = repoRoot();
    assert.deepEqual(clientRuleImports(join(root, 'src/sandbox'), join(root, 'src/core'), root), []);
  });

  it('the check itself catches a whole-module import, a named one, a namespace one and a re-export', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'wa-sandbox-imports-'));
    try {
      mkdirSync(join(tmp, 'core', 'query'), { recursive: true });
      mkdirSync(join(tmp, 'sandbox', 'sub'), { recursive: true });
      writeFileSync(join(tmp, 'sandbox', 'a.ts'), "import { fmtCredits } from '../core/pricing';\nimport { ALT_DEXES, type Endpoint, validateInput } from '../core/catalog';\n");
      writeFileSync(join(tmp, 'sandbox', 'b.ts'), "import * as catalog from '../core/catalog';\nimport type { QueryBody } from '../core/query/model';\nimport { canonicalQuery } from '../core/query/model';\n");
      writeFileSync(join(tmp, 'sandbox', 'sub', 'c.ts'), "export { QueryBody } from '../../core/query/model';\nimport { sampleAddress } from '../../core/samples';\n// import { quote } from '../../core/pricing';\n");
      assert.deepEqual(clientRuleImports(join(tmp, 'sandbox'), join(tmp, 'core'), tmp), [
        'sandbox/a.ts: ../core/pricing',
        'sandbox/a.ts: validateInput from ../core/catalog',
        'sandbox/b.ts: * from ../core/catalog',
        'sandbox/sub/c.ts: QueryBody from ../../core/query/model',
      ]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
