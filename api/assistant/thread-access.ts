import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/logger.js';
import { newThreadKey, threadKeyMatches, type ThreadRef, type ThreadTranscript } from '../../core/threads/index.js';
import { notFound } from '../http-error.js';
import type { AnswerService } from './answer-service.js';

export interface ThreadAccess {
  ref: ThreadRef;
  /** The stored conversation when continuing; undefined for a new thread or when the store is out of reach. */
  transcript: ThreadTranscript | undefined;
  /** The new thread's key, shown once (creation only). */
  key: string | undefined;
  /** False when the store could not be read: the key was not checked, so nothing is written to the thread. */
  record: boolean;
}

export interface ThreadRequest {
  orgId: string;
  domainId: string;
  threadId?: string | null | undefined;
  threadKey?: string | null | undefined;
}

/**
 * Creates a thread (a new id and key) or opens the one the request names.
 * Opening needs the thread's key: a missing or wrong key, another domain's
 * thread or an unknown id are all the same 404. When the store cannot be read
 * (Redis down), the answer goes on from the client's own messages and the
 * thread is left untouched.
 */
export async function openThread(answers: Pick<AnswerService, 'loadThread'>, req: ThreadRequest, logger: Logger): Promise<ThreadAccess> {
  const { orgId, domainId } = req;
  if (!req.threadId) {
    const { key, hash } = newThreadKey();
    return { ref: { orgId, domainId, threadId: randomUUID(), keyHash: hash }, transcript: undefined, key, record: true };
  }
  const threadId = req.threadId;
  const unknown = () => notFound(`thread '${threadId}'`);
  if (!req.threadKey) throw unknown();
  let transcript: ThreadTranscript | undefined;
  try {
    transcript = await answers.loadThread(orgId, threadId);
  } catch (err) {
    logger.warn({ err: err instanceof Error ? err.message : String(err), threadId }, 'assistant thread not loaded');
    return { ref: { orgId, domainId, threadId }, transcript: undefined, key: undefined, record: false };
  }
  if (!transcript || transcript.domainId !== domainId || !threadKeyMatches(transcript.keyHash, req.threadKey)) throw unknown();
  return { ref: { orgId, domainId, threadId }, transcript, key: undefined, record: true };
}
