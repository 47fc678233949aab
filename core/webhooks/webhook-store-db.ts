import { json, type Database } from '../db/index.js';
import type { WebhooksTable } from '../db/schema.js';
import { PURGE_SLICE } from '../jobs/job-events.js';
import type { Webhook, WebhookDelivery } from './webhook.js';
import { parseDeliveryJson, parseWebhookEvents } from './webhook-schema.js';
import type { WebhookStore } from './webhook-store.js';

function webhookOf(row: WebhooksTable): Webhook | undefined {
  const events = parseWebhookEvents(row.events_json);
  if (!events) return undefined;
  const secret: Webhook['secret'] = row.secret_kind === 'env' ? { kind: 'env', name: row.secret_value } : { kind: 'stored', value: row.secret_value };
  return { id: row.id, projectId: row.project_id, url: row.url, events, secret, createdAt: row.created_at };
}

const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

/**
 * Webhooks and their delivery log in the database. The signing secret of a `stored` webhook is a
 * column of its row: the database is as private as the data directory it replaces.
 */
export function createWebhookStore(database: Database): WebhookStore {
  const db = database.queries;
  return {
    async put(hook) {
      return database.transaction(async (trx) => {
        // Re-adding keeps the first creation time, so listings stay in registration order.
        const kept = await trx.selectFrom('webhooks').select('created_at').where('project_id', '=', hook.projectId).where('id', '=', hook.id).executeTakeFirst();
        const stored: Webhook = { ...hook, createdAt: kept?.created_at ?? hook.createdAt };
        const secret = stored.secret.kind === 'stored' ? { secret_kind: 'stored', secret_value: stored.secret.value } : { secret_kind: 'env', secret_value: stored.secret.name };
        const row = { url: stored.url, events_json: json(stored.events), ...secret };
        await trx
          .insertInto('webhooks')
          .values({ project_id: stored.projectId, id: stored.id, created_at: stored.createdAt, ...row })
          .onConflict((oc) => oc.columns(['project_id', 'id']).doUpdateSet(row))
          .execute();
        return stored;
      });
    },

    async get(projectId, id) {
      const row = await db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
      return row ? webhookOf(row) : undefined;
    },

    async list(projectId) {
      let query = db.selectFrom('webhooks').selectAll().orderBy('created_at').orderBy('id');
      if (projectId !== undefined) query = query.where('project_id', '=', projectId);
      return (await query.execute()).map(webhookOf).filter(isDefined);
    },

    async remove(projectId, id) {
      const result = await db.deleteFrom('webhooks').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async recordDelivery(delivery: WebhookDelivery) {
      // One row holds the delivery and its outcome: each attempt replaces it in one statement, and
      // only while its webhook is there: an attempt that ends after its webhook (or its project) was
      // deleted leaves no row behind. The webhook is held until the statement ends (a share lock on
      // PostgreSQL; SQLite writes one at a time), so a delete meanwhile waits, then finds the row.
      const row = { status: delivery.status, updated_at: delivery.updatedAt, delivery_json: json(delivery) };
      await db
        .insertInto('webhook_deliveries')
        .columns(['delivery_id', 'project_id', 'webhook_id', 'status', 'updated_at', 'delivery_json'])
        .expression((eb) => {
          const hook = eb
            .selectFrom('webhooks')
            .select((s) => [s.val(delivery.deliveryId).as('delivery_id'), 'project_id', 'id', s.val(row.status).as('status'), s.val(row.updated_at).as('updated_at'), s.val(row.delivery_json).as('delivery_json')])
            .where('project_id', '=', delivery.projectId)
            .where('id', '=', delivery.webhookId);
          return database.dialect === 'postgres' ? hook.forShare() : hook;
        })
        .onConflict((oc) => oc.column('delivery_id').doUpdateSet(row))
        .execute();
    },

    async deliveries(projectId, limit) {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select('delivery_json')
        .where('project_id', '=', projectId)
        .orderBy('updated_at', 'desc')
        .orderBy('delivery_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => parseDeliveryJson(r.delivery_json)).filter(isDefined);
    },

    async delivery(projectId, deliveryId) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('delivery_json')
        .where('project_id', '=', projectId)
        .where('delivery_id', '=', deliveryId)
        .executeTakeFirst();
      return row ? parseDeliveryJson(row.delivery_json) : undefined;
    },

    async purgeDeliveries(before) {
      let removed = 0;
      for (;;) {
        const result = await db
          .deleteFrom('webhook_deliveries')
          .where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('delivery_id').where('updated_at', '<', before).limit(PURGE_SLICE))
          .executeTakeFirst();
        const changes = Number(result.numDeletedRows);
        removed += changes;
        if (changes < PURGE_SLICE) return removed;
        // The event loop serves requests between slices.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
