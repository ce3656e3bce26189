/**
 * The webview's side of the message protocol: posts requests with fresh ids and matches each reply
 * to its request; progress with a request id goes to that request's listener. One reply per id.
 * A request's reply is typed by the protocol's pairing (UiReplyTo): asking for a window gives a
 * `window` or `failed`, nothing else to narrow.
 */
import type { Progress } from '../shared/tableProtocol';
import { FIRST_WINDOW, UI_REPLY_TYPES, type UiAsk, type UiMessage, type UiReplyTo, type UiRequest } from '../shared/tableUiProtocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const REPLY_TYPES = new Set<string>([...Object.values(UI_REPLY_TYPES), 'failed']);
/** Any reply. */
export type Reply = UiReplyTo<UiAsk['type']>;

const isReply = (m: UiMessage): m is Reply => REPLY_TYPES.has(m.type);
type WithoutId<T> = T extends { requestId: number } ? Omit<T, 'requestId'> : never;
export type Ask = WithoutId<UiAsk>;

export interface Pending<R extends Reply = Reply> {
  readonly id: number;
  readonly reply: Promise<R>;
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
  ask<A extends Ask>(request: A, onProgress?: (p: Progress) => void): Pending<UiReplyTo<A['type']>> {
    const id = this.next++;
    const reply = new Promise<UiReplyTo<A['type']>>((resolve) => this.waiting.set(id, { resolve: (r) => resolve(r as UiReplyTo<A['type']>), onProgress }));
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
