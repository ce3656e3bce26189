/**
 * The kinds of result file (txt, csv, zip, json), how a file's kind is told (its name, the
 * server's Content-Disposition and URL, then its Content-Type), and whether a request's result
 * is a .zip (a folder of files once extracted).
 */
import { basename, extname } from 'node:path';
import { findEndpoint, resultKindFor, type ResultKind } from '../spec/catalog';

export type { ResultKind };

const CONTENT_TYPES: readonly [RegExp, ResultKind][] = [
  [/zip/u, 'zip'],
  [/csv/u, 'csv'],
  [/json/u, 'json'],
  [/^text\/plain/u, 'txt'],
];

/** The kind a file name's extension says, if it is one of the four. */
export function kindOfName(name: string): ResultKind | undefined {
  const ext = extname(name).toLowerCase().slice(1);
  return ext === 'txt' || ext === 'csv' || ext === 'zip' || ext === 'json' ? ext : undefined;
}

/** The file name a Content-Disposition header gives, if any (filename* preferred). */
export function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/u.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/u.exec(header);
  return (plain?.[1] ?? plain?.[2])?.trim() || undefined;
}

/** The last segment of a URL's path, decoded ('' when the URL is not one). */
export function urlName(url: string): string {
  try {
    return decodeURIComponent(basename(new URL(url).pathname));
  } catch {
    return '';
  }
}

/** The kind of a result file, from its name (Content-Disposition, then URL path), then its Content-Type; 'txt' when nothing says. */
export function resultKindOf(url: string, contentType?: string, disposition?: string): ResultKind {
  const byName = kindOfName(dispositionName(disposition) ?? '') ?? kindOfName(urlName(url));
  if (byName) return byName;
  const ct = (contentType ?? '').toLowerCase();
  for (const [re, kind] of CONTENT_TYPES) if (re.test(ct)) return kind;
  return 'txt';
}

/** Whether a done request's result is (or will be) a folder of files: an extracted .zip. */
export function isZipItem(item: { readonly status: string; readonly url?: string; readonly endpointId: string; readonly inputs: Readonly<Record<string, unknown>> }): boolean {
  if (item.status !== 'done') return false;
  if (item.url) return /\.zip(?:$|[?#])/iu.test(item.url);
  const ep = findEndpoint(item.endpointId);
  return ep !== undefined && resultKindFor(ep, item.inputs) === 'zip';
}
