import { Type, type Static } from 'typebox';
import { DEFAULT_FLOW_POLICY, type FlowPolicy } from '../flows/types.js';

/**
 * The `flows` part of a tenant policy (docs/FLOWS.md) as operators write it: labels per tool-name pattern (and MCP
 * server), what happens to a call that would send untrusted or private data out, and the destinations always allowed.
 */

export const MAX_FLOW_LABELS = 256;
export const MAX_ALLOW_DESTINATIONS = 256;
export const MAX_BOUNDARY_ENTRIES = 256;

export const FlowPolicySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Judge tool calls by flow (default true)' })),
    action: Type.Optional(
      Type.Union([Type.Literal('block'), Type.Literal('require_approval'), Type.Literal('flag')], {
        description: 'A call that would send untrusted or private data out: block (default), require_approval (withheld until approved) or flag (released and reported)',
      }),
    ),
    labels: Type.Optional(
      Type.Array(
        Type.Object(
          {
            tool: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:/*-]+$', description: 'Tool name or glob (`*`), case-insensitive' }),
            server: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this MCP server' })),
            label: Type.Union([Type.Literal('untrusted_source'), Type.Literal('private_source'), Type.Literal('sink'), Type.Literal('internal')]),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_FLOW_LABELS, description: 'Labels, first match wins; tools no rule matches take the defaults' },
      ),
    ),
    allow_destinations: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 254 }), { maxItems: MAX_ALLOW_DESTINATIONS, description: 'Domains, addresses, IBANs or channel names a sink may always send to' }),
    ),
    own_domains: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^(?:\\*\\.)?[^\\s@/*]+$' }), {
        maxItems: MAX_BOUNDARY_ENTRIES,
        description: "The organisation's own domains (each with its sub-domains): sending inside them is not leaving",
      }),
    ),
    internal_hosts: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s@]+$' }), {
        maxItems: MAX_BOUNDARY_ENTRIES,
        description: 'Hosts inside the organisation: globs over the host (`*.corp.example`, `api-*.mycorp.example`) or CIDR ranges (`10.0.0.0/8`)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Agent flow policy: tool calls that would send untrusted or private data out' },
);
export type StoredFlowPolicy = Static<typeof FlowPolicySchema>;

export function effectiveFlowPolicy(stored: StoredFlowPolicy | undefined, defaults: FlowPolicy = DEFAULT_FLOW_POLICY): FlowPolicy {
  if (!stored) return defaults;
  return {
    enabled: stored.enabled ?? defaults.enabled,
    action: stored.action ?? defaults.action,
    labels: (stored.labels as FlowPolicy['labels'] | undefined) ?? defaults.labels,
    allowDestinations: (stored.allow_destinations ?? defaults.allowDestinations).map((d) => d.toLowerCase()),
    ownDomains: (stored.own_domains ?? defaults.ownDomains).map((d) => d.toLowerCase()),
    internalHosts: (stored.internal_hosts ?? defaults.internalHosts).map((d) => d.toLowerCase()),
  };
}

export function wireFlowPolicy(policy: FlowPolicy): Required<StoredFlowPolicy> {
  return {
    enabled: policy.enabled,
    action: policy.action,
    labels: policy.labels,
    allow_destinations: policy.allowDestinations,
    own_domains: policy.ownDomains,
    internal_hosts: policy.internalHosts,
  };
}

/** CLI: `flows.action=…`, `flows.enabled=…`, `flows.allow_destinations=a,b`, `flows.own_domains=a,b`, `flows.internal_hosts=a,b`, `flows.labels=send_*:sink,fetch@web:untrusted_source`. */
export function assignFlow(current: StoredFlowPolicy | undefined, sub: string | undefined, raw: string): StoredFlowPolicy {
  const next: Record<string, unknown> = { ...current };
  const list = () => raw.split(',').map((d) => d.trim()).filter(Boolean);
  if (sub === 'enabled') {
    if (raw !== 'true' && raw !== 'false') throw new Error('flows.enabled must be true or false');
    next.enabled = raw === 'true';
  } else if (sub === 'action') next.action = raw;
  else if (sub === 'allow_destinations') next.allow_destinations = list();
  else if (sub === 'own_domains') next.own_domains = list();
  else if (sub === 'internal_hosts') next.internal_hosts = list();
  else if (sub === 'labels') {
    next.labels = list().map((entry) => {
      const colon = entry.lastIndexOf(':');
      if (colon < 1) throw new Error(`expected tool[@server]:label, got "${entry.slice(0, 64)}"`);
      const [tool, server] = entry.slice(0, colon).split('@', 2);
      return { tool, ...(server ? { server } : {}), label: entry.slice(colon + 1) };
    });
  } else throw new Error('set one flow field at a time: flows.enabled|action|labels|allow_destinations|own_domains|internal_hosts=…');
  return next as StoredFlowPolicy;
}
