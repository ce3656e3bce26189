// axe-core on every view of the table webview in four themes, one after another in one window (issue
// 26 item 7); see a11ySuite.ts. Light+ Modern and Dark Modern are the defaults, the two high
// contrast themes are what people who need contrast use.
import { axeSuite } from './a11ySuite';

axeSuite([
  { theme: 'Default Light Modern', short: 'light', bodyClass: 'vscode-light' },
  { theme: 'Default Dark Modern', short: 'dark', bodyClass: 'vscode-dark' },
  { theme: 'Default High Contrast', short: 'hc', bodyClass: 'vscode-high-contrast' },
  { theme: 'Default High Contrast Light', short: 'hc-light', bodyClass: 'vscode-high-contrast-light' },
]);
