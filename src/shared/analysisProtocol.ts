/**
 * Analysis on a result (issue 15): what the table's side panel asks of the host and gets back. The
 * host answers from the table's worker, over every row of the current view (filters applied),
 * never from a sample. Plain data (structured clone): the scatter's points travel as Float32Arrays.
 *
 * The webview sends these as UiRequests (tableUiProtocol.ts) with a requestId; the host replies
 * with the matching message below and the same requestId, or `failed` (tableProtocol.ts).
 *   { type: 'profile',   requestId, column }                  → { type: 'profile', requestId, profile }
 *   { type: 'histogram', requestId, column, bins?, log? }     → { type: 'histogram', requestId, histogram }
 *   { type: 'scatter',   requestId, x, y }                    → { type: 'scatter', requestId, scatter }
 *   { type: 'savePng',   requestId, name, dataUrl }           → { type: 'done', requestId, message }
 * A brush on a chart becomes range filters on the table (setQuery); "Use these N addresses as input
 * to…" is then the table's own useAsInput on the filtered view, price first as everywhere.
 */

export { HISTOGRAM_BINS, MAX_HISTOGRAM_BINS, type ColumnProfile, type Histogram, type ScatterData } from '../core/table/analysisTypes';
