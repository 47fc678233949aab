import * as v from 'valibot';
import { isOwnSetting } from '../config.js';

/**
 * The name of a variable holding a secret an organisation names (a webhook's signing secret, a
 * domain's push-hook secret): a name in capitals, never one of Quire's own settings. Whether it is
 * the organisation's own (QUIRE_ORG_SCOPED_VARIABLES) is checked where the organisation is known.
 */
export const secretVariableName = v.pipe(
  v.string(),
  v.regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as QUIRE_HOOK_SECRET'),
  v.check((name) => !isOwnSetting(name), "names one of Quire's own settings, never handed to a project or webhook"),
);
