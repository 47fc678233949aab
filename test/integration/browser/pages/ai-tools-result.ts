/** What the page found, read by the test from `window.RESULT`. */
export interface AiToolsResult {
  completion?: string;
  streamed?: string;
  mcpTools?: string[];
  mcpSearch?: string;
  llmsStatus?: number;
  llmsEtag?: string | null;
  llmsRevalidated?: number;
  error?: string;
}
