/** What stands in an answer for a path of the server's disk. */
export const SERVER_PATH = '[server path]';

/**
 * A `file://` URL, or an absolute path where a word starts (after a space, a quote, a bracket or
 * `=`): never the path of a web URL (`https://host/a`), whose slash follows its host.
 */
const SERVER_PATH_PATTERN = /file:\/\/[^\s'"`<>)\]]*|(?<=^|[\s'"`(<[=])\/(?=[^\s/'"`])[^\s'"`<>)\]]*/gi;

/**
 * Text with every absolute path of the server (a checkout, the data directory, a folder source)
 * replaced by `[server path]`: a message written on the worker may name them, an answer never does.
 */
export function withoutServerPaths(text: string): string {
  return text.replace(SERVER_PATH_PATTERN, SERVER_PATH);
}
