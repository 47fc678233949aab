import type { QuireMigration } from './migration.js';

/**
 * The variable holding a domain's push-hook secret (`POST /v2/hooks/domains/{id}/push`): its name
 * only, never the secret, as a webhook's `secretEnv` and a project's `forgeTokenEnv` are kept.
 * Null: the domain takes no pushes.
 */
export const domainPushSecret: QuireMigration = {
  name: '014-domain-push-secret',
  async up(db) {
    await db.schema.alterTable('domains').addColumn('push_secret_env', 'text').execute();
  },
};
