import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { L10N_META } from '../../shared/l10n';

/** The folders a table webview may load from: the built bundle and the stylesheet, nothing else. */
export function tableResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** A fresh nonce per page, from crypto. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

const escapeAttr = (s: string): string => s.replace(/&/gu, '&amp;').replace(/"/gu, '&quot;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

/**
 * The page: a strict CSP (nothing by default; the script only by its nonce; the stylesheet only
 * from the extension's own folders; no images, fonts, frames or connections), one stylesheet, one script. Every cell is written later with
 * textContent by the script; the page itself holds no data. The page is one landmark (main, which
 * the menus open in too) with a heading that names the file, for screen readers (it is not drawn).
 */
export function tableHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, nonce = makeNonce()): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'table.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeAttr(vscode.env.language || 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="${L10N_META}" content="${escapeAttr(JSON.stringify(vscode.l10n.bundle ?? {}))}">
<link rel="stylesheet" href="${escapeAttr(style.toString())}">
<title>${escapeAttr(title)}</title>
</head>
<body>
<main>
<h1 class="sr-only">${escapeAttr(title)}</h1>
<div id="app" class="app"><div class="placeholder">Opening ${escapeAttr(title)}…</div></div>
</main>
<script nonce="${escapeAttr(nonce)}" src="${escapeAttr(script.toString())}"></script>
</body>
</html>`;
}
