/**
 * The notebook renderer of a pipeline cell's result (package.json contributes.notebookRenderer,
 * mime CELL_RESULT_MIME): an ES module VS Code loads into the notebook's output webview and calls
 * `activate` on. It validates the output item before showing it (a malformed one shows as a line of
 * text, never as markup), and routes the host's page replies to the view that asked, by request id.
 */
import { parseCellResult, parseCellResultReply, type CellResultRequest } from '../../shared/cellResultProtocol';
import { CellResultView, type PageChannel } from './view';
import { l10n } from '../../shared/l10n';

/** What VS Code hands a renderer (the part used here; the API is vscode-notebook-renderer's). */
interface RendererContext {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): { dispose(): void };
}
interface OutputItem {
  readonly id: string;
  readonly mime: string;
  json(): unknown;
}

export function activate(context: RendererContext): { renderOutputItem(item: OutputItem, element: HTMLElement): void; disposeOutputItem(id?: string): void } {
  const views = new Map<string, CellResultView>();
  const waiting = new Map<number, CellResultView>();
  let nextId = 1;
  const post = context.postMessage?.bind(context);
  const channel: PageChannel | undefined = post
    ? {
        request(view, make): void {
          const requestId = nextId++;
          waiting.set(requestId, view);
          post(make(requestId));
        },
        post(message: CellResultRequest): void {
          post(message);
        },
      }
    : undefined;
  context.onDidReceiveMessage?.((raw) => {
    const id = typeof raw === 'object' && raw !== null && 'requestId' in raw ? (raw as { requestId: unknown }).requestId : undefined;
    const view = typeof id === 'number' ? waiting.get(id) : undefined;
    if (!view || typeof id !== 'number') return;
    waiting.delete(id);
    const reply = parseCellResultReply(raw, view.width);
    if (reply) view.onReply(reply);
  });

  return {
    renderOutputItem(item, element): void {
      views.get(item.id)?.dispose();
      let json: unknown;
      try {
        json = item.json();
      } catch {
        json = undefined;
      }
      const result = parseCellResult(json);
      if (!result) {
        const p = document.createElement('p');
        p.textContent = l10n.t('This cell result cannot be shown (its output is not one this version writes). Run the cell again.');
        element.replaceChildren(p);
        return;
      }
      views.set(item.id, new CellResultView(element, result, channel));
    },
    disposeOutputItem(id): void {
      const gone = id === undefined ? [...views.keys()] : [id];
      for (const k of gone) {
        const v = views.get(k);
        views.delete(k);
        if (!v) continue;
        for (const [rid, w] of waiting) if (w === v) waiting.delete(rid);
        v.dispose();
      }
    },
  };
}
