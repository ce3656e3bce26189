/**
 * Shape checks for the plain data that crosses a boundary into the table engine (a webview's
 * request, a message to the table worker): one copy, imported by both protocol files, so a query
 * the webview may send is exactly a query the worker accepts.
 */
import { parseNumberText } from './numbers';
import type { ColumnFilter, ViewQuery } from './types';

/** A non-negative integer (a row, column or request id). */
export const isInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
export const isIntList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOptionalNumber = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));
/** A bound's text, when given, is a plain decimal whose double is the bound. */
const isBoundText = (text: unknown, bound: unknown): boolean => text === undefined || (typeof text === 'string' && typeof bound === 'number' && parseNumberText(text) === bound);

/** A well-formed ColumnFilter. */
function isFilter(v: unknown): v is ColumnFilter {
  if (!isRecord(v) || !isInt(v.column)) return false;
  switch (v.kind) {
    case 'range':
      return isOptionalNumber(v.min) && isOptionalNumber(v.max) && isBoundText(v.minText, v.min) && isBoundText(v.maxText, v.max);
    case 'contains':
      return typeof v.text === 'string';
    case 'empty':
    case 'nonEmpty':
      return true;
    default:
      return false;
  }
}

/** A well-formed ViewQuery (sort keys, filters, search). */
export function isQuery(v: unknown): v is ViewQuery {
  if (!isRecord(v)) return false;
  const sortOk = v.sort === undefined || (Array.isArray(v.sort) && v.sort.every((k) => isRecord(k) && isInt(k.column) && (k.descending === undefined || typeof k.descending === 'boolean')));
  const filtersOk = v.filters === undefined || (Array.isArray(v.filters) && v.filters.every(isFilter));
  return sortOk && filtersOk && (v.search === undefined || typeof v.search === 'string');
}
