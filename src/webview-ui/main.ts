// The results-table webview: wires the page to the host (ready handshake first, then messages).
import type { UiMessage } from '../shared/tableUiProtocol';
import { L10N_META, useBundle } from '../shared/l10n';
import { App } from './app';
import { Host } from './host';

// The translation bundle the host put in the page (none in English): before anything is drawn.
try {
  useBundle(JSON.parse(document.querySelector(`meta[name="${L10N_META}"]`)?.getAttribute('content') ?? '{}') as Record<string, string>);
} catch {
  // A page without a readable bundle is shown in English.
}
const host = new Host();
const root = document.getElementById('app') ?? document.body;
const app = new App(root, host);

window.addEventListener('message', (e: MessageEvent<UiMessage>) => {
  // Messages come from the extension host through VS Code only; anything without a type is not ours.
  if (typeof e.data === 'object' && e.data !== null && typeof e.data.type === 'string') app.receive(e.data);
});
window.addEventListener('error', (e) => host.post({ type: 'log', level: 'error', message: `${e.message} at ${e.filename}:${e.lineno}` }));
window.addEventListener('unhandledrejection', (e) => host.post({ type: 'log', level: 'error', message: `Unhandled: ${String(e.reason)}` }));
performance.mark('wa:ready');
host.post({ type: 'ready' });
