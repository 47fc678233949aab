import { createHash } from 'node:crypto';
import { dayOf } from './page-views.js';
import type { PageViewInput } from './types.js';

/**
 * Counts visitors without keeping anything personal: a visitor is the hash of the day's salt,
 * the day, the address, the user agent and the domain. The salt is random, made by the server
 * and never shown; the next day's replaces it (the old one is deleted), so the same reader
 * gets a new hash every day and no stored hash can be traced back to an address.
 */
export class VisitorHasher {
  private current: { day: number; salt: Promise<string> } | undefined;

  /** `salt(day)` gives the day's salt (the store's, shared by every replica). */
  constructor(private readonly salt: (day: number) => Promise<string>) {}

  async hash(view: Pick<PageViewInput, 'domainId' | 'ip' | 'userAgent'>, at: number): Promise<string> {
    const day = dayOf(at);
    if (this.current?.day !== day) {
      const salt = this.salt(day);
      this.current = { day, salt };
      // A failed read is not kept: the next view asks again.
      salt.catch(() => {
        if (this.current?.salt === salt) this.current = undefined;
      });
    }
    const salt = await this.current.salt;
    return createHash('sha256').update([salt, String(day), view.ip, view.userAgent, view.domainId].join('\n')).digest('base64url').slice(0, 32);
  }
}
