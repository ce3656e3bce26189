/**
 * "Get Started": opens the Getting Started walkthrough (package.json contributes.walkthroughs), so a
 * newcomer can find it from the palette again after closing the Welcome page. Its steps tick off by
 * themselves, through their completion events.
 *
 * One exception (issue 23): VS Code's walkthrough service records an `onContext:` event that
 * already holds when it registers the walkthrough as seen, and never ticks a step on it later. With
 * the sandbox started at startup (`walletAnalytics.sandbox.autoStart`) or a key stored, that was
 * the first step's only way to tick. So the first step also waits on a key of its own,
 * `walletAnalytics.walkthrough.keyOrSandbox`, which is set only once the walkthrough shows (this
 * command, or its tab or the Welcome page in view), when the service has surely registered it.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import type { ContextKeySetter } from '../base/contextKeys';
import { CommandIds, ContextKeys, WALKTHROUGH_ID } from '../base/ids';

interface WalkthroughDeps {
  readonly contextKeys: ContextKeySetter;
  /** Whether the profile in use has a key stored. */
  readonly hasKey: () => boolean;
  /** Whether calls go to the sandbox. */
  readonly sandbox: () => boolean;
  /** Fires when either may have changed. */
  readonly onDidChange: vscode.Event<unknown>;
}

/** Whether a tab is the Getting Started editor (the walkthrough, or the Welcome page that lists it). */
function isWalkthroughTab(label: string): boolean {
  return /^(Walkthrough\b|Welcome$)/u.test(label);
}

/**
 * Sets the first step's key when the walkthrough is in view and a key or the sandbox is in use:
 * never before the walkthrough has shown, so the event is always a change the service sees.
 */
class FirstStepTicker implements vscode.Disposable {
  private shown = false;
  private done = false;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly deps: WalkthroughDeps) {
    this.subs.push(
      deps.onDidChange(() => void this.update()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.lookForTab()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.lookForTab()),
    );
    this.lookForTab();
  }

  /** The walkthrough is on screen (the Get Started command, or its tab). */
  walkthroughShown(): void {
    this.shown = true;
    void this.update();
  }

  private lookForTab(): void {
    if (this.shown) return;
    if (vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => isWalkthroughTab(t.label)))) this.walkthroughShown();
  }

  private async update(): Promise<void> {
    if (this.done || !this.shown || !(this.deps.hasKey() || this.deps.sandbox())) return;
    this.done = true; // set once: the step stays ticked (VS Code keeps it), and setting it again would tick nothing
    await this.deps.contextKeys.set(ContextKeys.walkthroughKeyOrSandbox, true);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

export function registerGetStartedCommand(context: vscode.ExtensionContext, deps: WalkthroughDeps): void {
  const ticker = new FirstStepTicker(deps);
  context.subscriptions.push(
    ticker,
    registerCommand(CommandIds.getStarted, async () => {
      // The walkthrough is addressed as `publisher.name#id`; context.extension.id is `publisher.name`.
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
      ticker.walkthroughShown();
    }),
  );
}
