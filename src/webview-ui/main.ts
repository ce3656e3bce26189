// Webview front end entry. The table grid lands with the results-table issue.
export {};
