import { createHash, randomBytes } from 'node:crypto';

const JOB_ID = /^job_[a-z0-9]{20}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function idOf(bytes: Uint8Array): string {
  let id = '';
  for (let i = 0; i < 20; i++) id += ALPHABET[bytes[i]! % ALPHABET.length];
  return `job_${id}`;
}

/** An opaque, unguessable job id (`job_` and 20 base-36 characters, ~103 bits). */
export function newJobId(): string {
  return idOf(randomBytes(20));
}

/** The job id a client's Idempotency-Key names in a project: the same for every retry of the create. */
export function jobIdForKey(projectId: string, key: string): string {
  return idOf(createHash('sha256').update(`${projectId}\u0000${key}`).digest());
}

export function isJobId(value: string): boolean {
  return JOB_ID.test(value);
}

