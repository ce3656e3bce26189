/**
 * Posting a short text to a webhook (issue 32: a watch's change summary from the command-line
 * runner): Slack's and Discord's incoming webhooks, Telegram's Bot API `sendMessage`, or a generic
 * JSON body, chosen by the URL's host. It lives with the transport so the runner has no HTTP of its
 * own. The webhook is never the API: no key header is ever sent here, whatever the URL, and the
 * URL passes the transport's own check (https, or http for loopback only; no credentials in it).
 */
import { undici } from './undici';
import { checkUrl } from './http';
import { l10n } from '../l10n';

/** Which body the host expects. */
type WebhookKind = 'slack' | 'discord' | 'telegram' | 'json';

/** The kind of webhook a URL is, by its host (and Telegram's `/bot…/sendMessage` path). */
export function webhookKind(url: URL): WebhookKind {
  const h = url.hostname.toLowerCase();
  if (h === 'hooks.slack.com') return 'slack';
  if (h === 'discord.com' || h === 'discordapp.com' || h.endsWith('.discord.com')) return 'discord';
  if (h === 'api.telegram.org') return 'telegram';
  return 'json';
}

/** The JSON body for a kind: Telegram's chat comes from the URL's `chat_id` (its Bot API needs one). */
export function webhookBody(kind: WebhookKind, url: URL, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  switch (kind) {
    case 'slack':
      return { text };
    case 'discord':
      // Discord refuses content over 2,000 characters.
      return { content: text.slice(0, 2_000) };
    case 'telegram':
      return { chat_id: url.searchParams.get('chat_id') ?? '', text };
    case 'json':
      return { text, ...extra };
  }
}

/** Posts `text` to the webhook at `raw`; throws with the status when it is refused. Sends no key. */
export async function postWebhook(raw: string, text: string, extra: Record<string, unknown> = {}, timeoutMs = 15_000): Promise<void> {
  const url = checkUrl(raw, l10n.t('webhook URL'));
  const kind = webhookKind(url);
  if (kind === 'telegram' && !url.searchParams.get('chat_id')) throw new Error(l10n.t('A Telegram webhook URL needs its chat: …/bot<token>/sendMessage?chat_id=<chat>.'));
  const res = await undici().request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(webhookBody(kind, url, text, extra)),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const answer = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(l10n.t('The webhook answered {0}: {1}', res.statusCode, answer.slice(0, 200)));
}
