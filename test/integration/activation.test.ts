import * as assert from 'node:assert/strict';
import { extension, note } from './support';

// Runs first (files load in name order), so the extension is still inactive here.
describe('activation', () => {
  let wasActive: boolean;
  let wallMs: number;
  let activationMs: number;

  before(async () => {
    const ext = extension();
    wasActive = ext.isActive;
    const t0 = performance.now();
    const api = await ext.activate();
    wallMs = performance.now() - t0;
    activationMs = api.activationMs;
  });

  it('stays inactive until something needs it (no "*" or startup activation)', () => {
    assert.equal(wasActive, false, 'the extension was already active before any command ran');
  });

  it('activates in well under a second and reports how long it took', () => {
    note(`activation: ${activationMs.toFixed(1)} ms inside activate(), ${wallMs.toFixed(1)} ms wall for extension.activate()`);
    assert.ok(activationMs > 0, 'ExtensionApi.activationMs is not measured');
    assert.ok(wallMs >= activationMs, 'wall time cannot be less than the time inside activate()');
    // The 500 ms budget is a reported figure (49–238 ms inside activate() across this stop's runs,
    // with the unit tier, tsc and eslint beside it); the ceiling fails only a real regression.
    note(`activation ${activationMs < 500 ? 'within' : 'OVER'} the 500 ms budget`);
    assert.ok(activationMs < 2_000, `activate() took ${activationMs.toFixed(0)} ms; budget 500 ms (ceiling 2,000 ms)`);
  });
});
