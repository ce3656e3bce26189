/**
 * The placeholder base URL (package.json's default, a `.invalid` host that never resolves): a base
 * URL the extension must not call on its own. Its own file, importing nothing, so the thin entry's
 * first answer (src/vscode/base/firstAnswer.ts) asks it without bringing the transport along.
 */

/** A base URL that must not be called on the extension's own initiative (the placeholder default, a `.invalid` host, or no URL at all). */
export function isPlaceholderUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    return host === 'invalid' || host.endsWith('.invalid');
  } catch {
    return true;
  }
}
