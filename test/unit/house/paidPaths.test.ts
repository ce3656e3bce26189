/**
 * No paid path escapes the price gate (issue 25): every place in src/vscode that sends a call with
 * the key (`api.call`, `api.submit`) is found in the source, and every chain of callers above it
 * passes a function that asks approvePrice (calls/priceStep.ts), where the spend budgets, the
 * ceiling and the person's approval are held. A new send, or a new caller of a send that skips the
 * price, fails here. The palette, a query file, a pipeline cell, a re-run, "use as input" and a
 * watch's run all go through CallService.run; Resume Reading Pages through resumePages.
 *
 * What passes the price without asking again is an approval (issue 30 Deliver 1 and 4): a
 * pipeline's plan the person approved, or a watch's price per run the person approved when creating
 * it. One module owns it, src/core/money/approval.ts: it issues approvals and alone answers whether
 * a call is within one. The places that issue one are enumerated, each after the person's own
 * answer; every spend that passes an approval is listed; and no other file of src/ decides.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** A named function (declaration, method, or a const/property holding an arrow or function expression). */
interface Fn {
  readonly where: string;
  readonly name: string;
  /** The names it calls (an identifier, or a property's name: `this.send(…)` is `send`). */
  readonly calls: Set<string>;
  /** Its paid sends (`api.call(…)`, `via.api.submit(…)`), as text. */
  readonly sends: string[];
  /** Every call it makes, as written up to its arguments (`this.store.put`, `deps.watches.add`). */
  readonly callees: string[];
}

const isSend = (e: ts.CallExpression, src: ts.SourceFile): string | undefined => {
  if (!ts.isPropertyAccessExpression(e.expression)) return undefined;
  const method = e.expression.name.text;
  const recv = e.expression.expression;
  const recvName = ts.isIdentifier(recv) ? recv.text : ts.isPropertyAccessExpression(recv) ? recv.name.text : '';
  return (method === 'call' || method === 'submit') && recvName === 'api' ? e.getText(src).split('(')[0] : undefined;
};

function nameOf(n: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name && (ts.isIdentifier(n.name) || ts.isPrivateIdentifier(n.name))) return n.name.text;
  if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && (ts.isVariableDeclaration(n.parent) || ts.isPropertyDeclaration(n.parent) || ts.isPropertyAssignment(n.parent)) && ts.isIdentifier(n.parent.name)) return n.parent.name.text;
  return undefined;
}

/** A file's tree, parsed once for every check here (they read src/ three times), again only if its text changed. */
const trees = new Map<string, ts.SourceFile>();
function treeOf(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  const known = trees.get(file);
  if (known?.text === text) return known;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  trees.set(file, sf);
  return sf;
}

/** Every named function of the files under dir, with what it calls and sends. */
function functions(dir: string, base: string): Fn[] {
  const out: Fn[] = [];
  for (const file of tsFiles(dir)) {
    const src = treeOf(file);
    const rel = relative(base, file).replace(/\\/gu, '/');
    const walk = (n: ts.Node, fn: Fn | undefined): void => {
      const name = nameOf(n);
      let at = fn;
      if (name !== undefined) {
        at = { where: `${rel}#${name}`, name, calls: new Set(), sends: [], callees: [] };
        out.push(at);
      }
      if (ts.isCallExpression(n) && at) {
        const c = n.expression;
        if (ts.isIdentifier(c)) at.calls.add(c.text);
        else if (ts.isPropertyAccessExpression(c)) at.calls.add(c.name.text);
        at.callees.push(c.getText(src));
        const send = isSend(n, src);
        if (send) at.sends.push(send);
      }
      ts.forEachChild(n, (k) => walk(k, at));
    };
    walk(src, undefined);
  }
  return out;
}

/**
 * A function that holds the price gate: the window's price step (approvePrice, which asks the
 * person), or the unattended flow (core/calls/unattended.ts runUnattended: the approval's own
 * answer, the gate of core/money/quota.ts and the owner's priceCover, and where the window would
 * ask, a refusal).
 */
const isGate = (f: Fn): boolean => f.calls.has('approvePrice') || ['callRefusal', 'priceGate', 'priceCover'].every((n) => f.calls.has(n));

/**
 * The chains of callers from a paid send up to a function with no caller, that pass no function
 * asking approvePrice: each as "send ← caller ← …". Callers are found by name (conservative: a
 * name called anywhere counts as a caller).
 */
