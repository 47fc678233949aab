import type { Config } from '../../core/config.js';
import { extractiveAnswerer, modelAnswerer, type Answerer } from '../assistant/index.js';

/** The assistant's answerer: the configured model, else the extractive mode. */
export function defaultAnswerer(config: Config): Answerer {
  return config.model ? modelAnswerer(config.model) : extractiveAnswerer();
}
