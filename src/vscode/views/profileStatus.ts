import * as vscode from 'vscode';
import { SANDBOX_PROFILE_ID } from '../../core/transport/profiles';
import { CommandIds, StatusBarIds } from '../base/ids';
import type { Connection } from '../base/connection';
import { l10n } from '../../shared/l10n';

/**
 * The active profile's name in the status bar; a click switches profiles. Shown always, so the
 * person sees which key (which account) a call would use before making it. While the sandbox is
 * in use it reads "WA Sandbox" on the warning colour: one item says it, not two side by side.
 */
export class ProfileStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(StatusBarIds.profile, vscode.StatusBarAlignment.Left, 101);
  private readonly sub: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    this.item.name = 'Wallet Analytics Profile';
    this.item.command = CommandIds.switchProfile;
    this.sub = connection.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  /** What the item shows now (for tests). */
  get shown(): { text: string; tooltip: string; background: string | undefined } {
    const t = this.item.tooltip;
    return { text: this.item.text, tooltip: typeof t === 'string' ? t : (t?.value ?? ''), background: this.item.backgroundColor?.id };
  }

  private update(): void {
    const p = this.connection.activeProfile();
    const sandbox = p.id === SANDBOX_PROFILE_ID || this.connection.mode === 'sandbox';
    this.item.text = sandbox ? '$(beaker) WA Sandbox' : `$(account) ${p.name}`;
    this.item.backgroundColor = sandbox ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const md = new vscode.MarkdownString(
      sandbox
        ? `**Wallet Analytics: sandbox in use**\n\nCalls go to ${this.connection.baseUrl()} (synthetic data, demo key, no credits); your key is never used.\n\nClick to switch profiles; **Stop Sandbox** returns to the profile you used before.`
        : `**Wallet Analytics profile: ${p.name}**\n\nCalls go to ${this.connection.baseUrl()} with this profile’s key.\n\nClick to switch profiles. Jobs already sent stay with the profile they were sent under.`,
    );
    md.isTrusted = false;
    md.supportHtml = false;
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: sandbox ? l10n.t('Wallet Analytics sandbox in use: click to switch profiles') : l10n.t('Wallet Analytics profile {0}: click to switch', p.name) };
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
