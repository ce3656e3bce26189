import * as vscode from 'vscode';
import type { Connection } from '../base/connection';
import { CommandIds } from '../base/ids';

/** A status bar item that says, while it is true, that this window talks to the sandbox. */
export class SandboxStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('walletAnalytics.sandbox', vscode.StatusBarAlignment.Left, 100);
  private readonly sub: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    this.item.name = 'Wallet Analytics Sandbox';
    this.item.text = '$(beaker) WA Sandbox';
    this.item.command = CommandIds.stopSandbox;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.sub = connection.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    if (this.connection.mode === 'sandbox') {
      this.item.tooltip = new vscode.MarkdownString(
        `**Wallet Analytics: sandbox in use**\n\nCalls go to ${this.connection.baseUrl()} (synthetic data, demo key, no credits).\n\nClick to stop it and return to the configured base URL.`,
      );
      this.item.show();
    } else this.item.hide();
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
