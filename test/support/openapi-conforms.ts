import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { openApiDocument, type PathItems, type Schema } from '../../api/openapi/index.js';

const doc = openApiDocument('http://localhost');
const paths = doc.paths as PathItems;
const validator = new AjvJsonSchemaValidator();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** A response object, or the shared one its `$ref` names (`#/components/responses/…`). */
const resolved = (response: unknown): unknown =>
  isRecord(response) && typeof response.$ref === 'string' ? (doc.components as Record<string, Record<string, unknown>>).responses?.[response.$ref.split('/').pop() ?? ''] : response;

/**
 * Checks a real response against the document: its status is documented for
 * the operation, and a JSON body matches the documented schema (`$ref`s
 * resolve against the document's components). Responses without a body
 * (202, 204, 304) are checked for their status only.
 */
export async function conforms(template: string, method: string, res: Response): Promise<void> {
  const operation: Schema | undefined = paths[template]?.[method];
  assert.ok(operation, `${method} ${template} is documented`);
  const responses = operation.responses;
  const response = isRecord(responses) ? resolved(responses[String(res.status)]) : undefined;
  assert.ok(isRecord(response), `${method} ${template} documents ${res.status}`);
  const type = (res.headers.get('content-type') ?? '').split(';')[0] ?? '';
  const content = isRecord(response.content) ? response.content : {};
  if (res.status === 304 || res.status === 202 || res.status === 204) return;
  assert.ok(type in content, `${method} ${template} ${res.status} documents ${type}`);
  const media = content[type];
  if (type !== 'application/json' || !isRecord(media) || !isRecord(media.schema)) return;
  // The document's components ride along in the root schema, where `#/components/…` pointers resolve.
  const schema = Object.assign({ components: doc.components, $comment: `${method} ${template} ${res.status}` }, media.schema);
  const check = validator.getValidator(schema);
  const result = check(await res.json());
  assert.ok(result.valid, `${method} ${template} ${res.status}: ${result.errorMessage}`);
}