function escapes(fns: readonly Fn[]): string[] {
  const gate = isGate;
  const out: string[] = [];
  const up = (f: Fn, chain: string[], seen: Set<Fn>): void => {
    if (gate(f)) return;
    const callers = fns.filter((c) => c !== f && !seen.has(c) && c.calls.has(f.name));
    if (callers.length === 0) {
      out.push(chain.join(' ← '));
      return;
    }
    for (const c of callers) up(c, [...chain, c.where], new Set([...seen, c]));
  };
  for (const f of fns) if (f.sends.length) up(f, [`${f.where} (${f.sends.join(', ')})`], new Set([f]));
  return out.sort();
}

describe('paid paths: every send passes the price gate (and so the budgets)', () => {
  const root = repoRoot();
  /** Where a call can be sent from: the window, the command-line runner, and the one send every host shares (core/calls). */
  const fns = ['src/vscode', 'src/runner', 'src/core/calls'].flatMap((d) => functions(join(root, d), root));

  it('finds the paid sends where they are: a queued submit, a direct call, a page of a paged read', () => {
    const sends = fns.filter((f) => f.sends.length).map((f) => `${f.where}: ${f.sends.join(', ')}`).sort();
    assert.deepEqual(sends, [
      'src/core/calls/send.ts#sendCall: host.api.submit, host.api.call',
      'src/core/calls/unattended.ts#call: host.api.call',
      'src/vscode/calls/pages.ts#call: api.call',
    ]);
  });

  it('every chain of callers above a send asks approvePrice: the palette, query files, re-runs, pipeline cells (CallService.run) and Resume Reading Pages', () => {
    assert.deepEqual(escapes(fns), []);
    const gated = fns.filter(isGate).map((f) => f.where).sort();
    assert.deepEqual(gated, ['src/core/calls/unattended.ts#runUnattended', 'src/vscode/calls/callService.ts#run', 'src/vscode/calls/pages.ts#resumeFile']);
  });

  it('approvals are issued in seven places only: a pipeline’s plan and a watch’s price per run (each from the person’s own approval), the runner’s --max-credits over its printed plan or its one call’s printed price, an AI agent’s call in VS Code or through the MCP server, and an AI agent’s pipeline run in VS Code (within the allowance the person set, else asked)', () => {
    const issuers = fns.filter((f) => ['planApprovals', 'watchRunApproval', 'watchCellApprovals', 'agentApproval'].some((n) => f.calls.has(n))).map((f) => f.where).sort();
    assert.deepEqual(issuers, ['src/runner/callCommand.ts#oneCall', 'src/runner/mcpPaid.ts#paidCall', 'src/runner/runCommand.ts#runWith', 'src/vscode/agents/paidTool.ts#invoke', 'src/vscode/agents/pipelineTool.ts#runPlanned', 'src/vscode/pipeline/pipelineNotebook.ts#execute', 'src/vscode/watch/targets.ts#runWatch']);
    // VS Code's pipeline tool issues the plan's approvals only in runPlanned, which only invoke calls, after the allowance's hold from a chat or the person's own answer in the price step; its steps go through the notebook's callCell (CallService.run), and it never sends on its own.
    const vsPipe = readFileSync(join(root, 'src/vscode/agents/pipelineTool.ts'), 'utf8');
    assert.deepEqual(fns.filter((f) => f.calls.has('runPlanned')).map((f) => f.where), ['src/vscode/agents/pipelineTool.ts#invoke']);
    const invoke = fns.find((f) => f.where === 'src/vscode/agents/pipelineTool.ts#invoke');
    assert.ok(invoke?.callees.includes('deps.allowance.hold') && invoke.callees.includes('deps.questions.ask'), 'the allowance or the person');
    assert.ok(vsPipe.indexOf('fromChat && p.covered') < vsPipe.indexOf('deps.allowance.hold(') && vsPipe.indexOf('deps.questions.ask(') < vsPipe.indexOf('if (!ok) return') && vsPipe.indexOf('if (!ok) return') < vsPipe.indexOf('planApprovals(p.plan'), 'the allowance only from a chat; a refusal returns before any approval is issued');
    assert.ok(fns.find((f) => f.where === 'src/vscode/agents/pipelineTool.ts#call')?.calls.has('callCell'), 'each step through the one call flow');
    assert.deepEqual(fns.filter((f) => f.where.startsWith('src/vscode/agents/pipelineTool.ts') && f.sends.length > 0), []);
    // `wallet-analytics call` (what Copy as Code hands over to) issues its one approval only after the price is bounded and within --max-credits.
    const oneCall = readFileSync(join(root, 'src/runner/callCommand.ts'), 'utf8');
    assert.ok(oneCall.indexOf('!line.bounded') < oneCall.indexOf('planApprovals(plan.lines') && oneCall.indexOf('plan.total > cmd.maxCredits') < oneCall.indexOf('planApprovals(plan.lines'), 'the price is checked against --max-credits before the approval is issued');
    // An agent's approval is handed to the call flow, which prices it and asks past the allowance.
    assert.ok(fns.find((f) => f.where === 'src/vscode/agents/paidTool.ts#invoke')?.callees.includes('deps.calls.run'), 'an agent’s call goes through CallService.run');
    // The MCP server's goes to the headless host's one call (core/calls/unattended.ts runUnattended, the gate), after the allowance's hold or the person's answer.
    const mcp = fns.find((f) => f.where === 'src/runner/mcpPaid.ts#paidCall');
    assert.ok(mcp?.callees.includes('deps.host.callOnce'), 'an MCP agent’s call goes through the runner host');
    assert.deepEqual(mcp?.sends, [], 'the MCP server never sends on its own');
    assert.ok(fns.find((f) => f.where === 'src/runner/host.ts#callOnce')?.calls.has('runUnattended'), 'the runner host’s call is the unattended flow');
    // The MCP server's pipeline tool issues none itself: it runs the file through runWith (the runner's `run`), whose gate it answers (the allowance held, or the person asked) before runWith issues the plan's approvals.
    const pipe = fns.find((f) => f.where === 'src/runner/mcpPipeline.ts#runPipelineTool');
    assert.ok(pipe?.calls.has('runWith'), 'an MCP agent’s pipeline run goes through the runner’s runWith');
    assert.deepEqual(pipe?.sends, [], 'the pipeline tool never sends on its own');
    // The runner issues them only after the plan's total is within --max-credits, or its gate said yes (the refusal returns before).
    const runWith = readFileSync(join(root, 'src/runner/runCommand.ts'), 'utf8');
    assert.ok(runWith.indexOf('plan.total > cmd.maxCredits') < runWith.indexOf('planApprovals(plan.lines'), 'the total is checked against --max-credits before any approval is issued');
    assert.ok(runWith.indexOf('await o.gate(plan)') < runWith.indexOf('planApprovals(plan.lines'), 'a gate (the MCP pipeline tool’s) answers before any approval is issued');
    // The plan is approved by the person before its approvals are issued.
    assert.ok(fns.find((f) => f.where === 'src/vscode/pipeline/pipelineNotebook.ts#execute')?.calls.has('ask'));
    // A watch's run passes the stored approval to the call flow (CallService.run), which prices it and holds it under the budgets and the ceiling.
    const runWatch = fns.find((f) => f.where === 'src/vscode/watch/targets.ts#runWatch');
    assert.ok(runWatch?.callees.includes('deps.calls.run'), 'a watch run goes through CallService.run');
    assert.deepEqual(runWatch?.sends, [], 'a watch never sends on its own');
  });

  it('every spend that passes an approval (CallService.run with a third argument) is listed: a new one fails here until it takes its approval from the owner', () => {
    const all = functions(join(root, 'src'), root);
    const withApproval: string[] = [];
    for (const file of tsFiles(join(root, 'src'))) {
      const src = treeOf(file);
      const visit = (n: ts.Node): void => {
        if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'run' && /\bcalls$/u.test(n.expression.expression.getText(src)) && n.arguments.length >= 3) {
          withApproval.push(`${relative(root, file).replace(/\\/gu, '/')}: ${n.arguments[2]?.getText(src) ?? ''}`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
    }
    assert.deepEqual(withApproval.sort(), [
      'src/vscode/agents/paidTool.ts: approval',
      'src/vscode/pipeline/pipelineNotebook.ts: approval',
      'src/vscode/watch/targets.ts: approval',
      'src/vscode/watch/targets.ts: approval',
    ]);
    // Each of those approvals comes from the owner: the watch's from watchRunApproval, a cell's from the plan's (planApprovals, watchCellApprovals).
    assert.ok(all.find((f) => f.where === 'src/vscode/watch/targets.ts#runWatch')?.calls.has('watchRunApproval'));
    assert.ok(all.find((f) => f.where === 'src/vscode/pipeline/pipelineNotebook.ts#execute')?.calls.has('planApprovals'));
  });

  it('no file of src/ but the owner decides approval: the decisions are asked of src/core/money/approval.ts, from the places that spend', () => {
    const OWNER = 'src/core/money/approval.ts';
    // The names of the six old deciders (and their flags): none may come back beside the owner.
    const gone = /\b(?:preapproved|overLine|withinLine|approvalsOf|standingApproval|isLineApproval|LineApproval)\b/u;
    const deciders = ['priceCover', 'callRefusal', 'cellRefusal', 'overApproved', 'watchRunApproval', 'watchCellApprovals', 'planApprovals', 'isApproval', 'agentApproval'];
    const users = new Map<string, string[]>();
    for (const file of tsFiles(join(root, 'src'))) {
      const rel = relative(root, file).replace(/\\/gu, '/');
      if (rel === OWNER) continue;
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, gone, `${rel} decides approval itself`);
      const src = treeOf(file, text);
      for (const st of src.statements) {
        if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.endsWith('money/approval')) continue;
        const named = st.importClause?.namedBindings;
        if (named && ts.isNamedImports(named)) for (const e of named.elements) if (deciders.includes(e.name.text)) users.set(e.name.text, [...(users.get(e.name.text) ?? []), rel].sort());
      }
    }
    assert.deepEqual(Object.fromEntries([...users].sort(([a], [b]) => a.localeCompare(b))), {
      agentApproval: ['src/runner/mcpPaid.ts', 'src/vscode/agents/paidTool.ts'],
      callRefusal: ['src/core/calls/unattended.ts', 'src/vscode/calls/callService.ts'],
      cellRefusal: ['src/core/pipeline/run.ts'],
      isApproval: ['src/vscode/watch/targets.ts'],
      overApproved: ['src/core/watch/runner.ts'],
      planApprovals: ['src/runner/callCommand.ts', 'src/runner/runCommand.ts', 'src/vscode/agents/pipelineTool.ts', 'src/vscode/pipeline/pipelineNotebook.ts'],
      priceCover: ['src/core/calls/unattended.ts', 'src/vscode/calls/priceStep.ts'],
      watchCellApprovals: ['src/vscode/watch/targets.ts'],
      watchRunApproval: ['src/vscode/watch/targets.ts'],
    });
  });

  it('a watch (and so its approval) is stored only by Watch This… or Approve the New Price…, after the person approved its price per run', () => {
    const puts = fns.filter((f) => f.where.startsWith('src/vscode/watch/') && f.callees.some((c) => /\bstore\.(put|update)$/u.test(c))).map((f) => f.where).sort();
    assert.deepEqual(puts, ['src/vscode/watch/watchService.ts#add', 'src/vscode/watch/watchService.ts#setApproval', 'src/vscode/watch/watchService.ts#setPaused']);
    const adders = fns.filter((f) => f.callees.some((c) => /\bwatches\.add$/u.test(c))).map((f) => f.where);
    assert.deepEqual(adders, ['src/vscode/watch/watchCommands.ts#watchThis']);
    const approvers = fns.filter((f) => f.callees.some((c) => /\bwatches\.setApproval$/u.test(c))).map((f) => f.where);
    assert.deepEqual(approvers, ['src/vscode/watch/watchCommands.ts#approveAgain']);
    for (const where of [...adders, ...approvers]) assert.ok(fns.find((f) => f.where === where)?.calls.has('askRunApproval'), `${where} asks the person`);
    assert.ok(fns.find((f) => f.where === 'src/vscode/watch/watchCommands.ts#askRunApproval')?.calls.has('ask'), 'the approval is the person’s answer');
  });

  it('the check itself finds a send whose caller skips the price', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'wa-paid-paths-'));
    try {
      mkdirSync(join(tmp, 'v'), { recursive: true });
      writeFileSync(join(tmp, 'v', 'a.ts'), [
        'export async function gated(via) { await approvePrice(); return send(via); }',
        'async function send(via) { return via.api.call("x", {}); }',
        'export const shortcut = async (api) => api.submit("y", {});',
        'export function sneaky(via) { return send(via); }',
        'export function notASend(f) { return f.call(null); }',
      ].join('\n'));
      assert.deepEqual(escapes(functions(join(tmp, 'v'), tmp)), ['v/a.ts#send (via.api.call) ← v/a.ts#sneaky', 'v/a.ts#shortcut (api.submit)']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
