// Where package.json holds text a person reads, each with the package.nls.json key it gets (one
// owner: scripts/nls.mjs writes them, test/unit/house/nls.test.ts checks them). Keys come from ids, so
// they are stable when entries move.

/** @returns {{ key: string, get: () => unknown, set: (v: string) => void }[]} */
export function userFacingStrings(pkg) {
  const out = [];
  const at = (obj, prop, key) => {
    if (obj && typeof obj[prop] === 'string') out.push({ key, get: () => obj[prop], set: (v) => (obj[prop] = v) });
  };
  const short = (id) => id.replace(/^walletAnalytics\./u, '');
  at(pkg, 'displayName', 'extension.displayName');
  at(pkg, 'description', 'extension.description');
  const caps = pkg.capabilities ?? {};
  if (caps.untrustedWorkspaces) at(caps.untrustedWorkspaces, 'description', 'capabilities.untrustedWorkspaces.description');
  if (caps.virtualWorkspaces && typeof caps.virtualWorkspaces === 'object') at(caps.virtualWorkspaces, 'description', 'capabilities.virtualWorkspaces.description');
  const c = pkg.contributes ?? {};
  for (const cmd of c.commands ?? []) {
    at(cmd, 'title', `command.${short(cmd.command)}.title`);
    at(cmd, 'shortTitle', `command.${short(cmd.command)}.shortTitle`);
    at(cmd, 'category', 'command.category');
  }
  const configs = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
  for (const cfg of configs) {
    at(cfg, 'title', 'config.title');
    for (const [name, p] of Object.entries(cfg.properties ?? {})) {
      const k = `config.${short(name)}`;
      at(p, 'description', `${k}.description`);
      at(p, 'markdownDescription', `${k}.markdownDescription`);
      at(p, 'deprecationMessage', `${k}.deprecationMessage`);
      at(p, 'markdownDeprecationMessage', `${k}.markdownDeprecationMessage`);
      for (const prop of ['enumDescriptions', 'markdownEnumDescriptions']) {
        const list = p[prop];
        if (Array.isArray(list)) list.forEach((_, i) => at(list, i, `${k}.${prop}.${p.enum?.[i] ?? i}`));
      }
    }
  }
  for (const [where, list] of Object.entries(c.viewsContainers ?? {})) for (const v of list) at(v, 'title', `viewsContainer.${where}.${v.id}.title`);
  for (const list of Object.values(c.views ?? {})) {
    for (const v of list) {
      at(v, 'name', `view.${v.id}.name`);
      at(v, 'contextualTitle', `view.${v.id}.contextualTitle`);
    }
  }
  const welcomeSeen = new Map();
  for (const w of c.viewsWelcome ?? []) {
    const n = welcomeSeen.get(w.view) ?? 0;
    welcomeSeen.set(w.view, n + 1);
    at(w, 'contents', `viewsWelcome.${w.view}.${n}`);
  }
  for (const t of c.languageModelTools ?? []) {
    at(t, 'displayName', `languageModelTool.${t.name}.displayName`);
    at(t, 'userDescription', `languageModelTool.${t.name}.userDescription`);
  }
  for (const s of c.submenus ?? []) at(s, 'label', `submenu.${s.id}.label`);
  for (const e of c.customEditors ?? []) at(e, 'displayName', `customEditor.${e.viewType}.displayName`);
  for (const n of c.notebooks ?? []) at(n, 'displayName', `notebook.${n.type}.displayName`);
  for (const r of c.notebookRenderer ?? []) at(r, 'displayName', `notebookRenderer.${r.id}.displayName`);
  for (const w of c.walkthroughs ?? []) {
    at(w, 'title', `walkthrough.${w.id}.title`);
    at(w, 'description', `walkthrough.${w.id}.description`);
    for (const s of w.steps ?? []) {
      at(s, 'title', `walkthrough.${w.id}.${s.id}.title`);
      at(s, 'description', `walkthrough.${w.id}.${s.id}.description`);
      if (s.media) at(s.media, 'altText', `walkthrough.${w.id}.${s.id}.altText`);
    }
  }
  return out;
}
