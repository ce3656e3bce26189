/**
 * What the Account view's first rows say (profile, key, base URL, connection, balance), in one
 * place for its two writers: the features' AccountProvider (src/vscode/views/accountView.ts) and
 * the thin entry's first answer with a key stored (src/vscode/base/firstAnswer.ts), which draws
 * the same rows before the features load, so the one becomes the other with nothing reworded.
 * Bundled into the entry: it imports nothing.
 */

/** Each row's label. */
export const ACCOUNT_LABELS = { profile: 'Profile', key: 'API key', baseUrl: 'Base URL', connection: 'Connection', balance: 'Balance' } as const;

/** The key row with a key stored: its description and tooltip (the view's other key states are its own). */
export const KEY_SET = { shown: 'set (in SecretStorage)', tip: 'Your key is kept in VS Code’s SecretStorage only.' } as const;

/** The key row's tooltip for a profile's key (`tip`: the key state's own words). */
export function keyTip(tip: string, profileName: string, baseUrl: string): string {
  return `${tip} It is the key of the profile “${profileName}”, sent only to ${baseUrl}.`;
}

/** The profile row's tooltip. */
export function profileTip(profileName: string, baseUrl: string): string {
  return `The connection in use in this window: ${profileName} (${baseUrl}). Click to switch; jobs already sent stay with the profile they were sent under.`;
}

/** The connection row's description while the key is checked (the view's other states are its own). */
export const CONNECTION_CHECKING = 'checking…';

/** The balance row before a balance is read: its description and tooltip. */
export const BALANCE_NOT_READ = { shown: '—', tip: 'Not read yet: Refresh reads it (GET /credits is free).' } as const;

/** "api.example.com" of "https://api.example.com/v1": what the Base URL row shows. */
export function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === '/' || u.pathname === '' ? u.host : `${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

/** The Base URL row's tooltip for the Default profile, whose base URL is the setting. */
export function settingBaseUrlTip(baseUrl: string, setting: string): string {
  return `${baseUrl}\n\n${setting}: click to change it.`;
}
