/**
 * Where "Export Pipeline as Script" puts its files, written through the one owner of writing
 * (files/writeInside.ts): the script beside the pipeline and the GitHub workflow under the workspace
 * folder's `.github/workflows/`. A repository may hold links planted at either path (issue 30.7: a link
 * at the workflow's path replaced `~/.bashrc`); a link, dangling or not, at the file or at a folder on
 * the way is refused and nothing is written outside. The script replaces a regular file only when
 * the person said so. Pure Node: the window asks and shows (src/vscode/pipeline/exportPipeline.ts).
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceInside, UnsafePathError, writeNewInside } from '../files/writeInside';

/** What is at the script's name now: nothing, a file the person may agree to replace, or something never replaced. */
export async function scriptSlot(dir: string, name: string): Promise<'free' | 'file' | 'refused'> {
  const st = await lstat(join(dir, name)).catch(() => undefined);
  return !st ? 'free' : st.isFile() ? 'file' : 'refused';
}

/**
 * Writes the script `name` (mode 755) in `dir`, from its text or as a copy of a file (the runner,
 * the extension's dist/cli.js): a new file, or over the regular file there when `replace`. Throws
 * UnsafePathError on a link.
 */
export async function writeScript(dir: string, name: string, text: string | { readonly copyOf: string }, replace: boolean): Promise<string> {
  if (replace) return replaceInside(dir, name, text, { mode: 0o755 });
  if (!(await writeNewInside(dir, name, text, { mode: 0o755 }))) throw new UnsafePathError('notFile', join(dir, name));
  return join(dir, name);
}

/**
 * Writes the workflow `rel` (`.github/workflows/wallet-analytics-x.yml`) inside `root` (the workspace
 * folder, or the script's folder), over the one an earlier export wrote; never through a link.
 */
export function writeWorkflow(root: string, rel: string, text: string): Promise<string> {
  return replaceInside(root, rel, text);
}
