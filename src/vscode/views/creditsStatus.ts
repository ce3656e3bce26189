import * as vscode from 'vscode';
import { creditsTooltipMarkdown } from '../../core/history/format';
import { StorageKeys, type Storage } from '../../core/storage';
import { showError, showWarning } from '../base/errors';
import { CommandIds, StatusBarIds } from '../base/ids';
import type { Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import type { ApiKeyStore } from '../base/secrets';
import { accountFacts, isoDay, type AccountFacts } from './account';
import type { HistoryService } from '../base/history';
import { onDidChangeSettings, readSidebarSettings } from '../base/settings';
import type { ConnectionStatus } from '../base/status';
import { l10n } from '../../shared/l10n';
import { compactCredits, fmtCredits } from '../../core/numberText';
import { SettingIds } from '../../core/ids';

type CreditsLevel = 'ok' | 'warn' | 'critical';

/** Which threshold a balance is under. */
export function levelOf(balance: number, warnBelow: number, criticalBelow: number): CreditsLevel {
  if (balance < criticalBelow) return 'critical';
  if (balance < warnBelow) return 'warn';
  return 'ok';
}

/**
 * The credits balance in the status bar: compact text, the details in its tooltip, a click opens
 * the Account view. Below `walletAnalytics.credits.warnBelow` (and `criticalBelow`) it takes the
 * warning (error) colour and says so once per period in a notification. The balance is read
 * after every paid call (CreditsService fires) and every `credits.refreshMinutes` otherwise, not
 * while the window is unfocused (it catches up on focus).
 */
export class CreditsStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(StatusBarIds.credits, vscode.StatusBarAlignment.Left, 99);
  private readonly subs: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private levelNow: CreditsLevel = 'ok';
  /** Notifications shown, as `<baseUrl>|<period>|<level>` (also kept in globalState across windows). */
  readonly notified: string[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly keys: ApiKeyStore,
    private readonly credits: CreditsService,
    private readonly status: ConnectionStatus,
    private readonly history: HistoryService,
    private readonly storage: Storage,
  ) {
    this.item.name = 'Wallet Analytics Credits';
    this.item.command = CommandIds.showAccount;
    this.subs.push(
      credits.onDidChange(() => this.update()),
      status.onDidChange(() => {
        this.update();
        this.schedule();
      }),
      history.onDidChangeFocus((focused) => {
        if (focused && this.stale()) void this.refresh();
        this.schedule();
      }),
      onDidChangeSettings(() => {
        this.update();
        this.schedule();
      }, 'credits'),
    );
    this.update();
    this.schedule();
  }

  get level(): CreditsLevel {
    return this.levelNow;
  }

  /** What the item shows now (for tests): text, tooltip and whether it is visible. */
  get shown(): { text: string; tooltip: string; visible: boolean; background?: string } {
    const t = this.item.tooltip;
    return {
      text: this.item.text,
      tooltip: typeof t === 'string' ? t : (t?.value ?? ''),
      visible: this.visible,
      background: (this.item.backgroundColor as { id?: string } | undefined)?.id,
    };
  }

  private visible = false;

  private stale(): boolean {
    const b = this.credits.peek();
    return !b || Date.now() - b.at >= readSidebarSettings().creditsRefreshMs;
  }

  /** Reads the balance now (free) and reports the outcome to the connection status. */
  async refresh(): Promise<void> {
    if (!this.status.canPoll) return;
    const scope = this.connection.scope();
    try {
      await this.credits.refresh();
      await this.status.report(scope);
    } catch (e) {
      await this.status.report(scope, e);
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Not while unfocused: nobody is looking, and focus brings a refresh if the balance is old.
    if (!this.status.canPoll || !this.history.focused) return;
    const b = this.credits.peek();
    const every = readSidebarSettings().creditsRefreshMs;
    const wait = b ? Math.max(1_000, every - (Date.now() - b.at)) : every;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh().finally(() => this.schedule());
    }, wait);
  }

  private update(): void {
    const s = this.status.state;
    if (s === 'noKey' || s === 'noBaseUrl') {
      this.visible = false;
      this.item.hide();
      return;
    }
    const f = accountFacts(this.connection, this.keys, this.credits);
    const settings = readSidebarSettings();
    if (!f.balance) {
      this.levelNow = 'ok';
      this.item.text = s === 'offline' || s === 'refused' ? '$(credit-card) ?' : '$(credit-card) …';
      this.item.backgroundColor = undefined;
      this.item.tooltip = this.tooltip(f, settings.warnBelow, settings.criticalBelow);
    } else {
      this.levelNow = levelOf(f.balance.value, settings.warnBelow, settings.criticalBelow);
      // In the sandbox the "WA Sandbox" item beside it says so; the tooltip too.
      this.item.text = `$(credit-card) ${compactCredits(f.balance.value)}`;
      this.item.backgroundColor =
        this.levelNow === 'critical'
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : this.levelNow === 'warn'
            ? new vscode.ThemeColor('statusBarItem.warningBackground')
            : undefined;
      this.item.tooltip = this.tooltip(f, settings.warnBelow, settings.criticalBelow);
      if (this.levelNow !== 'ok') void this.notifyOnce(f, this.levelNow, this.levelNow === 'critical' ? settings.criticalBelow : settings.warnBelow);
    }
    this.item.accessibilityInformation = { label: l10n.t('Wallet Analytics credits: {0}', f.balance ? fmtCredits(f.balance.value) : 'unknown') };
    this.visible = true;
    this.item.show();
  }

  private tooltip(f: AccountFacts, warnBelow: number, criticalBelow: number): vscode.MarkdownString {
    return new vscode.MarkdownString(creditsTooltipMarkdown(f, this.status.error?.message, warnBelow, criticalBelow));
  }

  /** One notification per base URL, period and level, across windows and reloads. */
  private async notifyOnce(f: AccountFacts, level: 'warn' | 'critical', threshold: number): Promise<void> {
    const period = f.periodStart !== undefined ? new Date(f.periodStart).toISOString().slice(0, 10) : 'unknown';
    const key = `${f.scope}|${period}|${level}`;
    const warned = this.storage.record(StorageKeys.creditsWarned);
    if (warned.get(key) !== undefined || this.notified.includes(key)) return;
    this.notified.push(key);
    await warned.set(key, Date.now());
    const balance = f.balance?.value ?? 0;
    const reset = f.reset ? ` The balance is reset to ${compactCredits(f.quota)} on ${isoDay(f.reset.date)}${f.reset.estimated ? ' (estimated)' : ''}.` : '';
    const text = `Wallet Analytics: ${fmtCredits(balance)} left, below your ${level === 'critical' ? 'critical' : 'warning'} threshold of ${compactCredits(threshold)}.${reset}`;
    const show = level === 'critical' ? showError : showWarning;
    const a = await show(text, 'Open Account', 'Change Threshold');
    if (a === 'Open Account') await vscode.commands.executeCommand(CommandIds.showAccount);
    else if (a === 'Change Threshold') await vscode.commands.executeCommand('workbench.action.openSettings', SettingIds.credits);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
