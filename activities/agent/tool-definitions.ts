import type { ChatTool } from '../../core/model/index.js';

function tool(name: string, description: string, properties: Record<string, object>, required: string[]): ChatTool {
  return {
    type: 'function',
    function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
  };
}

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', minimum: 1, description });

/** The tools the model may call; every path is relative to the docs root. */
export const AGENT_TOOLS: ChatTool[] = [
  tool('list_files', 'List files under a folder of the docs (recursive).', { path: str('Folder; empty for the docs root.') }, []),
  tool(
    'read_file',
    'Read a text file, optionally a range of lines (1-based, inclusive). Lines are prefixed with their numbers.',
    { path: str('File path.'), start_line: int('First line.'), end_line: int('Last line.') },
    ['path'],
  ),
  tool(
    'search_text',
    'Search Markdown, MDX and JSON files for a literal text (case-insensitive); returns path:line: text.',
    { query: str('Text to find.'), path: str('Folder to search; empty for the docs root.') },
    ['query'],
  ),
  tool('write_file', 'Create or overwrite a file with the full content.', { path: str('File path.'), content: str('Full content.') }, [
    'path',
    'content',
  ]),
  tool(
    'replace_text',
    'Replace an exact text in a file. old_text must occur exactly once; include surrounding lines to make it unique.',
    { path: str('File path.'), old_text: str('Exact text to replace.'), new_text: str('Replacement.') },
    ['path', 'old_text', 'new_text'],
  ),
  tool('delete_file', 'Delete a file.', { path: str('File path.') }, ['path']),
  tool('move_file', 'Move or rename a file. The destination must not exist.', { from: str('Current path.'), to: str('New path.') }, [
    'from',
    'to',
  ]),
  tool('validate', 'Check changed pages: Markdown/MDX syntax, frontmatter, internal links and navigation entries.', {}, []),
  tool(
    'finish',
    'End the turn when the change is complete. The title and summary become the pull request.',
    { title: str('Short pull-request title.'), summary: str('What changed and why, for the reviewer.') },
    ['title', 'summary'],
  ),
];
