import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { endpointCommands, languageModelTools } from '../../../src/core/manifest/manifest';
// ids.ts is a plain const map (no vscode import), so a node test may read it.
// eslint-disable-next-line no-restricted-imports
import { CommandIds, WALKTHROUGH_ID } from '../../../src/vscode/base/ids';
import { localizedManifest } from '../localizedManifest';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

interface Command {
  command: string;
  title: string;
  category?: string;
}
interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string | Record<string, string>; altText?: string };
  completionEvents?: string[];
}
interface Manifest {
  main: string;
  icon?: string;
  galleryBanner?: { color?: string; theme?: string };
  extensionKind?: string[];
  activationEvents?: string[];
  contributes: {
    commands: Command[];
    keybindings?: { command: string; key: string; mac?: string; when?: string }[];
    walkthroughs?: { id: string; title: string; description: string; steps: WalkthroughStep[] }[];
    customEditors?: { viewType: string }[];
    menus?: { commandPalette?: { command: string; when?: string }[] };
    languages?: { id: string; extensions?: string[] }[];
    languageModelTools?: unknown[];
  };
}
const manifest = localizedManifest(root) as Manifest;
const declared = manifest.contributes.commands;

/**
 * Commands package.json declares besides CommandIds, each list generated from data.
 * A feature that generates commands adds its list here (and `npm run sync` writes them).
 */
const generated: { name: string; commands: () => readonly Command[] }[] = [
  { name: 'endpoint commands (src/core/manifest/manifest.ts)', commands: endpointCommands },
];

/** A title's words, lower case, without punctuation: what the palette's filter matches against. */
const titleWords = (title: string): string[] => title.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter(Boolean);

/** Whether every word of `a` begins a word of `b`, in the same order: the palette's word match, so typing `a` also lists `b`. */
function wordsWithin(a: readonly string[], b: readonly string[]): boolean {
  let i = 0;
  for (const w of b) if (i < a.length && w.startsWith(a[i] ?? '')) i++;
  return i === a.length;
}

describe('package.json manifest', () => {
  it('declares the language-model tools of core/agents/declarations.ts, as `npm run sync` writes them (issue 33)', () => {
    assert.deepEqual(manifest.contributes.languageModelTools, JSON.parse(JSON.stringify(languageModelTools())), 'run `npm run sync`');
  });

  it('declares exactly the commands of CommandIds plus the generated ones, each once', () => {
    const expected = [...Object.values(CommandIds), ...generated.flatMap((g) => g.commands().map((c) => c.command))];
    const ids = declared.map((c) => c.command);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'declared twice',
    );
    assert.deepEqual(
      expected.filter((id) => !ids.includes(id)),
      [],
      'missing from package.json contributes.commands (run `npm run sync` for generated ones)',
    );
    assert.deepEqual(
      ids.filter((id) => !expected.includes(id)),
      [],
      'in package.json but neither in CommandIds (src/vscode/base/ids.ts) nor generated',
    );
  });

  for (const g of generated) {
    it(`carries the current titles of the ${g.name}`, () => {
      // Missing ones are reported by the test above; here, what differs in those present.
      const stale = g.commands().flatMap((want) => {
        const have = declared.find((d) => d.command === want.command);
        return have && (have.title !== want.title || have.category !== want.category)
          ? [`${want.command}: "${have.category}: ${have.title}" should be "${want.category}: ${want.title}"`]
          : [];
      });
      assert.deepEqual(stale, [], 'package.json is stale: run `npm run sync`');
    });
  }

  it('gives every command a title under the "Wallet Analytics" category', () => {
    for (const c of declared) {
      assert.ok(c.title.trim().length > 0, `${c.command} has no title`);
      assert.equal(c.category, 'Wallet Analytics', `${c.command} category`);
    }
  });

  it('has no palette title whose words, in order, lie inside another title of its category (issue 23: "Show Credits" ran "Show Account and Credits")', () => {
    const hidden = new Set((manifest.contributes.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
    const shown = declared.filter((c) => !hidden.has(c.command));
    const pairs = shown.flatMap((a) =>
      shown.filter((b) => b !== a && b.category === a.category && wordsWithin(titleWords(a.title), titleWords(b.title))).map((b) => `"${a.title}" lies inside "${b.title}"`),
    );
    assert.deepEqual(pairs, [], 'the palette ranks a longer or recently used title first: typing the shorter one exactly runs the other');
  });

  it('the near-duplicate check sees a title inside another, in order, and nothing else', () => {
    assert.ok(wordsWithin(titleWords('Show Credits'), titleWords('Show Account and Credits')));
    assert.ok(wordsWithin(titleWords('Wallet Activity (Swaps)…'), titleWords('Second Chain: Wallet Activity (Swaps)…')));
    assert.ok(!wordsWithin(titleWords('Wallet Activity (Swaps)…'), titleWords('Second Chain: Activity of a Wallet (Swaps)…')));
    assert.ok(!wordsWithin(titleWords('PnL of Wallets…'), titleWords('Second Chain: PnL of a Wallet List…')));
  });

  it('never activates on "*" (nor on startup)', () => {
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), `activationEvents: ${JSON.stringify(events)}`);
    assert.ok(!events.includes('onStartupFinished'), `activationEvents: ${JSON.stringify(events)}`);
  });

  it('packs only the bundles (no source maps), media, the README\'s images, package.json and its strings, README, CHANGELOG and LICENSE into the .vsix', () => {
    assert.ok(existsSync(join(root, 'dist', 'extension.js')), 'dist/extension.js is not built (node esbuild.mjs)');
    const vsce = join(root, 'node_modules', '.bin', 'vsce');
    // No clock of its own (the tier stops a stalled file): at load 15 it ran past a 60 s limit.
    const r = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, `vsce ls failed: ${r.error?.message ?? ''}${r.stderr}`);
    const files = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const allowed = [
      /^dist\/[\w.-]+\.js$/,
      /^media\/.+/,
      /^docs\/images\/[\w.-]+\.png$/,
      /^package\.json$/,
      /^package\.nls(\.[\w-]+)?\.json$/,
      /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
      /^README\.md$/,
      /^CHANGELOG\.md$/,
      /^LICENSE$/,
    ];
    assert.deepEqual(
      files.filter((f) => !allowed.some((a) => a.test(f))),
      [],
      'files in the .vsix that should not ship (see .vscodeignore)',
    );
    // The README's images show on the extension's page, read from the package itself.
    const readmeImages = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/!\[[^\]]*\]\((docs\/images\/[^)]+)\)/gu)].map((m) => m[1] ?? '');
    assert.ok(readmeImages.length > 0, 'the README shows the product');
    const media = [manifest.icon ?? 'media/icon.png', ...walkthroughMedia(), ...readmeImages];
    // dist/tableWorker.js: the table worker, started by file from the extension bundle. dist/cli.js: the
    // command-line runner, which Export Pipeline copies beside a pipeline (issue 32). dist/features.js and
    // dist/undici.js: the features and undici, required on first use and on the first request (issue 34).
    // dist/sandboxWorker.js: the sandbox's thread, started by file when the sandbox starts (issue 34).
    for (const must of ['package.json', 'package.nls.json', 'l10n/bundle.l10n.json', 'README.md', 'CHANGELOG.md', 'LICENSE', manifest.main.replace(/^\.\//, ''), 'dist/tableWorker.js', 'dist/sandboxWorker.js', 'dist/cli.js', 'dist/features.js', 'dist/undici.js', ...media]) {
      assert.ok(files.includes(must), `${must} is missing from the .vsix`);
    }
  });
});

