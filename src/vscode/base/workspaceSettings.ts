/**
 * Tells the person, once per file, when a workspace tries to set a user-only setting (where the
 * key goes, how much a call may spend, how often requests are sent: core/manifest/userOnlySettings.ts). The value is ignored by
 * settings.ts whatever this says; this is only so nobody wonders why a repository's
 * `.vscode/settings.json` "does not work". Files are read as text (folders on disk and the
 * `.code-workspace` file); VS Code's own report of workspace values is taken too.
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { StorageKeys, type Storage } from '../../core/storage';
import { SETTINGS_SECTION, userOnlyKeysIn, type UserOnlyKey } from '../../core/manifest/userOnlySettings';
import { onDidChangeSettings, workspaceUserOnlyValues } from './settings';
import { showWarning } from './errors';


interface IgnoredSettings {
  /** The settings file (absolute path), or "workspace settings" when only VS Code reports them. */
  readonly file: string;
  readonly keys: readonly UserOnlyKey[];
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The user-only settings each workspace settings file sets. */
async function findIgnoredSettings(): Promise<IgnoredSettings[]> {
  const out: IgnoredSettings[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    const text = await readText(file);
    const keys = text === undefined ? [] : userOnlyKeysIn(text);
    if (keys.length > 0) out.push({ file, keys });
  }
  const ws = vscode.workspace.workspaceFile;
  if (ws?.scheme === 'file') {
    const text = await readText(ws.fsPath);
    const keys = text === undefined ? [] : userOnlyKeysIn(text, { workspaceFile: true });
    if (keys.length > 0) out.push({ file: ws.fsPath, keys });
  }
  const reported = workspaceUserOnlyValues().filter((k) => !out.some((o) => o.keys.includes(k)));
  if (reported.length > 0) out.push({ file: 'workspace settings', keys: reported });
  return out;
}

/** The notice for one file: names the file and the settings, says they are ignored and why. */
function ignoredNotice(i: IgnoredSettings): string {
  const where = path.isAbsolute(i.file) ? vscode.workspace.asRelativePath(i.file, true) : i.file;
  const names = i.keys.map((k) => `${SETTINGS_SECTION}.${k}`).join(', ');
  return `${where} sets ${names}. ${i.keys.length === 1 ? 'It is' : 'They are'} ignored: where your API key goes and how much a call may spend are set in your user settings only, never by a workspace, and so is how often requests are sent with your key.`;
}

/** Checks the workspace's settings files and shows each new finding once. Returns the notices shown. */
export class WorkspaceSettingsGuard implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  /** Every notice shown in this window, oldest first. */
  readonly shown: string[] = [];
  /** The check under way: the next one starts after it, so a finding is never shown twice or missed. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly storage: Storage) {
    this.subs.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.check()),
      onDidChangeSettings(() => void this.check()),
    );
  }

  /**
   * Checks now, or once the check under way ends: a change of settings starts one on its own, and
   * two at once both read "not said yet" and showed the notice twice, while a check started during
   * the first one's save of what it said found it said and returned before the notice was listed.
   */
  check(): Promise<string[]> {
    const next = this.running.then(() => this.checkNow());
    this.running = next.catch(() => undefined);
    return next;
  }

  private async checkNow(): Promise<string[]> {
    const said = this.storage.record(StorageKeys.ignoredWorkspaceSettings, 200);
    const shown = new Set(Object.keys(said.all()));
    const notices: string[] = [];
    for (const i of await findIgnoredSettings()) {
      const id = `${i.file}|${i.keys.join(',')}`;
      if (shown.has(id)) continue;
      shown.add(id);
      // The newest 200 are kept: a notice of a file long gone is not worth the space.
      await said.modify((all) => Object.fromEntries(Object.entries({ ...all, [id]: Date.now() }).sort((a, b) => a[1] - b[1]).slice(-200)));
      const text = ignoredNotice(i);
      notices.push(text);
      this.shown.push(text);
      const open = 'Open the File';
      const user = 'Open User Settings';
      void showWarning(text, ...(path.isAbsolute(i.file) ? [open] : []), user).then((a) => {
        if (a === open) void vscode.window.showTextDocument(vscode.Uri.file(i.file));
        else if (a === user) void vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS_SECTION);
      });
    }
    return notices;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
