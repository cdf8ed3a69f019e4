import { SCHEMA } from '../config/schema.js';

function show(value: unknown): string {
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return value.length ? value.join(',') : '(unset)';
  return String(value);
}

/** The configuration table of docs/CONFIGURATION.md, generated from the one schema so the two cannot drift. */
export function configTable(): string {
  const rows = Object.values(SCHEMA).map((s) => `| \`${s.env}\` | ${s.secret ? '(secret)' : `\`${show(s.default)}\``} | ${s.description} |`);
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n') + '\n';
}
