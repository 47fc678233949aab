import { randomBytes } from 'node:crypto';

const JOB_ID = /^job_[a-z0-9]{20}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An opaque, unguessable job id (`job_` and 20 base-36 characters, ~103 bits). */
export function newJobId(): string {
  const bytes = randomBytes(20);
  let id = '';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return `job_${id}`;
}

export function isJobId(value: string): boolean {
  return JOB_ID.test(value);
}

