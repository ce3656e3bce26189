/**
 * The analysis panel's requests (src/shared/analysisProtocol.ts): a column's profile, a
 * histogram, a scatter's points, all computed in the table's worker over every row of the view;
 * and a chart saved as PNG where the person says.
 */
import { writeAtomic } from '../../core/files/fileLock';
import { chartPngPath, pngFromDataUrl } from '../../core/table/chartPng';
import { l10n } from '../../shared/l10n';
import type { TablePrompts } from '../base/prompts';
import { type Handlers, type Opened, type TableContext } from './tableContext';
import { thousands } from '../../core/numberText';

export const ANALYSIS_HANDLERS: Handlers<'profile' | 'histogram' | 'scatter' | 'savePng'> = {
  async profile(ctx, o, req) {
    const profile = await o.table.profile(req.column, ctx.analysisOptions(req.requestId));
    ctx.post({ type: 'profile', requestId: req.requestId, profile });
    ctx.deps.log.info(`Table: profile of ${profile.name} over ${thousands(profile.count)} rows in ${Math.round(profile.ms)} ms.`);
  },
  async histogram(ctx, o, req) {
    const histogram = await o.table.histogram(req.column, req.bins, req.log, ctx.analysisOptions(req.requestId));
    ctx.post({ type: 'histogram', requestId: req.requestId, histogram });
  },
  async scatter(ctx, o, req) {
    const t0 = performance.now();
    const scatter = await o.table.scatter(req.x, req.y, ctx.analysisOptions(req.requestId));
    // The typed arrays go to the webview as binary (VS Code serialises ArrayBuffers apart from the JSON).
    ctx.post({ type: 'scatter', requestId: req.requestId, scatter });
    ctx.deps.log.info(`Table: scatter of ${thousands(scatter.xs.length)} points sent ${Math.round(performance.now() - t0)} ms after the request (worker ${Math.round(scatter.ms)} ms).`);
  },
  async savePng(ctx, o, req) {
    await savePng(ctx, o, req.requestId, req.name, req.dataUrl, ctx.deps.prompts());
  },
};

/** Writes a chart's PNG where the person says (default: `<result>-<chart>.png` beside the result), atomically. */
async function savePng(ctx: TableContext, o: Opened, requestId: number, name: string, dataUrl: string, prompts: TablePrompts): Promise<void> {
  const png = pngFromDataUrl(dataUrl);
  const target = await prompts.savePath(chartPngPath(o.file, name), { filters: { 'PNG images': ['png'] }, title: l10n.t('Save the chart “{0}” as PNG', name), saveLabel: 'Save' });
  if (!target) {
    ctx.post({ type: 'failed', requestId, message: 'Saving the chart was cancelled.', cancelled: true });
    return;
  }
  await writeAtomic(target, png);
  ctx.post({ type: 'done', requestId, message: `Saved ${target}.` });
}
