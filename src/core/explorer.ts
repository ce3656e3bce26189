/**
 * "Open in Explorer" (issue 23 item 6): an address's page on its chain's block explorer, from the
 * URL template the person set (walletAnalytics.explorer.mainUrl / altUrl, user settings only).
 * Only an https template with `{address}` is used, and only a real address of that chain goes in
 * it (encoded), so a cell's text can never steer where the link goes. Pure: texts in, a URL or a
 * message the person can act on out.
 */
import { addressProblem, type Chain } from './addresses';

/** The setting that holds a chain's template. */
export function explorerSetting(chain: Chain): string {
  return `walletAnalytics.explorer.${chain === 'alt' ? 'altUrl' : 'mainUrl'}`;
}

type ExplorerLink = { readonly url: string } | { readonly problem: string; readonly unset: boolean };

/** The explorer URL of `address` on `chain` from `template`, or why there is none. */
export function explorerLink(template: string, address: string, chain: Chain): ExplorerLink {
  const setting = explorerSetting(chain);
  const t = template.trim();
  if (t === '') return { problem: `No block explorer is set for ${chain === 'alt' ? 'alt' : 'main'}-chain addresses: set ${setting} to its address page, e.g. https://explorer.example/account/{address}.`, unset: true };
  let parsed: URL;
  try {
    parsed = new URL(t.replace(/\{address\}/gu, 'ADDRESS'));
  } catch {
    return { problem: `${setting} is not a URL: ${t}`, unset: false };
  }
  if (parsed.protocol !== 'https:') return { problem: `${setting} must start with https:// (it is ${parsed.protocol}…).`, unset: false };
  if (!t.includes('{address}')) return { problem: `${setting} has no {address} where the address goes: ${t}`, unset: false };
  const a = address.trim();
  const bad = addressProblem(a, chain);
  if (bad !== undefined) return { problem: `Not a ${chain}-chain address: ${bad}`, unset: false };
  return { url: t.replace(/\{address\}/gu, encodeURIComponent(a)) };
}
