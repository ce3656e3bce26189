// axe-core on every view of the table webview in Default Light Modern (issue 26 item 7); see a11ySuite.ts.
import { axeSuite } from './a11ySuite';

axeSuite('Default Light Modern', 'light', 'vscode-light');
