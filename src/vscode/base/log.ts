import * as vscode from 'vscode';
import { redact } from '../../core/errors';
import { logLine } from '../../core/logLine';
import { LOG_CHANNEL } from './ids';

/**
 * The "Wallet Analytics" log channel. Every line passes through redact() with the
 * secrets known to the extension, so a key can never reach the log, whatever the caller passes,
 * and through logLine(), so one call is one line: a value holding a line break cannot forge another.
 * Its level follows VS Code's (LogOutputChannel does that by itself).
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  /** `channel`: the one the thin entry already made to say it was activated (src/extension.ts), else a new one. */
  constructor(
    private readonly secrets: () => readonly (string | undefined)[],
    channel?: vscode.LogOutputChannel,
  ) {
    this.channel = channel ?? vscode.window.createOutputChannel(LOG_CHANNEL, { log: true });
  }

  private clean(msg: string): string {
    return logLine(redact(msg, this.secrets()));
  }

  info(msg: string): void {
    this.channel.info(this.clean(msg));
  }
  warn(msg: string): void {
    this.channel.warn(this.clean(msg));
  }
  error(msg: string): void {
    this.channel.error(this.clean(msg));
  }
  debug(msg: string): void {
    this.channel.debug(this.clean(msg));
  }

  dispose(): void {
    this.channel.dispose();
  }
}
