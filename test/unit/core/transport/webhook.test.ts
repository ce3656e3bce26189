/**
 * The webhook post (src/core/transport/webhook.ts): each host gets the body it reads (Slack's
 * `text`, Discord's `content`, Telegram's Bot API `sendMessage` with its chat, any other URL a JSON
 * object with `text`), and the URL passes the transport's own check (no plain http off loopback, no
 * credentials in it) before anything is posted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postWebhook, webhookBody, webhookKind } from '../../../../src/core/transport/webhook';

describe('webhook bodies', () => {
  it('picks the body by the host', () => {
    const slack = new URL('https://hooks.slack.com/services/T/B/x');
    const discord = new URL('https://discord.com/api/webhooks/1/abc');
    const telegram = new URL('https://api.telegram.org/bot123:abc/sendMessage?chat_id=-100');
    const other = new URL('https://example.org/hook');
    assert.deepEqual(webhookBody(webhookKind(slack), slack, 'hi'), { text: 'hi' });
    assert.deepEqual(webhookBody(webhookKind(discord), discord, 'x'.repeat(2_100)), { content: 'x'.repeat(2_000) });
    assert.deepEqual(webhookBody(webhookKind(telegram), telegram, 'hi'), { chat_id: '-100', text: 'hi' });
    assert.deepEqual(webhookBody(webhookKind(other), other, 'hi', { charged: 5 }), { text: 'hi', charged: 5 });
  });

  it('refuses plain http off loopback, credentials in the URL, and a Telegram URL without its chat, before posting', async () => {
    await assert.rejects(postWebhook('http://example.org/hook', 'x'), /loopback/u);
    await assert.rejects(postWebhook('https://user:pw@example.org/hook', 'x'), /user name or password/u);
    await assert.rejects(postWebhook('https://api.telegram.org/bot1:a/sendMessage', 'x'), /chat_id/u);
  });
});
