import { ConfigError, SCHEMA, type Config, type Setting } from './schema.js';

/**
 * Reads every setting from the environment (falling back to config/defaults.json) and validates it.
 * A bad value throws ConfigError naming the variable and what is allowed; the CLI prints it and exits non-zero.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(SCHEMA) as [string, Setting<unknown>][]) {
    if (key in overrides) {
      out[key] = (overrides as Record<string, unknown>)[key];
      continue;
    }
    const raw = env[entry.env];
    if (raw === undefined || raw === '') {
      out[key] = entry.default;
      continue;
    }
    try {
      out[key] = entry.parse(raw);
    } catch (err) {
      throw new ConfigError(entry.env, (err as Error).message);
    }
  }
  return out as Config;
}

export { ConfigError };
export type { Config };
