import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import type { Webhook, WebhookDelivery } from './webhook.js';
import { parseDeliveryJson, parseWebhookJson } from './webhook-schema.js';
import { PURGE_SLICE } from '../jobs/job-events.js';
import type { WebhookStore } from './webhook-store.js';

const SCHEMA = `
  CREATE TABLE webhooks (
    project_id TEXT NOT NULL,
    id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
  );
  CREATE TABLE webhook_deliveries (
    delivery_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_newest_first ON webhook_deliveries (project_id, updated_at DESC);
`;

/** Retention deletes old deliveries of every project by time. */
const INDEXES = `
  CREATE INDEX IF NOT EXISTS webhook_deliveries_by_time ON webhook_deliveries (updated_at);
`;

const parsed = <T>(parse: (raw: string) => T | undefined) => (row: unknown): T | undefined => {
  const body = bodyOf(row);
  return body === undefined ? undefined : parse(body);
};
const webhookOf = parsed(parseWebhookJson);
const deliveryOf = parsed(parseDeliveryJson);

/** The embedded default: `webhooks.db` under the data directory (it holds signing secrets: mode 0600, like every store). */
export class SqliteWebhookStore implements WebhookStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    // Full durability: an operator was told the webhook is registered.
    this.db = openDatabase(file, { durability: 'full', schema: SCHEMA, indexes: INDEXES });
  }

  static inDataDir(dataDir: string): SqliteWebhookStore {
    return new SqliteWebhookStore(path.join(dataDir, 'webhooks.db'));
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  async put(hook: Webhook): Promise<Webhook> {
    return writeTransaction(this.db, () => {
      // Re-adding keeps the first creation time, so listings stay in registration order.
      const kept = webhookOf(this.sql('SELECT body FROM webhooks WHERE project_id = ? AND id = ?').get(hook.projectId, hook.id));
      const stored = { ...hook, createdAt: kept?.createdAt ?? hook.createdAt };
      this.sql('INSERT OR REPLACE INTO webhooks (project_id, id, created_at, body) VALUES (?, ?, ?, ?)').run(
        stored.projectId,
        stored.id,
        stored.createdAt,
        JSON.stringify(stored),
      );
      return stored;
    });
  }

  async get(projectId: string, id: string): Promise<Webhook | undefined> {
    return webhookOf(this.sql('SELECT body FROM webhooks WHERE project_id = ? AND id = ?').get(projectId, id));
  }

  async list(projectId?: string): Promise<Webhook[]> {
    const rows = this.sql('SELECT body FROM webhooks WHERE (? IS NULL OR project_id = ?) ORDER BY created_at, id').all(projectId ?? null, projectId ?? null);
    return rows.map(webhookOf).filter((h): h is Webhook => h !== undefined);
  }

  async remove(projectId: string, id: string): Promise<boolean> {
    return writeTransaction(this.db, () => this.sql('DELETE FROM webhooks WHERE project_id = ? AND id = ?').run(projectId, id).changes > 0);
  }

  async recordDelivery(delivery: WebhookDelivery): Promise<void> {
    await writeTransaction(this.db, () =>
      this.sql('INSERT OR REPLACE INTO webhook_deliveries (delivery_id, project_id, updated_at, body) VALUES (?, ?, ?, ?)').run(
        delivery.deliveryId,
        delivery.projectId,
        delivery.updatedAt,
        JSON.stringify(delivery),
      ),
    );
  }

  async deliveries(projectId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = this.sql('SELECT body FROM webhook_deliveries WHERE project_id = ? ORDER BY updated_at DESC, delivery_id DESC LIMIT ?').all(projectId, limit);
    return rows.map(deliveryOf).filter((d): d is WebhookDelivery => d !== undefined);
  }

  async purgeDeliveries(before: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const { changes } = await writeTransaction(this.db, () =>
        this.sql(
          `DELETE FROM webhook_deliveries WHERE delivery_id IN (SELECT delivery_id FROM webhook_deliveries WHERE updated_at < ? LIMIT ${PURGE_SLICE})`,
        ).run(before),
      );
      removed += changes;
      if (changes < PURGE_SLICE) return removed;
      // The event loop serves requests between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
