/**
 * A local implementation of the whole documented API over deterministic synthetic data
 * (node:http, loopback). Importable in-process by the extension (no `vscode` here) and run
 * by ./cli.ts. See ./types.ts for the interface and ./server.ts for the request pipeline.
 */
import type { Server } from 'node:http';
import { Accounts } from './billing';
import { World } from './data';
import { Direct } from './direct';
import { FaultSwitches } from './faults';
import { FileStore } from './files';
import { Jobs } from './jobs';
import { Rng, hash32 } from './rng';
import { Pipeline, listen } from './server';
import type { AddressKind, Faults, LedgerEntry, ReceivedRequest, Sandbox, SandboxOptions } from './types';

export type { Faults, Sandbox, SandboxOptions } from './types';

export const DEFAULTS = {
  host: '127.0.0.1',
  seed: 42,
  wallets: 20_000,
  altWallets: 5_000,
  jobDelayMs: [1_000, 8_000] as [number, number],
  delayScale: 1,
  ackTimeoutMs: 100_000,
  demoKey: 'sandbox-demo-key',
  startBalance: 1_000_000_000,
  periodMs: 30 * 86_400_000,
  receivedLimit: 100_000,
} as const;

function closeServer(s: Server): Promise<void> {
  return new Promise((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });
}

/** Whether host is a loopback address (the sandbox never listens beyond this machine). */
export function isLoopbackHost(host: string): boolean {
  return /^127(\.\d{1,3}){3}$/u.test(host) || host === '::1' || host === 'localhost';
}

/** Starts a sandbox: generates the data, then listens on loopback. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const now = opts.now ?? Date.now;
  const seed = opts.seed ?? DEFAULTS.seed;
  const host = opts.host ?? DEFAULTS.host;
  if (!isLoopbackHost(host)) throw new Error(`The sandbox listens on loopback only (127.0.0.1, ::1, localhost), not on ${host}.`);
  const demoKey = opts.demoKey ?? DEFAULTS.demoKey;
  const startBalance = opts.startBalance ?? DEFAULTS.startBalance;
  const [lo, hi] = opts.jobDelayMs ?? DEFAULTS.jobDelayMs;
  const scale = opts.delayScale ?? DEFAULTS.delayScale;
  const world = new World(seed, opts.wallets ?? DEFAULTS.wallets, opts.altWallets ?? DEFAULTS.altWallets);
  const faults = new FaultSwitches(seed, opts.faults);
  const files = new FileStore(opts.diskBudgetBytes);
  const accounts = new Accounts([demoKey, ...(opts.extraKeys ?? [])], startBalance, opts.periodMs ?? DEFAULTS.periodMs, now);
  const delays = new Rng(hash32(seed, 'job-delays'));
  let fileBaseUrl = '';
  const jobs = new Jobs({ world, files, faults, now, fileBaseUrl: () => fileBaseUrl, delay: () => (lo + delays.next() * (hi - lo)) * scale, requestId: opts.requestIds });
  const separate = opts.separateFileOrigin ?? false;
  const pipeline = new Pipeline({
    accounts,
    jobs,
    direct: new Direct(world, now),
    files,
    faults,
    now,
    ackTimeoutMs: opts.ackTimeoutMs ?? DEFAULTS.ackTimeoutMs,
    startBalance,
    apiServesFiles: () => !separate,
    logLimit: Math.max(1, opts.receivedLimit ?? DEFAULTS.receivedLimit),
  });
  const api = pipeline.server('api');
  const fileServer = separate ? pipeline.server('files') : undefined;
  const baseUrl = await listen(api, opts.port ?? 0, host);
  fileBaseUrl = fileServer ? await listen(fileServer, 0, host) : baseUrl;

  let closed: Promise<void> | undefined;
  return {
    baseUrl,
    fileBaseUrl,
    demoKey,
    setFaults: (f: Partial<Faults>) => {
      faults.set(f);
      jobs.releaseHeld();
    },
    ledger: (): readonly LedgerEntry[] => accounts.ledger(),
    balance: (key = demoKey) => accounts.balance(key),
    received: (): readonly ReceivedRequest[] => pipeline.log,
    settled: () => pipeline.settled(),
    seedHistory: (n: number, key = demoKey) => jobs.seedHistory(n, key),
    addresses: (kind: AddressKind, n = 10) => addressesOf(world, kind).slice(0, n),
    close: () =>
      (closed ??= (async () => {
        jobs.close();
        await Promise.all([closeServer(api), fileServer ? closeServer(fileServer) : undefined]);
        await pipeline.drain();
        await files.close();
      })()),
  };
}

function addressesOf(world: World, kind: AddressKind): readonly string[] {
  const m = world.market;
  switch (kind) {
    case 'wallet':
      return world.wallets('main').addresses;
    case 'altWallet':
      return world.wallets('alt').addresses;
    case 'token':
      return m.tokens.map((t) => t.address);
    case 'creator':
      return m.creators.map((c) => c.address);
    case 'program':
      return m.programs.map((p) => p.address);
    case 'lookupTable':
      return m.tables.map((t) => t.address);
  }
}
