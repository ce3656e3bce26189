/**
 * Type guards shared by the two webview protocol files (tableProtocol.ts and tableUiProtocol.ts),
 * which validate everything the webview sends: one definition, so both read "an index" and "an
 * object" the same way.
 */

/** A whole number ≥ 0 (a row, a column, a request id). */
export const isInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** A plain object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
