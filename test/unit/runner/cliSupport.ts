/**
 * What the runner's tests share: the command-line runner (dist/cli.js, the very file the export
 * copies and npm's bin runs) spawned as a child process against a sandbox in this process, and a
 * small XML reader for its JUnit report.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository's root: found upwards, since this file is bundled into test files of several depths. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

export const CLI = join(repoRoot(), 'dist', 'cli.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The last line printed: what the run charged. */
  readonly last: string;
}

/**
 * Runs the CLI asynchronously (the sandbox answers from this process, so a synchronous spawn would
 * starve it). The environment is only what is given: no WA_API_KEY unless the test sets it.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', WA_POLL_INTERVAL_S: '0.05', ...env }, ...(cwd ? { cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, last: stdout.trimEnd().split('\n').at(-1) ?? '' }));
  });
}

/** An element of a parsed XML document. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|apos);/gu, (_, e: string) => ENTITIES[e] ?? '').replace(/&(?!amp;|lt;|gt;|quot;|apos;)/gu, () => {
    throw new Error('an unescaped & in XML text');
  });

/** Parses well-formed XML (elements, attributes, text; a prolog): throws on anything not well formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const body = text.replace(/^<\?xml[^?]*\?>\s*/u, '');
  const fail = (why: string): never => {
    throw new Error(`not well-formed XML at ${i}: ${why}`);
  };
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/u.exec(body.slice(i));
    if (!open) return fail('an element was expected');
    i += open[0].length;
    const attrs: Record<string, string> = {};
    for (const m of (open[2] ?? '').matchAll(/([A-Za-z_][\w.-]*)="([^"<]*)"/gu)) {
      if (m[1] === undefined || m[1] in attrs) fail(`attribute ${m[1] ?? ''} twice`);
      attrs[m[1] ?? ''] = unescape(m[2] ?? '');
    }
    const name = open[1] ?? '';
    if (open[3] === '/') return { name, attrs, children: [], text: '' };
    const children: XmlElement[] = [];
    let content = '';
    for (;;) {
      const lt = body.indexOf('<', i);
      if (lt < 0) fail(`<${name}> is not closed`);
      content += body.slice(i, lt);
      i = lt;
      if (body.startsWith(`</${name}>`, i)) {
        i += name.length + 3;
        return { name, attrs, children, text: unescape(content) };
      }
      if (body.startsWith('</', i)) fail(`</${name}> expected`);
      children.push(element());
    }
  };
  const root = element();
  if (body.slice(i).trim() !== '') fail('text after the root element');
  return root;
}
