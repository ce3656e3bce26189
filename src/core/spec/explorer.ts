/**
 * "Open in Explorer" (issue 23 item 6): an address's page on its chain's block explorer, from the
 * URL template the person set (walletAnalytics.explorer.mainUrl / altUrl, user settings only).
 * Only an https template with `{address}` is used, and only a real address of that chain goes in
 * it (encoded), so a cell's text can never steer where the link goes. Pure: texts in, a URL or a
 * message the person can act on out.
 */
import { addressProblem, type Chain } from './addresses';
import { l10n } from '../l10n';
import { SettingIds } from '../ids';

/** The setting that holds a chain's template. */
export function explorerSetting(chain: Chain): string {
  return chain === 'alt' ? SettingIds.explorerAltUrl : SettingIds.explorerMainUrl;
}

/** A block explorer a person can pick on first use, with its address page as a template. */
interface KnownExplorer {
  readonly name: string;
  readonly template: string;
}

/**
 * The known explorers per chain, offered to pick from when no template is set (issue 35.19), so a
 * first "Open in Explorer" is one pick, not a search for a setting. The main chain's addresses are
 * base58 (Solana's explorers); the spec does not name the second chain, whose addresses are EVM's,
 * so the main EVM explorers are offered, each naming its network.
 */
export const KNOWN_EXPLORERS: Readonly<Record<Chain, readonly KnownExplorer[]>> = {
  main: [
    { name: 'Solscan', template: 'https://solscan.io/account/{address}' },
    { name: 'Solana Explorer', template: 'https://explorer.solana.com/address/{address}' },
    { name: 'SolanaFM', template: 'https://solana.fm/address/{address}' },
  ],
  alt: [
    { name: 'Etherscan (Ethereum)', template: 'https://etherscan.io/address/{address}' },
    { name: 'Basescan (Base)', template: 'https://basescan.org/address/{address}' },
    { name: 'BscScan (BNB Chain)', template: 'https://bscscan.com/address/{address}' },
    { name: 'Arbiscan (Arbitrum)', template: 'https://arbiscan.io/address/{address}' },
    { name: 'Blockscout (Ethereum)', template: 'https://eth.blockscout.com/address/{address}' },
  ],
};

type ExplorerLink = { readonly url: string } | { readonly problem: string; readonly unset: boolean };

/** The explorer URL of `address` on `chain` from `template`, or why there is none. */
export function explorerLink(template: string, address: string, chain: Chain): ExplorerLink {
  const setting = explorerSetting(chain);
  const t = template.trim();
  if (t === '') return { problem: l10n.t('No block explorer is set for {0}-chain addresses: set {1} to its address page, e.g. https://explorer.example/account/{address}.', chain === 'alt' ? 'alt' : 'main', setting), unset: true };
  let parsed: URL;
  try {
    parsed = new URL(t.replace(/\{address\}/gu, 'ADDRESS'));
  } catch {
    return { problem: l10n.t('{0} is not a URL: {1}', setting, t), unset: false };
  }
  if (parsed.protocol !== 'https:') return { problem: l10n.t('{0} must start with https:// (it is {1}…).', setting, parsed.protocol), unset: false };
  if (!t.includes('{address}')) return { problem: l10n.t('{0} has no {address} where the address goes: {1}', setting, t), unset: false };
  const a = address.trim();
  const bad = addressProblem(a, chain);
  if (bad !== undefined) return { problem: l10n.t('Not a {0}-chain address: {1}', chain, bad), unset: false };
  return { url: t.replace(/\{address\}/gu, encodeURIComponent(a)) };
}
