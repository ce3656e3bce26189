/**
 * An MCP session against the sandbox doing §8.4's chain with tools (issue 33's closing note): the
 * trending tokens, their top traders, and those traders' PnL, each step priced first (the free
 * price tool), each price approved by the person through MCP elicitation (answered here by a
 * stand-in that prints the question and accepts), and the results read back through the free read
 * tool, as an agent would. It starts `node dist/cli.js mcp --max-credits 0` (so every paid call is
 * asked) with the official SDK's Client over stdio, prints the transcript, then the sandbox's ledger
 * beside the prices quoted.
 *
 *   npm run demo:mcp        (builds, then: node out/bench/mcpDemo.js)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startSandbox } from '../src/sandbox/index';

const CLI = resolve(__dirname, '../../dist/cli.js');

const say = (who: string, text: string): void => {
  const lines = text.trimEnd().split('\n');
  const shown = lines.length > 14 ? [...lines.slice(0, 12), `… (${lines.length - 12} more lines)`] : lines;
  console.log(`${who.padEnd(7)}│ ${shown.join(`\n${' '.repeat(7)}│ `)}`);
};

/** The rows of the first data block of a tool's text (tab-separated, header first). */
function dataRows(text: string): string[][] {
  const m = /```data\n([\s\S]*?)\n```/u.exec(text);
  return (m?.[1] ?? '').split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
}

async function main(): Promise<void> {
  const sb = await startSandbox({ seed: 84, wallets: 5_000, delayScale: 0.01 });
  const out = mkdtempSync(join(tmpdir(), 'wa-mcp-demo-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--base-url', sb.baseUrl, '--max-credits', '0', '--out', out],
    env: { PATH: process.env.PATH ?? '', WA_API_KEY: sb.demoKey, WA_POLL_INTERVAL_S: '0.2' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-demo', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const approved: { readonly message: string }[] = [];
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    say('server?', req.params.message);
    say('person', 'Ticks “Run it” and accepts.');
    approved.push({ message: req.params.message });
    return { action: 'accept', content: { approve: true } };
  });
  await client.connect(transport);
  const quoted: { readonly tool: string; readonly credits: number }[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const shownArgs = JSON.stringify(args, (_k, v: unknown) => (Array.isArray(v) && v.length > 3 ? [...v.slice(0, 2), `… ${v.length} in all`] : v));
    say('agent', `${name} ${shownArgs}`);
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000, onprogress: (p) => say('…', p.message ?? '') });
    const text = ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    say('tool', text);
    return text;
  };
  /** The free price first, as the tools' descriptions ask; the quoted credits are kept for the ledger's check. */
  const paid = async (endpoint: string, inputs: Record<string, unknown>): Promise<string> => {
    const price = await call('walletAnalytics_price', { endpoint, inputs });
    const credits = Number(/: ([\d,]+) credits?[ .(]/u.exec(price)?.[1]?.replace(/,/gu, '') ?? NaN);
    quoted.push({ tool: endpoint, credits });
    return call(`walletAnalytics_${endpoint}`, inputs);
  };
  const resultOf = (text: string): string => /Result: (\S+)/u.exec(text)?.[1] ?? '';

  console.log(`MCP session: wallet-analytics mcp --max-credits 0 against the sandbox at ${sb.baseUrl} (balance ${sb.balance().toLocaleString('en-US')})\n`);
  const { tools } = await client.listTools();
  say('client', `${tools.length} tools listed (${tools.filter((t) => t.annotations?.readOnlyHint === true).length} free, read-only)`);
  await call('walletAnalytics_credits', {});

  const trending = await paid('trending', { hours: 1 });
  const tokens = dataRows(await call('walletAnalytics_read_result', { path: resultOf(trending), rows: 10 })).slice(1).map((r) => r[0] ?? '');
  const traders = await paid('toptraders', { tokens, output: 'txt' });
  const wallets = dataRows(await call('walletAnalytics_read_result', { path: resultOf(traders), rows: 50 })).slice(1).map((r) => r[0] ?? '');
  const pnl = await paid('pnl', { wallets });
  await call('walletAnalytics_read_result', { path: resultOf(pnl), columns: ['address', 'realized_pnl_usd_7d', 'winrate_7d'], sortBy: 'realized_pnl_usd_7d', rows: 10 });
  await client.close();

  const ledger = sb.ledger();
  console.log('\nLedger (the sandbox’s) beside the prices quoted and approved:\n');
  console.log('| Call | Quoted (walletAnalytics_price) | Approved by elicitation | Charged (sandbox ledger) |');
  console.log('| --- | ---: | --- | ---: |');
  quoted.forEach((q, i) => {
    const e = ledger[i];
    console.log(`| ${q.tool} | ${q.credits.toLocaleString('en-US')} | ${approved[i]?.message.split('\n')[0] ?? '(none)'} | ${e ? `${e.endpoint} ${e.credits.toLocaleString('en-US')}` : '(none)'} |`);
  });
  const sumQuoted = quoted.reduce((s, q) => s + q.credits, 0);
  const sumCharged = ledger.reduce((s, e) => s + e.credits, 0);
  console.log(`| **Total** | **${sumQuoted.toLocaleString('en-US')}** | ${approved.length} of ${quoted.length} asked and accepted | **${sumCharged.toLocaleString('en-US')}** (${ledger.length} charges) |`);
  console.log(`\n${sumQuoted === sumCharged && ledger.length === quoted.length ? 'PASS' : 'FAIL'}: the ledger ${sumQuoted === sumCharged ? 'equals' : 'differs from'} the prices quoted.`);
  await sb.close();
  rmSync(out, { recursive: true, force: true });
  if (sumQuoted !== sumCharged || ledger.length !== quoted.length) process.exitCode = 1;
}

void main();
