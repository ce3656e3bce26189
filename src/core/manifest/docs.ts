/** Generates the README's endpoint table from the catalog (a unit test keeps the README current). */
import { ENDPOINTS, shortTitle, type Endpoint } from '../spec/catalog';
import { describeRule } from '../money/pricing';

export const ENDPOINT_TABLE_START = '<!-- endpoints:start (generated from src/core/spec/catalog.ts by `npm run sync`) -->';
export const ENDPOINT_TABLE_END = '<!-- endpoints:end -->';

function params(ep: Endpoint): string {
  if (ep.fields.length === 0) return '—';
  const inPath = new Set([...ep.path.matchAll(/\{([^}]+)\}/gu)].map((m) => m[1]));
  return ep.fields
    .map((f) => {
      const where = inPath.has(f.wire) ? 'path' : f.wire === '*' ? 'body' : ep.method === 'GET' ? 'query' : 'body';
      const name = f.wire === '*' ? 'whole body: a query' : `\`${f.wire}\``;
      return `${name} (${where}${f.optional ? ', optional' : ''})`;
    })
    .join(', ');
}

/** The Markdown table: one row per endpoint with its wire names and price rule. */
export function endpointTable(): string {
  const rows = ENDPOINTS.map(
    (ep) =>
      `| ${shortTitle(ep)} | ${ep.family}${ep.chain === 'alt' ? ' (2nd chain)' : ''} | \`${ep.method} ${ep.path}\` | ${ep.bot ? `\`${ep.bot}\`` : '—'} | ${params(ep)} | ${ep.results.map((r) => `.${r}`).join(' / ')} | ${describeRule(ep)} |`,
  );
  return [
    ENDPOINT_TABLE_START,
    '| Command | Family | Request | Bot | Parameters (our names; the spec does not show them) | Result | Price |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    ENDPOINT_TABLE_END,
  ].join('\n');
}
