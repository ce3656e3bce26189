/**
 * `wallet-analytics watch` (issue 32): one run of a watch exported from the editor, outside it.
 * Every call is sent again (a watch's run never reuses), under the same approval as `run`, and the
 * last step's result is compared with the previous run's by the watch's own comparison
 * (core/watch/changes.ts, in the table worker). The change summary is printed, and with
 * --notify-url posted to a webhook by the transport's webhook post (core/transport/webhook.ts),
 * which never sends the key.
 */
import { basename, extname, join } from 'node:path';
import { errorText } from '../core/errors';
import { replaceInside } from '../core/files/writeInside';
import { thousands } from '../core/numberText';
import { resultsDirOf, readRecord } from '../core/pipeline/run';
import { checkUrl } from '../core/transport/http';
import { postWebhook } from '../core/transport/webhook';
import { changeLine, compareInWorker, detectChanges } from '../core/watch/changes';
import type { Command } from './args';
import { EXIT } from './exitCodes';
import type { Print } from './host';
import { BadInput, prepare, runCommand, type RunEnv, type RunReport } from './runCommand';

type WatchCommand = Extract<Command, { kind: 'run' | 'watch' }>;

/** The file the previous run's last result is kept as, to be compared with the next. */
const PREVIOUS = 'watch-previous';

/** Runs the watch once; its report's last line is the change summary with the charge. */
export async function watchCommand(cmd: WatchCommand, env: RunEnv, print: Print): Promise<RunReport> {
  const { file, path } = prepare(cmd, env);
  if (cmd.notifyUrl !== undefined) {
    try {
      checkUrl(cmd.notifyUrl, 'webhook URL');
    } catch (e) {
      throw new BadInput(errorText(e));
    }
  }
  const dir = resultsDirOf(path);
  const roots = [join(dir, 'calls')];
  const last = file.cells.flatMap((c) => (typeof c === 'string' ? [] : [c.name])).at(-1) ?? '';
  const before = await readRecord(dir, last, roots);
  // A local step's file is rewritten in place by the run: the previous result is kept aside first.
  const previous = before ? await replaceInside(dir, `${PREVIOUS}${extname(before.resultPath)}`, { copyOf: before.resultPath }).catch(() => undefined) : undefined;
  const report = await runCommand(cmd, env, print);
  if (report.code !== EXIT.done) return report;
  const after = await readRecord(dir, last, roots);
  const name = basename(path);
  let summary: string;
  if (!previous || !after) {
    summary = `${name}: first run, ${thousands(after?.size ?? 0)} values in “${last}”; the next run says what changed.`;
  } else {
    const changes = await detectChanges(previous, after.resultPath, undefined, compareInWorker(env.workerFile));
    summary = changeLine(name, changes, undefined, Date.parse(before?.at ?? '') || Date.now(), Date.now());
  }
  print(summary);
  const lastLine = `${summary}. ${report.lastLine}`;
  if (cmd.notifyUrl === undefined) return { ...report, lastLine };
  try {
    await postWebhook(cmd.notifyUrl, lastLine, { pipeline: name, charged: report.charged });
    print('Posted the summary to the webhook.');
    return { ...report, lastLine };
  } catch (e) {
    return { ...report, code: EXIT.failed, lastLine: `${lastLine} The webhook post failed: ${errorText(e)}` };
  }
}
