/**
 * A chart of the analysis panel saved as PNG: the webview sends its canvas as a data: URL
 * (savePng, tableUiProtocol.ts); the host checks that the bytes are a PNG and proposes a name
 * beside the result (the table session, vscode/table/tableSession.ts, asks and writes).
 */
import * as path from 'node:path';
import { l10n } from '../l10n';

const PREFIX = 'data:image/png;base64,';
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The PNG bytes of a `data:image/png;base64,…` URL; throws when the URL or its bytes are not a PNG. */
export function pngFromDataUrl(dataUrl: string): Buffer {
  if (!dataUrl.startsWith(PREFIX)) throw new Error(l10n.t('The chart did not arrive as a PNG.'));
  const b64 = dataUrl.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/u.test(b64)) throw new Error(l10n.t('The chart’s PNG data is not valid base64.'));
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length <= SIGNATURE.length || !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error(l10n.t('The chart’s data is not a PNG image.'));
  return bytes;
}

/** `<result name>-<chart name>.png` beside the result, the chart name made safe for a file name. */
export function chartPngPath(resultFile: string, chartName: string): string {
  const base = path.basename(resultFile).replace(/\.(csv|txt|json)$/iu, '');
  // Control characters and what Windows, macOS or Linux refuse in a name become "-", runs of them one.
  // eslint-disable-next-line no-control-regex
  const chart = chartName.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/gu, '-').replace(/\s+/gu, ' ').trim().replace(/^[.-]+|[.-]+$/gu, '') || 'chart';
  return path.join(path.dirname(resultFile), `${base}-${chart}.png`);
}
