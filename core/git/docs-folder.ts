import fs from 'node:fs/promises';
import path from 'node:path';

/** A docs folder that is not inside its repository: `..` in the path, or a link in the repository leading out. */
export class DocsFolderOutsideError extends Error {
  override name = 'DocsFolderOutsideError';
}

/** A docs folder as a project or domain gives it: relative to the repository, without `..` (a leading or trailing `/` is dropped). */
export function docsPathProblem(docsPath: string): string | undefined {
  return docsPath.split('/').includes('..') ? "must stay inside the repository: a folder path without '..'" : undefined;
}

/**
 * The docs folder `docsPath` of the checkout at `root`, once it is known to lie inside it: the
 * worker reads (and the agent writes) there, so a path climbing out, or a link in the repository
 * leading out (`docs -> /etc`), would hand it the machine's files. A folder that does not exist is
 * returned as it is (reading it fails as missing).
 */
export async function docsFolderIn(root: string, docsPath: string): Promise<string> {
  const relative = docsPath.replace(/^\/+|\/+$/g, '');
  const problem = docsPathProblem(relative);
  if (problem) throw new DocsFolderOutsideError(`docs folder '${docsPath}' ${problem}`);
  const folder = path.join(root, relative);
  const [realRoot, realFolder] = await Promise.all([fs.realpath(root), fs.realpath(folder).catch(() => undefined)]);
  if (realFolder !== undefined && realFolder !== realRoot && !realFolder.startsWith(realRoot + path.sep))
    throw new DocsFolderOutsideError(`docs folder '${docsPath}' leads outside the repository (through a link); give a folder of the repository itself`);
  return folder;
}
