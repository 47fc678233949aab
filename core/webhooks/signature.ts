import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Quire-Signature';
export const DELIVERY_HEADER = 'X-Quire-Delivery';
export const EVENT_HEADER = 'X-Quire-Event';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`: the timestamp lets a receiver refuse replays. */
export function signWebhookBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
