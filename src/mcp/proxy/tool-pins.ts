import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * Pinning of tool definitions (pure). A definition is what the model and the client read of a tool: name, title,
 * description, input and output schemas, annotations, icons and `_meta`. Its hash is SHA-256 over the RFC 8785 canonical JSON, so key order and whitespace never count as a
 * change. The first list a tenant sees of a server is trusted as it stands; afterwards a changed definition (a rug
 * pull) and, under `review`, a new tool wait for a tenant admin's approval.
 */

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  icons?: unknown;
  _meta?: unknown;
}

export interface Pin {
  tool_name: string;
  approved_hash: string | null;
  approved_definition: string | null;
  pending_hash: string | null;
  pending_definition: string | null;
}

export type PinWrite =
  | { kind: 'approve'; tool: string; hash: string; definition: string }
  | { kind: 'pending'; tool: string; hash: string; definition: string }
  | { kind: 'clear_pending'; tool: string };

export type Withheld = 'not_allowed' | 'pending_approval' | 'oversized' | 'unnamed';

/** Largest definition (canonical JSON) the proxy pins; a larger one is withheld. */
export const MAX_DEFINITION_BYTES = 64 * 1024;

/** The fields that make a definition, taken from a tool of a tools/list result (anything else is not pinned). */
export function definitionOf(tool: Record<string, unknown>): ToolDefinition | undefined {
  if (typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > 128) return undefined;
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
    ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
    // Annotations (readOnlyHint, destructiveHint …) and the output schema change what a client and the model make of
    // the tool: a change to them is a change of the tool.
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    // Icons and `_meta` are shown by clients and read by some: free text that must not change unseen either.
    ...(tool.icons !== undefined ? { icons: tool.icons } : {}),
    ...(tool._meta !== undefined ? { _meta: tool._meta } : {}),
  };
}

export function canonicalDefinition(definition: ToolDefinition): string {
  return canonicalize(definition) ?? '{}';
}

export function definitionHash(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}

export interface Reconciled {
  /** Per tool name: undefined when the agent may see it, else why it is withheld. */
  withheld: Map<string, Withheld>;
  hashes: Map<string, string>;
  writes: PinWrite[];
}

/**
 * What one tools/list means against the pins: which tools the agent sees and what to record. `allowed` (the server's
 * allow-list, null: all) hides tools outright; a first list (no pins yet) is approved whole.
 */
export function reconcile(tools: readonly ToolDefinition[], pins: readonly Pin[], options: { allowed: ReadonlySet<string> | null; newTools: 'auto' | 'review' }): Reconciled {
  const byName = new Map(pins.map((p) => [p.tool_name, p]));
  const first = pins.length === 0;
  const out: Reconciled = { withheld: new Map(), hashes: new Map(), writes: [] };
  for (const tool of tools) {
    if (options.allowed && !options.allowed.has(tool.name)) {
      out.withheld.set(tool.name, 'not_allowed');
      continue;
    }
    const canonical = canonicalDefinition(tool);
    if (Buffer.byteLength(canonical) > MAX_DEFINITION_BYTES) {
      out.withheld.set(tool.name, 'oversized');
      continue;
    }
    const hash = definitionHash(canonical);
    out.hashes.set(tool.name, hash);
    const pin = byName.get(tool.name);
    if (pin?.approved_hash === hash) {
      if (pin.pending_hash !== null) out.writes.push({ kind: 'clear_pending', tool: tool.name });
      continue;
    }
    if (!pin && (first || options.newTools === 'auto')) {
      out.writes.push({ kind: 'approve', tool: tool.name, hash, definition: canonical });
      continue;
    }
    out.withheld.set(tool.name, 'pending_approval');
    if (pin?.pending_hash !== hash) out.writes.push({ kind: 'pending', tool: tool.name, hash, definition: canonical });
  }
  return out;
}

export interface DefinitionDiff {
  field: string;
  before: unknown;
  after: unknown;
}

/** Field by field (input-schema properties one by one), what a pending definition changes of the approved one. */
export function diffDefinitions(approved: string | null, pending: string | null): DefinitionDiff[] {
  const before = parse(approved);
  const after = parse(pending);
  const diffs: DefinitionDiff[] = [];
  for (const field of ['name', 'title', 'description'] as const) {
    if (before[field] !== after[field]) diffs.push({ field, before: before[field] ?? null, after: after[field] ?? null });
  }
  const schemaBefore = asObject(before.inputSchema);
  const schemaAfter = asObject(after.inputSchema);
  const propsBefore = asObject(schemaBefore.properties);
  const propsAfter = asObject(schemaAfter.properties);
  for (const key of new Set([...Object.keys(propsBefore), ...Object.keys(propsAfter)])) {
    const a = canonicalize(propsBefore[key]);
    const b = canonicalize(propsAfter[key]);
    if (a !== b) diffs.push({ field: `inputSchema.properties.${key}`, before: propsBefore[key] ?? null, after: propsAfter[key] ?? null });
  }
  const restBefore = canonicalize({ ...schemaBefore, properties: undefined });
  const restAfter = canonicalize({ ...schemaAfter, properties: undefined });
  if (restBefore !== restAfter) diffs.push({ field: 'inputSchema', before: { ...schemaBefore, properties: undefined }, after: { ...schemaAfter, properties: undefined } });
  for (const field of ['outputSchema', 'annotations', 'icons', '_meta'] as const) {
    if (canonicalize(before[field]) !== canonicalize(after[field])) diffs.push({ field, before: before[field] ?? null, after: after[field] ?? null });
  }
  return diffs;
}

function parse(text: string | null): Partial<ToolDefinition> {
  if (!text) return {};
  try {
    return asObject(JSON.parse(text)) as Partial<ToolDefinition>;
  } catch {
    return {};
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
