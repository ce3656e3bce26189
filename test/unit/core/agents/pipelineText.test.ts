/**
 * The price of a pipeline file for an agent (issue 33): the notebook's plan, line by line, the
 * total said, the cells' names (the file's text) fenced as data; a file that is not a pipeline says so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pipelinePriceText } from '../../../../src/core/agents/pipelineText';
import { DATA_NOTE } from '../../../../src/core/agents/toolText';
import { examplePipeline, serializePipeline } from '../../../../src/core/pipeline/format';
import { planPipeline } from '../../../../src/core/pipeline/plan';

describe('agents: the price of a pipeline file', () => {
  it('says the plan’s total and each paid step, as the notebook plans it', () => {
    const file = examplePipeline();
    const plan = planPipeline(file);
    const t = pipelinePriceText('a.wapipe.json', serializePipeline(file));
    assert.ok(t.includes(`Pipeline a.wapipe.json: ${plan.totalText} in all, ${plan.lines.length} paid steps. Nothing was sent.`), t);
    for (const l of plan.lines) assert.ok(t.indexOf(`${l.cell}\t${l.endpointId}\t${l.text}`) > t.indexOf(DATA_NOTE), l.cell);
  });

  it('a file that is not a pipeline says so, its error as data', () => {
    assert.match(pipelinePriceText('b.wapipe.json', '{"nope": 1}'), /not a pipeline the extension can plan/u);
  });
});
