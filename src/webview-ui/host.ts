/**
 * The webview's side of the message protocol: posts requests with fresh ids and matches each reply
 * (window, queryApplied, done, failed, and the analysis panel's profile, histogram and scatter) to its request; progress with a request id goes to that
 * request's listener. One reply per id.
 */
import type { Progress } from '../shared/tableProtocol';
import { FIRST_WINDOW, type UiMessage, type UiRequest } from '../shared/tableUiProtocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const REPLY_TYPES = new Set(['window', 'queryApplied', 'done', 'failed', 'profile', 'histogram', 'scatter']);
export type Reply = Extract<UiMessage, { type: 'window' | 'queryApplied' | 'done' | 'failed' | 'profile' | 'histogram' | 'scatter' }>;

const isReply = (m: UiMessage): m is Reply => REPLY_TYPES.has(m.type);
type WithoutId<T> = T extends { requestId: number } ? Omit<T, 'requestId'> : never;
export type Ask = WithoutId<Extract<UiRequest, { requestId: number }>>;

export interface Pending {
  readonly id: number;
  readonly reply: Promise<Reply>;
}

export class Host {
  private readonly api: VsCodeApi = acquireVsCodeApi();
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; onProgress?: (p: Progress) => void }>();

  /** Posts a message that expects no reply. */
  post(m: UiRequest): void {
    this.api.postMessage(m);
  }

  /** Posts a request; its reply resolves `reply` (a `failed` reply resolves too: check its type). */
  ask(request: Ask, onProgress?: (p: Progress) => void): Pending {
    const id = this.next++;
    const reply = new Promise<Reply>((resolve) => this.waiting.set(id, { resolve, onProgress }));
    this.api.postMessage({ ...request, requestId: id });
    return { id, reply };
  }

  /** Asks the host to stop a request; its reply (failed, cancelled) still comes. */
  cancel(id: number): void {
    if (this.waiting.has(id)) this.api.postMessage({ type: 'cancel', requestId: id });
  }

  /** Routes a reply or a request's progress; false for messages that are not about a request. */
  route(m: UiMessage): boolean {
    if (m.type === 'progress' && m.requestId !== undefined) {
      this.waiting.get(m.requestId)?.onProgress?.(m.progress);
      return true;
    }
    if (m.type === 'window' && m.requestId === FIRST_WINDOW) return false; // unasked: for the app
    if (isReply(m) && m.requestId !== undefined) {
      const w = this.waiting.get(m.requestId);
      if (!w) return m.type !== 'failed';
      this.waiting.delete(m.requestId);
      w.resolve(m);
      return true;
    }
    return false;
  }

  getState<T>(): T | undefined {
    return this.api.getState() as T | undefined;
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }
}
