// axe-core on every view of the table webview in Default High Contrast (issue 26 item 7); see a11ySuite.ts.
import { axeSuite } from './a11ySuite';

axeSuite('Default High Contrast', 'hc', 'vscode-high-contrast');
