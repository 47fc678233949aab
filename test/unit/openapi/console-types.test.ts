import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_TYPES_PATH, openApiTypes } from '../../../infra/openapi-types.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

describe("the console's generated API types", () => {
  // A schema changed without `npm run openapi:types` would leave the console typed against the API as it was.
  it('are what `npm run openapi:types` generates from the document the API serves now', async () => {
    const checkedIn = await fs.readFile(path.join(REPO_ROOT, OPENAPI_TYPES_PATH), 'utf8');
    assert.ok(checkedIn === (await openApiTypes()), `${OPENAPI_TYPES_PATH} is out of date: run npm run openapi:types and commit it`);
  });
});
