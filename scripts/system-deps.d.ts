// Types for system-deps.js (plain CommonJS so node scripts run it without a build).

export type Task = 'unit' | 'checks' | 'integration' | 'e2e' | 'dev' | 'dev-smoke';
export type Purpose = 'build' | 'server' | 'browser' | 'snippets';

export interface SystemPackage {
  name: string;
  purpose: Purpose;
  why: string;
}
export const PACKAGES: readonly SystemPackage[];

export interface Need {
  codeServer: boolean;
  browser: boolean;
  /** The unit tier's Copy as Code tests: curl, jq, Python requests. */
  snippets: boolean;
  /** One line per task that needs something, saying why. */
  why: string[];
}
export function needsFor(
  tasks: readonly string[],
  o: { ci: boolean; launcher?: string; platform: string; display: boolean; desktopCode: boolean; devBrowser: boolean },
): Need;

export interface Facts {
  platform: string;
  distro?: { id: string; idLike: string };
  need: Need;
  codeServerInstalled: boolean;
  present: readonly string[];
  uid: number;
  sudo: boolean;
  apt: boolean;
}

export type Plan =
  | { action: 'none'; packages: string[]; message: string }
  | { action: 'install'; packages: string[]; commands: string[][]; manual: string[]; message: string }
  | { action: 'fail'; packages: string[]; line: string; message: string }
  | { action: 'advise'; packages: string[]; message: string };

export function planSystemDeps(facts: Facts): Plan;
export function gatherFacts(tasks: readonly string[], env?: NodeJS.ProcessEnv): Facts;
export function ensureSystemDeps(
  tasks: readonly string[],
  o?: { dryRun?: boolean; log?: (line: string) => void; env?: NodeJS.ProcessEnv },
): boolean;