/** Every file a walkthrough step shows (its markdown or image), as package-relative paths. */
function walkthroughMedia(): string[] {
  return (manifest.contributes.walkthroughs ?? []).flatMap((w) =>
    w.steps.flatMap((s) => {
      const m = s.media;
      const images = typeof m.image === 'string' ? [m.image] : m.image ? Object.values(m.image) : [];
      return [...(m.markdown ? [m.markdown] : []), ...images];
    }),
  );
}

/** Width, height, bit depth and colour type from a PNG's IHDR chunk (the first one, right after the signature). */
function pngHeader(file: string): { width: number; height: number; depth: number; colorType: number } {
  const b = readFileSync(file);
  assert.deepEqual([...b.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is not a PNG`);
  assert.equal(b.toString('latin1', 12, 16), 'IHDR', `${file}: the first chunk is not IHDR`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), depth: b.readUInt8(24), colorType: b.readUInt8(25) };
}

const declaredIds = new Set([...declared.map((c) => c.command)]);
/** The command of each `[label](command:id…)` link in a text. */
const commandLinks = (text: string): string[] => [...text.matchAll(/\]\(command:([\w.]+)/gu)].map((m) => m[1] ?? '');

describe('package.json conventions: walkthrough, keybindings, icon, remote', () => {
  const walkthrough = manifest.contributes.walkthroughs?.find((w) => w.id === WALKTHROUGH_ID);

  it('has a Getting Started walkthrough with the six steps, in order, under the id the Get Started command opens', () => {
    assert.ok(walkthrough, `no walkthrough with id ${WALKTHROUGH_ID}`);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.title),
      [
        'Your key, or the sandbox',
        'Make a first call, price first',
        'Open the result table',
        'Write a .waquery.json query',
        'Chain calls in a pipeline',
        'Watch for changes',
      ],
    );
    assert.ok(declaredIds.has(CommandIds.getStarted), 'the Get Started command is declared');
  });

  it('gives every step a button that runs a declared command, and completion events that tick it off', () => {
    for (const s of walkthrough?.steps ?? []) {
      const links = commandLinks(s.description);
      assert.ok(links.length > 0, `${s.id}: no command link (button) in its description`);
      for (const id of links) assert.ok(declaredIds.has(id), `${s.id}: its button runs ${id}, which package.json does not declare`);
      const events = s.completionEvents ?? [];
      assert.ok(events.length > 0, `${s.id}: no completionEvents, so it never ticks off`);
      for (const e of events) {
        assert.match(e, /^(onCommand|onContext|onView|onSettingChanged|onLink|onEvent|extensionInstalled):./u, `${s.id}: ${e}`);
        if (e.startsWith('onCommand:')) assert.ok(declaredIds.has(e.slice('onCommand:'.length)), `${s.id}: ${e} names an undeclared command`);
      }
      // The step's button must itself tick the step, or a person clicks it and nothing changes.
      assert.ok(
        links.some((id) => events.includes(`onCommand:${id}`)),
        `${s.id}: none of its buttons (${links.join(', ')}) is among its completion events`,
      );
    }
  });

  it('says the sandbox costs nothing and never uses the key, in the first step', () => {
    const first = walkthrough?.steps[0];
    assert.match(first?.description ?? '', /sandbox/iu);
    assert.match(first?.description ?? '', /costs nothing/u);
    assert.match(first?.description ?? '', /never uses your key/u);
    assert.ok(first && commandLinks(first.description).includes(CommandIds.startSandbox), 'the first step starts the sandbox');
    assert.ok(first && commandLinks(first.description).includes(CommandIds.setApiKey), 'the first step sets the key');
  });

  it('ships every walkthrough media file, and .vscodeignore keeps them', () => {
    const media = walkthroughMedia();
    assert.equal(media.length, walkthrough?.steps.length, 'one media file per step');
    for (const m of media) {
      assert.ok(existsSync(join(root, m)), `${m} does not exist`);
      assert.match(m, /^media\//u, `${m} is outside media/, which .vscodeignore ships`);
      if (m.endsWith('.md')) assert.match(readFileSync(join(root, m), 'utf8'), /^# \S/u, `${m} opens with a heading`);
    }
  });

  it('binds Ctrl/Cmd+Enter to Run Query in a query file, and Ctrl/Cmd+Alt+E to Export in the table', () => {
    const kb = manifest.contributes.keybindings ?? [];
    for (const k of kb) assert.ok(declaredIds.has(k.command), `keybinding ${k.key} runs ${k.command}, which is not declared`);
    const language = manifest.contributes.languages?.find((l) => l.extensions?.includes('.waquery.json'));
    assert.ok(language, 'the .waquery.json language');
    const run = kb.find((k) => k.command === CommandIds.runQuery);
    assert.equal(run?.key, 'ctrl+enter');
    assert.equal(run?.mac, 'cmd+enter');
    assert.match(run?.when ?? '', new RegExp(`\\beditorLangId == ${language.id}\\b`, 'u'));
    const viewType = manifest.contributes.customEditors?.[0]?.viewType;
    assert.ok(viewType, 'the table custom editor');
    const exp = kb.find((k) => k.command === CommandIds.exportTable);
    assert.equal(exp?.key, 'ctrl+alt+e');
    assert.equal(exp?.mac, 'cmd+alt+e');
    assert.equal(exp?.when, `activeCustomEditorId == ${viewType}`);
  });

  it('has a 128×128 PNG icon and a gallery banner', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const h = pngHeader(join(root, manifest.icon));
    assert.deepEqual([h.width, h.height], [128, 128]);
    assert.equal(h.colorType, 6, 'RGBA, so the rounded corners are transparent');
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/iu);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''), `galleryBanner.theme: ${manifest.galleryBanner?.theme}`);
  });

  it('runs where the workspace is (extensionKind workspace), so in a remote window calls leave from the remote machine', () => {
    // The key is bound to one IP (§5.3), results are written beside the workspace's files, and
    // the sandbox serves that extension host: all three want the machine that holds the files.
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });
});

/** Every string literal in the .ts files under dir (a TypeScript scan: comments do not count), as [file, text]. */
function stringLiterals(dir: string): [string, string][] {
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
  return files(dir).flatMap((f) => {
    const out: [string, string][] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) out.push([relative(root, f), n.text]);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true));
    return out;
  });
}

describe('command ids are written once', () => {
  /** A command id spelt out: one of CommandIds, or a catalog endpoint's command. */
  const spelt = (text: string): boolean => (Object.values(CommandIds) as string[]).includes(text) || /^walletAnalytics\.endpoint\.\w+$/u.test(text);

  it('src names a command through CommandIds or commandIdOf, never as a string literal (base/ids.ts excepted)', () => {
    const literals = stringLiterals(join(root, 'src')).filter(([f, text]) => f !== join('src', 'vscode', 'base', 'ids.ts') && spelt(text));
    assert.deepEqual(literals, []);
  });

  it('the check itself sees a literal id and passes over comments and other strings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-ids-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "// run 'walletAnalytics.setApiKey'\nexport const a = ['walletAnalytics.setApiKey', `walletAnalytics.endpoint.credits`, 'walletAnalytics.jobs'];\n");
      assert.deepEqual(stringLiterals(dir).filter(([, t]) => spelt(t)).map(([, t]) => t), ['walletAnalytics.setApiKey', 'walletAnalytics.endpoint.credits']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
