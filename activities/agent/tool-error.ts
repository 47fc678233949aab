/** A problem the model caused and can read and correct; never thrown out of the activity. */
export class ToolError extends Error {
  override name = 'ToolError';
}
