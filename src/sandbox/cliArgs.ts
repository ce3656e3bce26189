/** The sandbox CLI's options (kept apart from ./cli.ts, which starts a server when loaded). */
import { DEFAULTS, isLoopbackHost } from './index';
import type { SandboxOptions } from './types';

export const HELP = `Wallet Analytics sandbox: the whole API over synthetic data, on loopback.

Options:
  --port N            port to listen on (default: a free one)
  --host H            loopback address to bind (default 127.0.0.1)
  --seed N            seed of the synthetic data (default ${DEFAULTS.seed})
  --wallets N         main-chain wallets (default ${DEFAULTS.wallets})
  --alt-wallets N     second-chain wallets (default ${DEFAULTS.altWallets})
  --job-delay SPEC    queued → done delay: a range in ms ("1000-8000") or a scale of the default ("0.01")
  --separate-file-origin   serve result files from a second port
  --help              this text
`;

/** Parses argv into options; throws with a message a person can act on. */
export function parseArgs(argv: readonly string[]): SandboxOptions & { help?: boolean } {
  const out: SandboxOptions & { help?: boolean } = {};
  const int = (name: string, v: string | undefined, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < min || n > max) throw new Error(`${name} takes a whole number from ${min} to ${max}, not “${v ?? ''}”.`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port':
        out.port = int('--port', value(), 0, 65_535);
        break;
      case '--host': {
        const h = value() ?? '';
        if (!isLoopbackHost(h)) throw new Error(`--host takes a loopback address (127.0.0.1, ::1, localhost), not “${h}”.`);
        out.host = h;
        break;
      }
      case '--seed':
        out.seed = int('--seed', value(), 0, 2 ** 31 - 1);
        break;
      case '--wallets':
        out.wallets = int('--wallets', value(), 1, 1_000_000);
        break;
      case '--alt-wallets':
        out.altWallets = int('--alt-wallets', value(), 1, 1_000_000);
        break;
      case '--job-delay': {
        const v = value() ?? '';
        const range = /^(\d+)-(\d+)$/u.exec(v);
        if (range) {
          const lo = Number(range[1]);
          const hi = Number(range[2]);
          if (lo > hi) throw new Error(`--job-delay: ${lo} is above ${hi}.`);
          out.jobDelayMs = [lo, hi];
        } else if (/^\d+(\.\d+)?$/u.test(v)) out.delayScale = Number(v);
        else throw new Error(`--job-delay takes a range in ms like 1000-8000, or a scale like 0.01, not “${v}”.`);
        break;
      }
      case '--separate-file-origin':
        out.separateFileOrigin = true;
        break;
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new Error(`Unknown option “${arg}”. Try --help.`);
    }
  }
  return out;
}
