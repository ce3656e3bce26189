/**
 * `wallet-analytics call` and `wallet-analytics fetch`: one call, or the wait for a job already
 * submitted, with the editor's own code. Copy as Code hands a person this command line (its first
 * choice) instead of a client written again in Python or bash, so a call run from a script is priced,
 * sent once, reconciled after a lost answer and downloaded exactly as in the editor.
 *
 * Nothing here decides a price or sends: the call is a pipeline of one cell, priced by the plan's
 * owner (core/pipeline/plan.ts, as `run` prices its lines), approved by --max-credits through the one
 * owner of approval (core/money/approval.ts planApprovals), run by core/pipeline/run.ts and sent by
 * the headless host (src/runner/host.ts: core/calls/unattended.ts runUnattended, the one poller, the
 * result writer), exactly as `run` sends a pipeline's cell.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mayHaveBeenCharged, refusedBeforeSending, toldOutcome } from '../core/calls/outcome';
import { errorText } from '../core/errors';
import { planApprovals } from '../core/money/approval';
import { isPaid } from '../core/money/pricing';
import { fmtCredits, thousands } from '../core/numberText';
import type { PipelineFile } from '../core/pipeline/format';
import { planOnDisk, runPipeline, type LastAnswer } from '../core/pipeline/run';
import { ENDPOINTS, findEndpoint, validateInput } from '../core/spec/catalog';
import type { CallCommand } from './callArgs';
import { EXIT, type ExitCode } from './exitCodes';
import { RunnerHost, type Print } from './host';
import { BadInput, connectionOf, type RunEnv } from './runCommand';

/**
 * Inside --out, where the runner keeps what must outlive one call (the jobs it follows, the ledger,
 * the calls that may have been charged, the call's record): --out itself holds only results.
 */
const STATE_DIR = '.wallet-analytics';

/**
 * Whether `call` is a free read (the balance, the history, a job's record, the columns): its answer
 * is then what a script wants, so stdout carries that answer alone and the runner's own lines go to
 * stderr. Copy as Code's free reads run this line in every language instead of a request of their own.
 */
function freeRead(cmd: CallCommand): boolean {
  const ep = cmd.kind === 'call' ? findEndpoint(cmd.endpointId) : undefined;
  return ep !== undefined && !isPaid(ep);
}

/**
 * Runs `call` or `fetch`; prints as it goes, ends with one line saying what was charged; never throws.
 * A free read's lines go to `printErr` and its answer, as JSON, to `print`.
 */
export async function callCommand(cmd: CallCommand, env: RunEnv, print: Print, printErr: Print): Promise<ExitCode> {
  const free = freeRead(cmd);
  const lines = free ? printErr : print;
  // A free read with no --out keeps nothing: its answer is on stdout, and a schedule running it would pile up files.
  const scratch = free && cmd.kind === 'call' && !cmd.outGiven ? await mkdtemp(join(tmpdir(), 'wa-read-')) : undefined;
  try {
    if (cmd.kind === 'fetch') return await fetchJob(cmd, env, print);
    return await oneCall(scratch !== undefined ? { ...cmd, out: scratch } : cmd, env, lines, free ? print : undefined, scratch === undefined);
  } catch (e) {
    if (e instanceof BadInput) {
      printErr(e.message);
      return EXIT.badInput;
    }
    printErr(`Failed: ${errorText(e)}`);
    lines(cmd.kind === 'call' ? (free ? 'Failed. Nothing was charged (a free read).' : 'Failed before the call could say what it charged: see the request history (free).') : 'Failed. Nothing was charged (fetch only reads).');
    return EXIT.failed;
  } finally {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  }
}

