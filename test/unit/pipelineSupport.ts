/**
 * What the pipeline unit tests share: a queued call sent, followed and downloaded with the bare API,
 * standing in for the window's call flow (CallService.run) when core's runPipeline runs against the
 * sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalletAnalyticsApi } from '../../src/core/transport/api';
import { downloadFrom } from '../../src/core/results/download';
import type { CallResult } from '../../src/core/pipeline/run';
import { planApprovals, type Approval } from '../../src/core/money/approval';
import type { PipelineFile } from '../../src/core/pipeline/format';
import type { Plan } from '../../src/core/pipeline/plan';
import { startSandbox, type Sandbox } from '../../src/sandbox/index';

/** What a pipeline test runs against: a seeded sandbox, the bare API on it, a fresh folder. */
/** The approvals of a plan the person approved (core/money/approval.ts), each bound to its cell of `file` as written. */
export function approvalsOf(plan: Plan, file: PipelineFile): ReadonlyMap<string, Approval> {
  return planApprovals(plan.lines, file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : [])));
}

export interface PipelineSandbox {
  readonly sb: Sandbox;
  readonly api: WalletAnalyticsApi;
  readonly dir: string;
}

/** The seeded sandbox (2,000 wallets, jobs at once), its API and a folder named `<prefix>…`. */
export async function startPipelineSandbox(prefix: string): Promise<PipelineSandbox> {
  const sb = await startSandbox({ seed: 24, wallets: 2_000, altWallets: 200, delayScale: 0.001 });
  const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
  return { sb, api, dir: mkdtempSync(join(tmpdir(), prefix)) };
}

export async function stopPipelineSandbox(env: PipelineSandbox): Promise<void> {
  await env.sb.close();
  rmSync(env.dir, { recursive: true, force: true });
}

/** Submits, polls every 20 ms, downloads into `folder`; `place` may move the file (a .zip extracted). */
export async function queuedCall(api: WalletAnalyticsApi, endpointId: string, input: Record<string, unknown>, folder: string, place: (file: string) => Promise<string> = (f) => Promise.resolve(f)): Promise<CallResult> {
  const ack = await api.submit(endpointId, input);
  for (;;) {
    const rec = await api.request(ack.requestId);
    if (rec.status === 'failed') return { status: 'stopped', message: rec.error ?? 'failed' };
    if (rec.url) {
      const got = await downloadFrom(api, rec.url, folder);
      return { status: 'done', credits: rec.cost ?? 0, resultPath: await place(got.path) };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
