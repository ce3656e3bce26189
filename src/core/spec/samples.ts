/** Valid example inputs for every endpoint, built from its field specs: for tests, demos and the README. */
import type { Chain } from './addresses';
import type { Endpoint } from './catalog';
import type { FieldSpec } from './fields';
import type { QueryBody } from './queryModel';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A deterministic valid address of the chain for index i. */
export function sampleAddress(chain: Chain, i: number): string {
  if (chain === 'alt') return `0x${(i + 1).toString(16).padStart(40, '0')}`;
  let s = '';
  let x = (i + 1) * 2654435761;
  for (let k = 0; k < 44; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += B58[x % 58];
  }
  return s;
}

export const SAMPLE_QUERY: QueryBody = {
  where: {
    and: [
      { field: 'winrate_30d', op: '>=', value: 0.6 },
      { or: [{ field: 'realized_pnl_usd_30d', op: '>', value: 10000 }, { field: 'trade_count_7d', op: 'between', value: [20, 500] }] },
    ],
  },
  limit: 50,
};

function sampleField(f: FieldSpec, all: readonly FieldSpec[]): unknown {
  const chain = f.chain ?? 'main';
  switch (f.kind) {
    case 'address':
      return sampleAddress(chain, 7);
    case 'addressList':
      return [sampleAddress(chain, 1), sampleAddress(chain, 2)];
    case 'integer':
      return f.default ?? f.min ?? 1;
    case 'number':
      // Ranges: the "max_" end is larger than the "min_" end.
      return f.key.startsWith('max') ? 5000 : f.key.startsWith('min') ? 100 : 50000;
    case 'timestamp':
      return f.key === 'to' ? 1_700_086_400 : 1_700_000_000;
    case 'enum':
      return f.default ?? f.options?.[0];
    case 'text':
      return f.key === 'requestId' ? 'req_sample' : 'abc';
    case 'textList':
      return undefined;
    case 'tokenWindows':
      return [0, 1].map((i) => ({ token: sampleAddress('main', 10 + i), from: 1_700_000_000, to: 1_700_086_400 }));
    case 'query':
      return SAMPLE_QUERY;
  }
  void all;
  return undefined;
}

/** A valid input for ep (optional fields left out). */
export function sampleInput(ep: Endpoint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of ep.fields) {
    if (f.optional) continue;
    const v = sampleField(f, ep.fields);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}