/** Reads and checks the call before anything is sent: the endpoint, the JSON, the catalog's rules for each field. */
function checkedCall(cmd: Extract<CallCommand, { kind: 'call' }>): { ep: NonNullable<ReturnType<typeof findEndpoint>>; input: Record<string, unknown> } {
  const ep = findEndpoint(cmd.endpointId);
  if (!ep) throw new BadInput(`Unknown endpoint “${cmd.endpointId}”. The endpoints: ${ENDPOINTS.map((e) => e.id).join(', ')}. Nothing was sent.`);
  let raw: unknown;
  try {
    raw = JSON.parse(cmd.input);
  } catch (e) {
    throw new BadInput(`--input is not JSON (${errorText(e)}). Nothing was sent.`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new BadInput('--input must be one JSON object of the call’s inputs, e.g. {"hours": 1}. Nothing was sent.');
  const v = validateInput(ep, raw);
  if (!v.ok) throw new BadInput(`${ep.id}: ${toldOutcome({ status: 'invalid', errors: v.errors }, 'commandLine').message}`);
  return { ep, input: v.input };
}

/**
 * `answer`: given for a free read, it is handed the saved answer's JSON text once the call is done.
 * `kept`: whether the result file stays (else it is in a scratch folder removed after, and not named).
 */
async function oneCall(cmd: Extract<CallCommand, { kind: 'call' }>, env: RunEnv, print: Print, answer: Print | undefined, kept: boolean): Promise<ExitCode> {
  const { ep, input } = checkedCall(cmd);
  const { baseUrl, key } = connectionOf(cmd.baseUrl, env);
  const out = resolve(cmd.out);
  // The cell's name is how the plan and a refusal name the call: the endpoint's id.
  const cell = { name: ep.id, call: ep.id, inputs: input };
  const file: PipelineFile = { version: 1, cells: [cell] };
  const dir = join(out, STATE_DIR);
  const host = new RunnerHost({ baseUrl, key, resultsDir: dir, callsDir: out, maxCreditsPerCall: cmd.maxCredits, chargeAgain: cmd.chargeAgain, ackTimeoutMs: env.ackTimeoutMs, pollIntervalMs: env.pollIntervalMs, print });
  try {
    // A Wallet Database query is priced exactly only by its answer from this refresh period (the query files' rule).
    const lastAnswer: LastAnswer = (e, body) => host.queryRuns.lookup(host.scope, e.chain, body);
    // Always sent (refresh), unless an earlier call paid for this very job and stopped before its file: then it is adopted, free.
    const refresh = new Set([cell.name]);
    const plan = await planOnDisk(file, dir, refresh, lastAnswer, Date.now, [out]);
    const line = plan.lines[0];
    print(`${ep.id} (${ep.method} ${ep.path}) at ${baseUrl}`);
    print(`Price: ${line ? line.text : 'free'}`);
    if (line && !line.bounded) {
      print(refusedBeforeSending('Refused: the price has no bound before it runs.'));
      return EXIT.refused;
    }
    if (plan.total > cmd.maxCredits) {
      print(refusedBeforeSending(`Refused: the price (${plan.totalText}) is above --max-credits ${thousands(cmd.maxCredits)}.`));
      return EXIT.refused;
    }
    // --max-credits over the printed price is the person's approval, issued by its one owner; the call is `run`'s, for one cell.
    const approvals = planApprovals(plan.lines, [cell]);
    let refused = false;
    let saved: string | undefined;
    const summary = await runPipeline(file, {
      dir, roots: [out], plan, approvals, lastAnswer, refresh,
      call: async (c, e, i, approval) => {
        const r = await host.call(c, e, i, approval);
        if (r.status === 'stopped' && r.notSent) refused = true;
        return r;
      },
      adopt: (requestId) => host.adopt(requestId),
      read: { workerFile: env.workerFile },
      onEvent: (e) => {
        if (e.kind === 'done') saved = e.record.resultPath;
        if (e.kind === 'stopped') print(`✗ ${e.message}`);
      },
    });
    const charged = fmtCredits(summary.charged);
    if (host.mayBeCharged.length > 0) {
      print(`Stopped. Charged: ${charged} known, and ${mayHaveBeenCharged([ep.id])}`);
      return EXIT.mayBeCharged;
    }
    if (summary.stopped) {
      print(refused ? refusedBeforeSending('Refused.') : `Failed. Charged: ${charged}.`);
      return refused ? EXIT.refused : EXIT.failed;
    }
    if (saved !== undefined && kept) print(`Saved ${saved}`);
    // The file holds the answer as the core read it (JSON, the saved result): the same text a script parses.
    if (answer !== undefined && saved !== undefined) answer((await readFile(saved, 'utf8')).trimEnd());
    print(`Done. Charged: ${charged}.`);
    return EXIT.done;
  } finally {
    await host.close();
  }
}

async function fetchJob(cmd: Extract<CallCommand, { kind: 'fetch' }>, env: RunEnv, print: Print): Promise<ExitCode> {
  const { baseUrl, key } = connectionOf(cmd.baseUrl, env);
  if (cmd.endpointId !== undefined && findEndpoint(cmd.endpointId)?.family !== 'queued') {
    throw new BadInput(`--endpoint ${cmd.endpointId} is not a queued endpoint: only a queued job has a file to fetch.`);
  }
  const out = resolve(cmd.out);
  const host = new RunnerHost({ baseUrl, key, resultsDir: join(out, STATE_DIR), callsDir: out, maxCreditsPerCall: 0, chargeAgain: false, ackTimeoutMs: env.ackTimeoutMs, pollIntervalMs: env.pollIntervalMs, print });
  try {
    // The file is named after its endpoint: the one given, else the one the request record names (free to read).
    const endpointId = cmd.endpointId ?? (await host.api.request(cmd.requestId)).endpoint;
    if (endpointId === undefined || findEndpoint(endpointId)?.family !== 'queued') {
      throw new BadInput(`The service does not say which endpoint ${cmd.requestId} ran: give it with --endpoint ID (as Copy as Code writes it).`);
    }
    print(`Waiting for ${cmd.requestId} (${endpointId}) at ${baseUrl}; free: nothing is sent but GET /request/{requestId} and the download.`);
    const j = await host.followSubmitted(cmd.requestId, endpointId);
    if (j.state === 'done' && j.resultPath) {
      print(`Saved ${j.resultPath}`);
      print('Done. Charged: 0 credits (fetch only reads).');
      return EXIT.done;
    }
    print(`✗ The job ${cmd.requestId} ended ${j.state}: ${j.error ?? 'no reason given'}`);
    print('Failed. Charged: 0 credits (fetch only reads).');
    return EXIT.failed;
  } finally {
    await host.close();
  }
}
