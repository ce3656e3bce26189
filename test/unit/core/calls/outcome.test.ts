/**
 * A call's outcome as a feature tells it (src/core/calls/outcome.ts), the words a watch's run, a
 * pipeline's cell and the command-line runner share: "nothing was sent" only where it is proven,
 * "it may have been charged" only where the failure left it unknown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayHaveBeenCharged, noResultFile, refusedBeforeSending, toldOutcome } from '../../../../src/core/calls/outcome';

describe('toldOutcome', () => {
  it('says nothing was sent for a refusal, a cancel and invalid input, and keeps the refusal’s own words', () => {
    assert.deepEqual(toldOutcome({ status: 'refused', message: 'Past the daily budget.' }), { message: 'Past the daily budget.', notSent: true });
    assert.deepEqual(toldOutcome({ status: 'cancelled' }), { message: 'Cancelled; nothing was sent.', notSent: true });
    assert.deepEqual(toldOutcome({ status: 'invalid', errors: ['address: not an address.', 'limit: at most 100.'] }), {
      message: 'address: not an address. limit: at most 100. Nothing was sent.',
      notSent: true,
    });
  });

  it('never tells a failure as not sent, and adds "may have been charged" only when that is unknown', () => {
    assert.deepEqual(toldOutcome({ status: 'failed', message: 'The server answered 500.', charged: 'no' }), { message: 'The server answered 500.', notSent: false });
    assert.deepEqual(toldOutcome({ status: 'failed', message: 'The connection dropped.', charged: 'unknown' }), {
      message: 'The connection dropped. (it may have been charged: see Request History)',
      notSent: false,
    });
  });

  it('names a call that answered without a file', () => {
    assert.equal(noResultFile(), 'The call returned no result file.');
  });

  it('tells the command line the same outcomes, pointing at the request history and saying "nothing was charged" only when proven', () => {
    assert.deepEqual(toldOutcome({ status: 'invalid', errors: ['hours: at most 24.'] }, 'commandLine'), { message: 'hours: at most 24. Nothing was sent.', notSent: true });
    assert.deepEqual(toldOutcome({ status: 'refused', message: 'Past the ceiling.' }, 'commandLine'), { message: 'Past the ceiling.', notSent: true });
    assert.deepEqual(toldOutcome({ status: 'failed', message: 'The server answered 500.', charged: 'no' }, 'commandLine'), {
      message: 'The server answered 500. Nothing was charged.',
      notSent: false,
    });
    assert.deepEqual(toldOutcome({ status: 'failed', message: 'No answer.', charged: 'unknown' }, 'commandLine'), {
      message: 'No answer. It may have been charged: check the request history (free) before running it again.',
      notSent: false,
    });
  });
});

describe('the command line’s last words', () => {
  it('names the calls that may have been charged, or says "It" for the one call', () => {
    assert.equal(mayHaveBeenCharged(['traders', 'wallets']), 'traders, wallets may have been charged: check the request history (free) before running it again.');
    assert.equal(mayHaveBeenCharged(), 'It may have been charged: check the request history (free) before running it again.');
  });

  it('ends a refusal before sending with nothing sent and 0 credits charged', () => {
    assert.equal(refusedBeforeSending('Refused: above --max-credits 199.'), 'Refused: above --max-credits 199. Nothing was sent. Charged: 0 credits.');
  });
});
