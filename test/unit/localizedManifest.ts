/**
 * package.json as a person reads it: every `%key%` string replaced by its text in package.nls.json,
 * as VS Code does when it loads the extension (issue 26: the manifest's strings are localisable).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Replaces every string that is exactly `%key%` by nls[key]; an unknown key throws, naming it. */
export function resolveNls<T>(value: T, nls: Readonly<Record<string, string>>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^%([^%\s]+)%$/u.exec(v);
      if (!m) return v;
      const key = m[1] ?? '';
      const text = nls[key];
      if (text === undefined) throw new Error(`package.json names %${key}%, which package.nls.json does not hold`);
      return text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The repository's package.json with package.nls.json applied. */
export function localizedManifest(root: string): unknown {
  const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return resolveNls(pkg, nls);
}
