import type Router from '@koa/router';
import type { Platform } from '../core/platform/index.js';
import type { AnswerService } from './assistant/answer-service.js';

/**
 * What every route of the API may use: the process's platform (its engines and stores, see
 * core/platform) and the one answer path of the assistant routes, MCP `ask` and the
 * OpenAI-compatible endpoint. Built once by the entry point (or a test).
 */
export interface ApiServices extends Omit<Platform, 'close'> {
  answers: AnswerService;
}

/** A feature of the API: a router built from the shared services. */
export type Feature = (services: ApiServices) => Router;
