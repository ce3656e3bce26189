import { l10n } from '../l10n';
/** Rules for what a person may paste as an API key. Pure, so it is unit-tested without VS Code. */

type KeyCheck = { ok: true; key: string } | { ok: false; message: string };

/** Trims the input and rejects empty keys and keys holding whitespace or control characters. */
export function checkApiKey(input: string | undefined): KeyCheck {
  const key = (input ?? '').trim();
  if (key.length === 0) {
    return { ok: false, message: l10n.t('The API key is empty. Paste the key issued with your API plan.') };
  }
  // eslint-disable-next-line no-control-regex
  const bad = /[\s\u0000-\u001f\u007f-\u009f]/u.exec(key);
  if (bad) {
    const what = /\s/u.test(bad[0]) ? l10n.t('a space or line break') : l10n.t('a control character');
    return {
      ok: false,
      message: l10n.t('The API key contains {0} at position {1}. Copy the key again without surrounding text.', what, bad.index + 1),
    };
  }
  return { ok: true, key };
}

/**
 * What Clear API Key did, in words: the key removed (and what that stops), or that there was none;
 * with the sandbox in use, that it goes on with its own demo key.
 */
export function clearedKeyMessage(o: { hadKey: boolean; profile: string; sandboxInUse: boolean }): string {
  const head = o.hadKey
    ? l10n.t('API key of {0} removed from SecretStorage: calls with it stop until you run Set API Key again.', o.profile)
    : l10n.t('No API key was stored for {0}: nothing to clear.', o.profile);
  return o.sandboxInUse ? l10n.t('{0} The sandbox in use now goes on with its own demo key.', head) : head;
}
