/**
 * What the pipeline unit tests share: a queued call sent, followed and downloaded with the bare API,
 * standing in for the window's call flow (CallService.run) when core's runPipeline runs against the
 * sandbox.
 */
import type { WalletAnalyticsApi } from '../../src/core/api';
import type { CallResult } from '../../src/core/pipeline/run';

/** Submits, polls every 20 ms, downloads into `folder`; `place` may move the file (a .zip extracted). */
export async function queuedCall(api: WalletAnalyticsApi, endpointId: string, input: Record<string, unknown>, folder: string, place: (file: string) => Promise<string> = (f) => Promise.resolve(f)): Promise<CallResult> {
  const ack = await api.submit(endpointId, input);
  for (;;) {
    const rec = await api.request(ack.requestId);
    if (rec.status === 'failed') return { status: 'stopped', message: rec.error ?? 'failed' };
    if (rec.url) {
      const got = await api.download(rec.url, folder);
      return { status: 'done', credits: rec.cost ?? 0, resultPath: await place(got.path) };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
