// Types for code-server.js (plain CommonJS so node scripts run it without a build).

export const CODE_SERVER_VERSION: string;
export const repoRoot: string;
export const codeServerDir: string;
export const codeServerEntry: string;
export const codeServerMarker: string;
export const codeServerFetchedMarker: string;
/** A native module the installer compiles: the folder under codeServerDir whose node_modules holds it. */
export interface NativeBuild {
  dir: string;
  name: string;
  why: string;
}
export function nativeBuilds(platform?: NodeJS.Platform): NativeBuild[];
export const chromiumPath: string;
export const chromiumArgs: readonly string[];

export function isCodeServerInstalled(): boolean;
export function assertCodeServerInstalled(): void;
export function freePort(): Promise<number>;

export interface CodeServerDirs {
  /** Holds config.yaml, the log and, unless given, user-data/ and extensions/. */
  stateDir: string;
  userDataDir?: string;
  extensionsDir?: string;
  /** Extra environment for code-server and its extension hosts. */
  env?: Record<string, string>;
}

export function installVsix(o: CodeServerDirs & { vsix: string; timeoutMs?: number }): string;
export function installVsixAsync(o: CodeServerDirs & { vsix: string; timeoutMs?: number }): Promise<string>;

export interface StartOptions extends CodeServerDirs {
  folder?: string;
  port?: number;
  extraArgs?: string[];
  timeoutMs?: number;
  /** Copy code-server's output to this process's stdout. */
  echo?: boolean;
  beforeMarker?: boolean;
}

export interface RunningCodeServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly logPath: string;
  output(): string;
  stop(): Promise<void>;
}

export function startCodeServer(o: StartOptions): Promise<RunningCodeServer>;

export function workbenchUrl(
  base: string,
  o: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string },
): string;
