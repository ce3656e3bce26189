/**
 * undici, loaded on the first request rather than with the features (issue 34 item 1): a plain
 * require('undici') took 0.2–1.4 s on a loaded machine, and nothing needs it before a call, a
 * download or a webhook is sent. esbuild.mjs makes it its own bundle (dist/undici.js), which this
 * require() reaches only when called; types come from `import type`, which loads nothing.
 */
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/** undici's module, required on the first call. */
export function undici(): typeof Undici {
  // A require() esbuild keeps in place (an import would run at module load, which is the cost avoided).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('undici') as typeof Undici);
}
