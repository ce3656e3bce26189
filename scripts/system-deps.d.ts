// Types for system-deps.js (plain CommonJS so node scripts run it without a build).

export type Task = 'unit' | 'checks' | 'integration' | 'e2e' | 'dev' | 'dev-smoke';
export type Purpose = 'build' | 'server' | 'browser' | 'snippets';

export interface SystemPackage {
  name: string;
  purpose: Purpose;
  why: string;
}
export const PACKAGES: readonly SystemPackage[];
/** The unit files (paths under test/unit, without extension) that run what the `snippets` packages bring. */
export const UNIT_FILES_NEEDING_PACKAGES: readonly string[];
/** Whether a unit test file (test/unit/…/x.test.ts or out/test/unit/…/x.test.js) is one of those. */
export function unitFileNeedsPackages(file: string): boolean;

export interface Need {
  codeServer: boolean;
  browser: boolean;
  /** The unit tier's Copy as Code and notebook tests: curl, Python requests, pandas, nbformat. */
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

/** Who holds one of apt's or dpkg's locks (from /proc/locks), or undefined. */
export interface LockHolder {
  file: string;
  pid: number;
  /** The holder's /proc/<pid>/comm (`unattended-upgr`, `apt-get`…), '' when unknown. */
  name: string;
}
export function packageLockHolder(o?: {
  files?: readonly string[];
  readLocks?: () => string;
  stat?: (file: string) => { dev: number | bigint; ino: number | bigint };
  comm?: (pid: number) => string;
}): LockHolder | undefined;

export interface LockWait {
  ok: boolean;
  waitedMs: number;
  holder?: LockHolder;
}
export function waitForPackageLock(o?: {
  holder?: () => LockHolder | undefined;
  sleep?: (ms: number) => void;
  now?: () => number;
  log?: (line: string) => void;
  boundMs?: number;
  everyMs?: number;
  reportEveryMs?: number;
}): LockWait;

export function runAptCommands(
  commands: readonly (readonly string[])[],
  o?: {
    log?: (line: string) => void;
    boundMs?: number;
    holder?: () => LockHolder | undefined;
    wait?: (o: { holder: () => LockHolder | undefined; log: (line: string) => void; boundMs: number }) => LockWait;
    run?: (argv: string[]) => { status: number | null; signal?: NodeJS.Signals | null; error?: Error };
    now?: () => number;
  },
): boolean;
