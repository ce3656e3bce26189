// The README's list of commands, from package.json and package.nls.json (one owner: `npm run sync`
// writes it, test/unit/core/manifest/docs.test.ts checks it is current). Endpoint commands have their own table
// (src/core/manifest/docs.ts); commands hidden from the palette are left out.
export const COMMANDS_START = '<!-- commands:start (generated from package.json by `npm run sync`) -->';
export const COMMANDS_END = '<!-- commands:end -->';

const resolve = (v, nls) => (typeof v === 'string' ? v.replace(/^%([^%\s]+)%$/u, (_, k) => nls[k] ?? v) : v);

export function commandsTable(pkg, nls) {
  const c = pkg.contributes ?? {};
  const hidden = new Set((c.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
  const keys = new Map();
  for (const k of c.keybindings ?? []) if (!keys.has(k.command)) keys.set(k.command, k.key);
  const rows = (c.commands ?? [])
    .filter((x) => !x.command.startsWith('walletAnalytics.endpoint.') && !hidden.has(x.command))
    .map((x) => `| ${resolve(x.category, nls)}: ${resolve(x.title, nls).replace(/\|/gu, '\\|')} | ${keys.has(x.command) ? `\`${keys.get(x.command)}\`` : ''} |`);
  return [COMMANDS_START, '', '| Command | Key |', '| --- | --- |', ...rows, '', COMMANDS_END].join('\n');
}
