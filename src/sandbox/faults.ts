/** Fault injection: the switches, their defaults, and seeded dice so a run can be replayed. */
import { Rng, hash32 } from './rng';
import type { Faults } from './types';

export const NO_FAULTS: Required<Faults> = {
  latencyMs: 0,
  errorRate: 0,
  dropRate: 0,
  slowAckMs: 0,
  truncateDownloads: false,
  corruptZip: false,
  rateLimit: 0,
  jobFailRate: 0,
  dropAfterChargeRate: 0,
  answerDelayAfterChargeMs: 0,
  minimalHistory: false,
  holdJobs: false,
};

export class FaultSwitches {
  private current: Required<Faults>;
  private readonly dice: Rng;

  constructor(seed: number, initial: Partial<Faults> = {}) {
    this.current = { ...NO_FAULTS, ...initial };
    this.dice = new Rng(hash32(seed, 'faults'));
  }

  get(): Required<Faults> {
    return this.current;
  }

  set(f: Partial<Faults>): void {
    this.current = { ...this.current, ...f };
  }

  /** true with probability p; 0 and 1 are exact (no die is rolled). */
  roll(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.dice.next() < p;
  }
}
