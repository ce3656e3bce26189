// What Set and Clear API Key say (src/core/transport/apiKey.ts): Clear API Key says what it did, even when
// there was no key to clear or the sandbox goes on (issue 23 item 10: it "gave no feedback").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clearedKeyMessage } from '../../../../src/core/transport/apiKey';

describe('Clear API Key says what happened', () => {
  it('names the profile whose key was removed and what that stops', () => {
    assert.equal(
      clearedKeyMessage({ hadKey: true, profile: '“Default”', sandboxInUse: false }),
      'API key of “Default” removed from SecretStorage: calls with it stop until you run Set API Key again.',
    );
  });

  it('says there was nothing to clear, and that the sandbox goes on with its own key', () => {
    const m = clearedKeyMessage({ hadKey: false, profile: '“Work”', sandboxInUse: true });
    assert.equal(m, 'No API key was stored for “Work”: nothing to clear. The sandbox in use now goes on with its own demo key.');
  });
});
