import * as vscode from 'vscode';
import { BUDGET_SETTING, resetWords } from '../../core/money/budget';
import { fullTime } from '../../core/history/format';
import { DEFAULT_PROFILE_ID } from '../../core/transport/profiles';
import { CommandIds } from '../base/ids';
import { RESTRICTED_MODE, type Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import type { ApiKeyStore } from '../base/secrets';
import type { AgentAllowance } from '../base/agentAllowance';
import { accountFacts, isoDay, type AccountFacts, type SpendLine } from './account';
import { levelOf } from './creditsStatus';
import { onDidChangeSettings, readSidebarSettings } from '../base/settings';
import type { ConnectionStatus } from '../base/status';
import { l10n } from '../../shared/l10n';
import { compactCredits, fmtCredits, percent, thousands } from '../../core/numberText';
import { SettingIds } from '../../core/ids';
import { ACCOUNT_LABELS, BALANCE_NOT_READ, CONNECTION_CHECKING, hostOf, KEY_SET, keyTip, profileTip, settingBaseUrlTip } from '../base/accountWords';


/** The key row in the states only the features tell (a key stored: KEY_SET, which the entry's first answer shows too). */
const KEY_SANDBOX = { shown: 'sandbox (demo key)', tip: 'The sandbox uses its own demo key; your key (if any) is untouched and used again when the sandbox stops.' };
const KEY_NOT_SET = { shown: 'not set', tip: 'No key is stored. Set the key issued with your API plan, or try the sandbox.' };

/** The connection row's description, by sidebar state (src/vscode/base/status.ts SidebarState). */
const CONNECTION_WORDS: Readonly<Record<string, string>> = {
  noKey: 'no key',
  noBaseUrl: 'base URL not set',
  checking: CONNECTION_CHECKING,
  ok: 'OK',
  offline: 'unreachable',
  refused: 'key refused',
  untrusted: 'Restricted Mode',
};

type RowId = 'profile' | 'key' | 'baseUrl' | 'connection' | 'balance' | 'used' | 'quota' | 'reset' | 'budgetDay' | 'budgetPeriod' | 'agentAllowance' | 'forecast' | 'spend';

/** A row of the Account view. Rows are kept (same object), so a change refreshes only them. */
class AccountNode {
  constructor(
    readonly row: RowId | 'spendLine',
    /** For a spend line: its endpoint. */
    readonly endpointId?: string,
  ) {}
}

/**
 * The Account view: key state, base URL, connection, credits (balance compact with the exact
 * figure in the tooltip, used this period, quota, next reset), the spend budgets with the
 * forecast at the current pace, and this period's spend by endpoint (the local ledger merged with the request history). Actions are in its title bar and on its rows.
 */
export class AccountProvider implements vscode.TreeDataProvider<AccountNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AccountNode | AccountNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly rows = new Map<RowId, AccountNode>();
  private readonly spendLines = new Map<string, AccountNode>();
  private readonly spendNote = new AccountNode('spendLine');
  private facts: AccountFacts;
  private last = new Map<RowId, string>();
  private readonly subs: vscode.Disposable[] = [];
  /** Light and dark variants of the extension's icon, for the balance row. */
  private readonly brandIcon: { light: vscode.Uri; dark: vscode.Uri };

  constructor(
    private readonly connection: Connection,
    private readonly keys: ApiKeyStore,
    private readonly credits: CreditsService,
    private readonly status: ConnectionStatus,
    extensionUri: vscode.Uri,
    private readonly allowance?: AgentAllowance,
  ) {
    this.brandIcon = {
      light: vscode.Uri.joinPath(extensionUri, 'media', 'icons', 'wallet-analytics-light.svg'),
      dark: vscode.Uri.joinPath(extensionUri, 'media', 'icons', 'wallet-analytics-dark.svg'),
    };
    this.facts = accountFacts(connection, keys, credits, allowance);
    this.snapshot();
    this.subs.push(
      credits.onDidChange(() => this.refresh()),
      ...(allowance ? [allowance.onDidChange(() => this.refresh())] : []),
      keys.onDidChange(() => this.refresh()),
      connection.onDidChange(() => this.refresh()),
      status.onDidChange(() => this.refresh()),
      onDidChangeSettings(() => this.refresh()),
    );
  }

  private node(id: RowId): AccountNode {
    let n = this.rows.get(id);
    if (!n) this.rows.set(id, (n = new AccountNode(id)));
    return n;
  }

  /** Every row's content as text, to find the rows that changed. */
  private snapshot(): Map<RowId, string> {
    const f = this.facts;
    const s = this.status;
    const m = new Map<RowId, string>([
      ['profile', `${f.profileName}|${f.baseUrl}`],
      ['key', `${f.keyState}|${f.profileName}`],
      ['baseUrl', `${f.baseUrl}|${f.keyState}|${f.profileId}`],
      ['connection', `${s.state}|${s.error?.message ?? ''}`],
      ['balance', `${f.balance?.value ?? ''}|${f.balance?.at ?? ''}|${JSON.stringify(readSidebarSettings())}`],
      ['used', `${f.used ?? ''}|${f.spendTotal}`],
      ['quota', String(f.quota)],
      ['reset', `${f.reset?.date.getTime() ?? ''}|${f.reset?.estimated ?? ''}`],
      ['budgetDay', JSON.stringify(f.budgets.find((b) => b.kind === 'day') ?? null)],
      ['budgetPeriod', JSON.stringify(f.budgets.find((b) => b.kind === 'period') ?? null)],
      ['agentAllowance', JSON.stringify(f.allowance ?? null)],
      ['forecast', f.forecast?.text ?? ''],
      ['spend', JSON.stringify(f.spend)],
    ]);
    return m;
  }

  /** Recomputes and fires only the rows whose content changed. */
  refresh(): void {
    this.facts = accountFacts(this.connection, this.keys, this.credits, this.allowance);
    const now = this.snapshot();
    const changed: AccountNode[] = [];
    for (const [id, text] of now) if (this.last.get(id) !== text && this.rows.has(id)) changed.push(this.node(id));
    const shown = (c: string | undefined) => c === undefined || c.startsWith('ok|') || c.startsWith('noKey|');
    // The agent allowance's row comes and goes with the setting.
    const allowanceShown = (m: Map<RowId, string>) => m.get('agentAllowance') !== 'null';
    // With no key the credit rows are left out (getChildren): they come back with one.
    const keyless = (m: Map<RowId, string>) => m.get('key')?.startsWith('notSet|') === true;
    const rootChanged =
      shown(this.last.get('connection')) !== shown(now.get('connection')) || allowanceShown(this.last) !== allowanceShown(now) || keyless(this.last) !== keyless(now);
    this.last = now;
    if (rootChanged) this.changed.fire(undefined);
    else if (changed.length) this.changed.fire(changed);
  }

  getChildren(element?: AccountNode): AccountNode[] {
    if (!element) {
      this.last = this.snapshot();
      const ids: RowId[] = ['profile', 'key', 'baseUrl'];
      // The connection row only when something is wrong or pending: "OK" says nothing, and "no key" is the key row's.
      if (this.status.state !== 'ok' && this.status.state !== 'noKey') ids.push('connection');
      // No key (and no sandbox): the credit rows would be empty ("—", "unknown", "not set"), and at
      // 1280 × 800 their nine lines pushed the Requests view's welcome (Set API Key, Try the
      // Sandbox) down past its end. They show again once a key is set or the sandbox runs.
      if (this.facts.keyState === 'notSet') return ids.map((id) => this.node(id));
      ids.push('balance', 'used', 'quota', 'reset', 'budgetDay', 'budgetPeriod');
      // The agent allowance once it is set (0, the default, is every agent call asked: the setting's text says so).
      if (this.facts.allowance) ids.push('agentAllowance');
      ids.push('forecast', 'spend');
      return ids.map((id) => this.node(id));
    }
    if (element.row === 'spend') {
      if (this.facts.spend.length === 0) return [this.spendNote];
      return this.facts.spend.map((l) => {
        let node = this.spendLines.get(l.endpointId);
        if (!node) this.spendLines.set(l.endpointId, (node = new AccountNode('spendLine', l.endpointId)));
        return node;
      });
    }
    return [];
  }

  getParent(element: AccountNode): AccountNode | undefined {
    return element.row === 'spendLine' ? this.node('spend') : undefined;
  }

  getTreeItem(n: AccountNode): vscode.TreeItem {
    const f = this.facts;
    const t = (label: string, description: string, icon: vscode.TreeItem['iconPath'], tooltip?: string | vscode.MarkdownString): vscode.TreeItem => {
      const item = new vscode.TreeItem(label);
      item.description = description;
      item.iconPath = icon;
      item.tooltip = tooltip;
      item.id = `account:${n.row}${n.endpointId ? `:${n.endpointId}` : ''}`;
      return item;
    };
    const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
    switch (n.row) {
      case 'profile': {
        const item = t(ACCOUNT_LABELS.profile, f.profileName, icon(f.keyState === 'sandbox' ? 'beaker' : 'account'), profileTip(f.profileName, f.baseUrl));
        item.contextValue = 'account.profile';
        item.command = { command: CommandIds.switchProfile, title: l10n.t('Switch Profile…') };
        return item;
      }
      case 'key': {
        const words = f.keyState === 'set' ? KEY_SET : f.keyState === 'sandbox' ? KEY_SANDBOX : KEY_NOT_SET;
        const item = t(ACCOUNT_LABELS.key, words.shown, icon('key'), f.keyState === 'sandbox' ? words.tip : keyTip(words.tip, f.profileName, f.baseUrl));
        item.contextValue = `account.key.${f.keyState}`;
        if (f.keyState === 'notSet') item.command = { command: CommandIds.setApiKey, title: l10n.t('Set API Key') };
        return item;
      }
      case 'baseUrl': {
        const sandbox = f.keyState === 'sandbox';
        // Only the Default profile's base URL is a setting; an added profile's is fixed (its key was given for it).
        const setting = !sandbox && f.profileId === DEFAULT_PROFILE_ID;
        const item = t(
          ACCOUNT_LABELS.baseUrl,
          // The host reads whole at the sidebar's default width; the whole URL is in the tooltip.
          hostOf(f.baseUrl),
          icon(sandbox ? 'beaker' : 'globe'),
          setting
            ? settingBaseUrlTip(f.baseUrl, SettingIds.baseUrl)
            : `${f.baseUrl}\n\n${sandbox
              ? 'The built-in sandbox (loopback, synthetic data). Stop it to return to the profile used before.'
              : `The base URL of the profile “${f.profileName}”: its key is sent here only. For another address, add another profile.`}`,
        );
        item.contextValue = sandbox ? 'account.baseUrl.sandbox' : 'account.baseUrl.configured';
        if (setting) item.command = { command: 'workbench.action.openSettings', title: l10n.t('Open Settings'), arguments: [SettingIds.baseUrl] };
        return item;
      }
      case 'connection': {
        const s = this.status.state;
        const err = this.status.error?.message;
        const item = t(
          ACCOUNT_LABELS.connection,
          `${CONNECTION_WORDS[s] ?? s}${err ? `: ${err}` : ''}`,
          s === 'checking' ? icon('loading~spin') : s === 'offline' || s === 'refused' ? icon('error', 'errorForeground') : icon('info'),
          err ??
            (s === 'noBaseUrl'
              ? `${SettingIds.baseUrl} is the placeholder: set the API’s address, or try the sandbox.`
              : s === 'untrusted'
                ? RESTRICTED_MODE
                : undefined),
        );
        item.command = s === 'untrusted' ? { command: 'workbench.trust.manage', title: l10n.t('Manage Workspace Trust') } : { command: CommandIds.refreshAccount, title: l10n.t('Retry') };
        return item;
      }
      case 'balance': {
        const b = f.balance;
        const settings = readSidebarSettings();
        const level = b ? levelOf(b.value, settings.warnBelow, settings.criticalBelow) : 'ok';
        const tip = b
          ? new vscode.MarkdownString(`**${fmtCredits(b.value)}**  \nread ${fullTime(b.at)} from GET /credits (free)${level !== 'ok' ? `  \nbelow your ${level === 'critical' ? 'critical' : 'warning'} threshold` : ''}`)
          : BALANCE_NOT_READ.tip;
        const item = t(
          ACCOUNT_LABELS.balance,
          b ? `${compactCredits(b.value)} credits${level !== 'ok' ? ' — low' : ''}` : BALANCE_NOT_READ.shown,
          level === 'critical' ? icon('warning', 'errorForeground') : level === 'warn' ? icon('warning', 'list.warningForeground') : this.brandIcon,
          tip,
        );
        item.command = { command: CommandIds.refreshAccount, title: l10n.t('Refresh') };
        return item;
      }
      case 'used': {
        const share = f.used !== undefined ? (f.used / f.quota) * 100 : 0;
        const pct = f.used !== undefined ? ` (${percent(share)})` : '';
        return t(
          'Used this period',
          f.used !== undefined ? `${compactCredits(f.used)}${pct}` : '—',
          icon('graph'),
          f.used !== undefined
            ? `${fmtCredits(f.used)} used of ${thousands(f.quota)} (the quota minus the balance, by every client of this key). This extension spent ${fmtCredits(f.spendTotal)} of it.`
            : undefined,
        );
      }
      case 'quota':
        return t('Quota', `${compactCredits(f.quota)} every 30 days`, icon('dashboard'), `${fmtCredits(f.quota)} every 30 days; unused credits do not roll over.`);
      case 'reset':
        return t(
          'Next reset',
          f.reset ? `${isoDay(f.reset.date)}${f.reset.estimated ? ' (estimated)' : ''}` : 'unknown',
          icon('calendar'),
          f.reset?.estimated
            ? 'Estimated from when this extension first saw the balance. Set walletAnalytics.quotaPeriodStart for the exact date.'
            : f.reset
              ? 'From walletAnalytics.quotaPeriodStart.'
              : 'Known once the balance has been read.',
        );
      case 'budgetDay':
      case 'budgetPeriod': {
        const kind = n.row === 'budgetDay' ? 'day' : 'period';
        const b = f.budgets.find((x) => x.kind === kind);
        const setting = BUDGET_SETTING[kind];
        const over = b !== undefined && b.left === 0;
        const item = t(
          kind === 'day' ? 'Budget today (UTC)' : 'Budget this period',
          // Short, so the row reads whole at the sidebar's default width (" — used up" after both amounts was cut); exact figures in the tooltip.
          b ? (over ? `all ${compactCredits(b.budget)} used` : `${compactCredits(b.spent)} of ${compactCredits(b.budget)}`) : 'not set',
          over ? icon('warning', 'list.warningForeground') : icon('shield'),
          b
            ? `${fmtCredits(b.spent)} spent or held of your budget of ${fmtCredits(b.budget)} (${setting}); ${fmtCredits(b.left)} left. It resets ${resetWords(b)}. A paid call past it is refused before its price is shown, in every window. Click to change it.`
            : `No ${kind === 'day' ? 'daily' : '30-day'} budget: click to set ${setting}.`,
        );
        item.command = { command: 'workbench.action.openSettings', title: l10n.t('Open Settings'), arguments: [setting] };
        return item;
      }
      case 'agentAllowance': {
        // Shown and spent like a budget (core/money/agentAllowance.ts): what AI agents may spend today without asking.
        const a = f.allowance;
        const item = t(
          'Agent allowance today',
          a ? (a.left === 0 ? `all ${compactCredits(a.budget)} used` : `${compactCredits(a.spent)} of ${compactCredits(a.budget)}`) : 'not set',
          icon('robot'),
          a
            ? `AI agents spent or hold ${fmtCredits(a.spent)} of their allowance of ${fmtCredits(a.budget)} today (${SettingIds.agentAllowancePerDay}); ${fmtCredits(a.left)} left. It resets ${resetWords(a)}. Within it, a call from the chat goes on after the chat's confirmation; past it, the price step asks you. The ceiling and budgets still hold. Click to change it.`
            : `No agent allowance: every paid call of an AI agent asks you in the price step. Click to set ${SettingIds.agentAllowancePerDay}.`,
        );
        item.command = { command: 'workbench.action.openSettings', title: l10n.t('Open Settings'), arguments: [SettingIds.agentAllowancePerDay] };
        return item;
      }
      case 'forecast': {
        const fc = f.forecast;
        return t(
          'Forecast',
          // Short, so the row reads whole at the sidebar's default width; the tooltip says why.
          fc ? fc.short : 'not yet',
          icon(fc && fc.projected > fc.of ? 'warning' : 'graph-line', fc && fc.projected > fc.of ? 'list.warningForeground' : undefined),
          fc
            ? `${fc.text[0]?.toUpperCase() ?? ''}${fc.text.slice(1)}. ${fc.basis === 'used'
              ? `This period’s use so far (${fmtCredits(fc.spent)}: the quota less your balance, every tool’s calls, not only this editor’s), ${f.reset?.estimated ? `with this editor’s pace since its first balance read (the period’s start is estimated; set walletAnalytics.quotaPeriodStart for the account’s pace)` : 'at its pace since the period started'}`
              : `This period’s spend so far (${fmtCredits(fc.spent)}, this editor’s and the request history’s), at its pace since the period started`}, to the reset on ${isoDay(fc.by)}: ${fmtCredits(fc.projected)} against ${fmtCredits(fc.of)} (${f.budgets.some((b) => b.kind === 'period') ? 'your period budget' : 'the quota'}).`
            : 'A forecast needs the start of the quota period: it is known once the balance has been read (free), or set walletAnalytics.quotaPeriodStart.',
        );
      }
      case 'spend': {
        const calls = f.spend.reduce((s, l) => s + l.calls, 0);
        // The amount only, compact, so the row reads whole at the sidebar's default width ("154,200 credits · 3 calls" was cut); the exact sum and the calls in the tooltip.
        const item = t(
          'Spent this period',
          f.spend.length ? `${compactCredits(f.spendTotal)} credits` : 'nothing yet',
          icon('pie-chart'),
          `${f.spend.length ? `${fmtCredits(f.spendTotal)} in ${calls} paid call${calls === 1 ? '' : 's'}. ` : ''}Paid requests of this key against this base URL since the period started: this editor’s ledger and the free request history (the runner’s, a bot’s, another machine’s), each charge once.`,
        );
        // Always expandable (a note when empty): a row that turns from leaf to parent would shift its neighbours.
        item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
        return item;
      }
      case 'spendLine': {
        const l: SpendLine | undefined = f.spend.find((x) => x.endpointId === n.endpointId);
        if (!l) return t('No paid calls yet this period', '', icon('info'));
        const share = f.spendTotal > 0 ? `, ${Math.round((l.credits / f.spendTotal) * 100)}% of this period’s spend` : '';
        // The endpoint and its amount (compact) read whole at the sidebar's default width; the calls and the share are in the tooltip.
        return t(l.title, compactCredits(l.credits), icon('symbol-method'), `${l.title}: ${fmtCredits(l.credits)} in ${l.calls} paid call${l.calls === 1 ? '' : 's'}${share}.`);
      }
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
