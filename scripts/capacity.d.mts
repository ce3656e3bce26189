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
export function lanesToAdd(o: { lanes: number; running: number; queued: number }): number;
export function longestFirst(files: readonly string[], tables: readonly (Record<string, number> | undefined)[], guess?: (file: string) => number, key?: (file: string) => string): string[];
export function readFigures(file: string, part?: string): Record<string, number> | undefined;
export function runnerOrder(line: string): { go: true } | { lanes: number } | undefined;
export function treeCpuSeconds(pids: readonly number[], stats?: readonly string[] | null, ticksPerSecond?: number): number | undefined;
export function cpuTicks(text: string): [number, number] | undefined;
export function busyCores(before: [number, number] | undefined, after: [number, number] | undefined, cores: number): number | undefined;
export function otherWork(o: { load1: number; busyNow: number | undefined }): number;
export function measureOtherWork(ms?: number): Promise<{ other: number; load1: number; busyNow: number | undefined }>;
