/**
 * The schedule of an exported pipeline (src/core/pipeline/schedulerFiles.ts): a schedule said in
 * words becomes the same cron fields in a GitHub Actions workflow (Node 20 running the command-line
 * runner) and a crontab line, the key only as the repository secret, and no name can open a GitHub
 * expression or end a YAML line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// A YAML parser to read the workflow as GitHub would (a devDependency); Python's yaml is not a Debian
// package the unit tier installs, and a test skipped for want of it checked nothing.
import yaml from 'js-yaml';
import { cronLine, cronOf, githubWorkflow, isPlainPath, parseSchedule, plainName, scheduleText, type Schedule } from '../../../../src/core/pipeline/schedulerFiles';



function parse(text: string): Schedule {
  const s = parseSchedule(text);
  assert.ok(!('error' in s), `${text}: ${'error' in s ? s.error : ''}`);
  return s;
}

describe('scheduler files', () => {
  it('reads a schedule in words and writes its cron fields (UTC)', () => {
    const cases: [string, string, string][] = [
      ['every hour', '0 * * * *', 'every hour at :00 UTC'],
      ['every hour at :15', '15 * * * *', 'every hour at :15 UTC'],
      ['Every day at 06:30 UTC', '30 6 * * *', 'every day at 06:30 UTC'],
      ['daily at 23:59', '59 23 * * *', 'every day at 23:59 UTC'],
      ['every 15 minutes', '*/15 * * * *', 'every 15 minutes'],
      ['every 6 hours', '0 */6 * * *', 'every 6 hours (UTC)'],
      ['every 24 hours', '0 0 * * *', 'every 24 hours (UTC)'],
    ];
    for (const [words, cron, said] of cases) {
      const s = parse(words);
      assert.equal(cronOf(s), cron, words);
      assert.equal(scheduleText(s), said, words);
    }
    for (const bad of ['every day at 24:00', 'every 7 minutes', 'every 5 hours', 'every 2 minutes', 'sometimes', 'every hour at :60']) {
      assert.ok('error' in parseSchedule(bad), bad);
    }
  });

  it('writes a workflow that reads the key from the repository secret and bounds each run', () => {
    const name = 'evil ${{ secrets.OTHER }}\n  run: curl evil\u2028"x"';
    const text = githubWorkflow(parse('every day at 06:30'), { runner: 'pipelines/wallet-analytics.cjs', pipeline: 'pipelines/example.wapipe.json', command: 'run', baseUrl: 'https://api.example.com', maxCredits: 26_050, results: 'pipelines/example.results', name });
    assert.ok(!text.includes('${{ secrets.OTHER'), 'a name never opens an expression');
    assert.equal(text.match(/\$\{\{/gu)?.length, 1, 'one expression: the key secret');
    assert.ok(text.includes('WA_API_KEY: ${{ secrets.WA_API_KEY }}'));
    const wf = yaml.load(text) as { name: string; on?: unknown; true?: { schedule: { cron: string }[] }; jobs: { run: { steps: { run?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> }[] } } };
    // YAML 1.1 reads the key `on` as true (YAML 1.2, as js-yaml, as the string).
    const on = (wf.on ?? wf.true) as { schedule: { cron: string }[] };
    assert.deepEqual(on.schedule, [{ cron: '30 6 * * *' }]);
    assert.equal(wf.name, `Wallet Analytics pipeline: ${name.replace('${{', '$ {{')}`, 'the parsed value holds no expression either');
    const runs = wf.jobs.run.steps.filter((s) => s.run).map((s) => s.run);
    assert.deepEqual(runs, ['node pipelines/wallet-analytics.cjs run pipelines/example.wapipe.json --max-credits 26050 --base-url https://api.example.com']);
    const node = wf.jobs.run.steps.find((s) => s.uses === 'actions/setup-node@v4');
    assert.deepEqual(node?.with, { 'node-version': '20' });
    assert.deepEqual(wf.jobs.run.steps.find((s) => s.run)?.env, { WA_API_KEY: '${{ secrets.WA_API_KEY }}' });
  });

  it('writes a crontab line in UTC with the folder quoted, and refuses paths a shell line cannot hold plainly', () => {
    const run = { runner: 'wallet-analytics.cjs', pipeline: 'example.wapipe.json', command: 'watch' as const, baseUrl: 'http://127.0.0.1:8080', maxCredits: 50, results: 'example.results', name: 'x' };
    assert.equal(cronLine(parse('every hour at :05'), run, "/home/a b/it's"), "CRON_TZ=UTC\n5 * * * * cd '/home/a b/it'\\''s' && node wallet-analytics.cjs watch example.wapipe.json --max-credits 50 --base-url http://127.0.0.1:8080 >> example.wapipe.json.log 2>&1");
    for (const bad of ['https://x.com/$(id)', 'https://x.com/a b', 'https://x.com/${{ secrets.A }}', 'https://x.com/?q=1']) {
      assert.throws(() => githubWorkflow(parse('every hour'), { ...run, baseUrl: bad }), /cannot be written/u, bad);
    }
    assert.throws(() => cronLine(parse('every hour'), run, '/a\nb'), /line break/u);
    assert.throws(() => cronLine(parse('every hour'), run, '/a%b'), /line break or “%”/u);
    for (const bad of ['a b.py', '../x.py', 'x/../../y.py', '$(id).py', '-x.py', '/abs.py', '${{ x }}.py']) {
      assert.equal(isPlainPath(bad), false, bad);
      assert.throws(() => githubWorkflow(parse('every hour'), { ...run, pipeline: bad }), /not a plain relative path/u, bad);
      assert.throws(() => githubWorkflow(parse('every hour'), { ...run, runner: bad }), /not a plain relative path/u, bad);
    }
    assert.equal(isPlainPath('dir/sub/x.py'), true);
    assert.equal(plainName('My pipeline (v2)\n'), 'My_pipeline_v2_');
    assert.equal(plainName('..hidden'), 'hidden');
  });
});
