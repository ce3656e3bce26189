/**
 * The free "price of a pipeline file" tool (issue 33): the plan the pipeline notebook's Run All
 * shows (core/pipeline/plan.ts), line by line, from the file as written, before anything is sent.
 * Planned without the results on disk, so it is the most the run can cost: a run from the notebook
 * reuses results already there and may cost less. Cell names come from the file, so the lines are
 * marked as data. Pure: the file's text in, bounded text out.
 */
import { parsePipeline } from '../pipeline/format';
import { planPipeline } from '../pipeline/plan';
import { errorText } from '../errors';
import { toolAnswer } from './toolText';
import { l10n } from '../l10n';

/** The plan of a pipeline file's text, as a tool's answer. */
export function pipelinePriceText(path: string, text: string): string {
  let plan: ReturnType<typeof planPipeline>;
  try {
    plan = planPipeline(parsePipeline(text));
  } catch (e) {
    return toolAnswer([l10n.t('{0} is not a pipeline the extension can plan.', path)], [errorText(e)]);
  }
  const head = [
    l10n.t('Pipeline {0}: {1} in all, {2} paid steps. Nothing was sent.', path, plan.totalText, plan.lines.length),
    plan.unbounded.length > 0
      ? l10n.t('{0} steps have no bound (a reference with no "top", or a Wallet Database query of unknown count): the plan cannot be approved until they do.', plan.unbounded.length)
      : l10n.t('Planned without the results on disk: running it from the pipeline notebook reuses those, and the person approves the plan there.'),
  ];
  return toolAnswer(head, [plan.lines.map((l) => `${l.cell}\t${l.endpointId}\t${l.text}`).join('\n')]);
}
