import * as vscode from 'vscode';
import type { Endpoint } from '../../core/catalog';
import { quote, type QuoteContext } from '../../core/pricing';
import { priceGate } from '../../core/quota';
import type { CreditsService } from '../credits';
import { readSettings } from '../config';
import { pickStep } from './multiStep';

export interface PriceDecision {
  readonly approved: boolean;
  /** What the person was shown, for the log and for tests. */
  readonly shown: string;
  readonly credits: number;
}

/**
 * Shows the price of a call before it is sent and asks as the settings say: the last step of
 * the flow below `confirmAbove`, a modal above it, a refusal above `maxCreditsPerCall`.
 * `assumeYes` (from tests and re-runs the person already confirmed) still refuses over the ceiling.
 */
export async function approvePrice(
  ep: Endpoint,
  input: Record<string, unknown>,
  credits: CreditsService,
  opts: { step: number; total: number; ctx?: QuoteContext; assumeYes?: boolean },
): Promise<PriceDecision> {
  const q = quote(ep, input, opts.ctx);
  if (q.credits === 0 && q.exact) return { approved: true, shown: 'Free', credits: 0 };
  let balance: number | undefined;
  try {
    balance = await credits.get(60_000);
  } catch {
    balance = credits.peek()?.value;
  }
  const reset = credits.nextReset();
  const gate = priceGate(q, readSettings(), balance, reset?.date);
  const title = ep.title.replace(/…$/u, '');
  switch (gate.kind) {
    case 'free':
      return { approved: true, shown: 'Free', credits: 0 };
    case 'refuse':
      void vscode.window.showErrorMessage(gate.message, 'Open Settings').then((a) => {
        if (a) void vscode.commands.executeCommand('workbench.action.openSettings', 'walletAnalytics.maxCreditsPerCall');
      });
      return { approved: false, shown: gate.message, credits: q.credits };
    case 'modal': {
      const detail = `${gate.detail}${reset?.estimated ? ' (reset date estimated)' : ''}`;
      if (opts.assumeYes) return { approved: true, shown: `${gate.message} ${detail}`, credits: q.credits };
      const ok = await vscode.window.showWarningMessage(gate.message, { modal: true, detail }, 'Run');
      return { approved: ok === 'Run', shown: `${gate.message} ${detail}`, credits: q.credits };
    }
    case 'step': {
      const detail = `${gate.detail}${reset?.estimated ? ' (estimated)' : ''}`;
      if (opts.assumeYes) return { approved: true, shown: `${gate.label} ${detail}`, credits: q.credits };
      const pick = await pickStep({ title, step: opts.step, total: opts.total }, [
        { label: gate.label, detail, value: true },
        { label: '$(close) Cancel', detail: 'Nothing is sent.', value: false },
      ], { placeholder: `${title}: ${q.text}. Press Enter to run.` });
      return { approved: pick?.[0] === true, shown: `${gate.label} ${detail}`, credits: q.credits };
    }
  }
}
