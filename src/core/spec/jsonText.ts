/**
 * JSON text of a call's inputs written a slice at a time (issue 34 item 4). A list source or "use
 * as input" gives a call a list of 100,000 addresses; its request body and the id it is remembered
 * by were each written in one synchronous stretch of the extension host's loop (18–600 ms at load
 * 13). Here the text comes in pieces, the loop given back between each JSON_SLICE items of a long
 * array, and the text is the same to the byte: a request body is JSON.stringify's.
 */

import { isPackedList, type PackedList } from './packedList';

/** Array items written between two turns of the host's loop: well under a millisecond of JSON.stringify. */
export const JSON_SLICE = 8_192;

/**
 * An array's text in pieces: "[", then `itemsText` of each JSON_SLICE items (the pieces joined by
 * ","), then "]"; the loop given back between slices.
 */
export async function arrayPieces(list: readonly unknown[], put: (text: string) => void, itemsText: (part: unknown[]) => string): Promise<void> {
  put('[');
  for (let at = 0; at < list.length; at += JSON_SLICE) {
    if (at > 0) {
      put(',');
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    put(itemsText(list.slice(at, at + JSON_SLICE)));
  }
  put(']');
}

/** A plain object (a record of inputs, no toJSON of its own), whose members may be written one by one. */
function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** JSON.stringify(value)'s text in pieces: plain records and arrays member by member, anything else in one piece. */
async function jsonPieces(value: unknown, put: (text: string) => void): Promise<void> {
  // A long list carried packed (spec/packedList.ts): its array's text written from the packed text, no string per item.
  if (isPackedList(value)) {
    await packedJsonPieces(value, put);
    return;
  }
  if (Array.isArray(value)) {
    // A slice's items are JSON.stringify's (each item's toJSON, if any, is told its index in the slice).
    await arrayPieces(value, put, (part) => JSON.stringify(part).slice(1, -1));
    return;
  }
  if (!isPlainRecord(value)) {
    put(JSON.stringify(value) ?? 'null');
    return;
  }
  let sep = '';
  put('{');
  for (const k of Object.keys(value)) {
    const v = value[k];
    if (Array.isArray(v) || isPlainRecord(v) || isPackedList(v)) {
      put(`${sep}${JSON.stringify(k)}:`);
      await jsonPieces(v, put);
    } else {
      // As JSON.stringify: a member whose value has no JSON (undefined, a function, a symbol) is left out.
      const text = JSON.stringify(v) as string | undefined;
      if (text === undefined) continue;
      put(`${sep}${JSON.stringify(k)}:${text}`);
    }
    sep = ',';
  }
  put('}');
}

/** JSON.stringify(value) for a record or an array, the same text to the byte, written a slice of a long array per turn. */
export async function jsonTextSliced(value: Record<string, unknown> | readonly unknown[]): Promise<string> {
  const pieces: string[] = [];
  await jsonPieces(value, (text) => pieces.push(text));
  return pieces.join('');
}

/** A packed list's JSON text (the array's, byte for byte) in pieces, the loop given back between them. */
export async function packedJsonPieces(list: PackedList, put: (text: string) => void): Promise<void> {
  put('[');
  let first = true;
  for (const part of list.jsonParts()) {
    if (!first) {
      put(',');
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    first = false;
    put(part);
  }
  put(']');
}
