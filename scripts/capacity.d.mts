/** Types of scripts/capacity.mjs, for its unit test. */
export interface Capacity {
  unitFiles: number;
  e2eLanes: number;
  integrationBesideChecks: boolean;
  loaded: boolean;
  why: string;
}
export function planCapacity(o: { cores: number; load1: number; env?: Record<string, string | undefined>; integrationRunning?: boolean }): Capacity;
export function machineCapacity(env?: Record<string, string | undefined>, integrationRunning?: boolean): Capacity;
