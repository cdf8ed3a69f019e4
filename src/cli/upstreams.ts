import type { Config } from '../config/schema.js';
import { originOf } from '../config/origin.js';

/** The upstreams this gateway forwards to, by route family, as origins (printed at start; no credentials). */
export function upstreamOrigins(config: Config): Record<string, string> {
  return {
    openai: originOf(config.upstreamBaseUrl),
    anthropic: originOf(config.anthropicUpstreamBaseUrl),
    ...(config.azureBaseUrl ? { azure_embeddings: originOf(config.azureBaseUrl) } : {}),
    ...(config.evolutionLlmBaseUrl ? { evolution_analyser: originOf(config.evolutionLlmBaseUrl) } : {}),
  };
}
