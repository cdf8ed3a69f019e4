import { LRUCache } from 'lru-cache';
import type { Verdict } from '../../inspect/types.js';
import { canonicalDefinition, definitionHash } from './tool-pins.js';

/**
 * Guard point [A] on tool definitions: what a server says about its tools is text addressed to the model, so the
 * name, title, description and every description inside the input schema are inspected as untrusted content. One
 * blocked text withholds the tool. The proxy calls only `judgeDefinitions`, so a dedicated detector can replace the
 * body without touching the relay. Definitions are pinned by hash, so a judgment is cached per hash (and scope).
 */

export interface ToolDefinitionInput {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
}

export interface ToolDefinitionVerdict {
  name: string;
  action: 'allow' | 'block';
  findings: { field: string; category: string; detail: string }[];
}

/** Most schema descriptions read per tool, and the deepest nesting walked: a definition is bounded before it is pinned. */
const MAX_TEXTS = 256;
const MAX_DEPTH = 12;

const cache = new LRUCache<string, ToolDefinitionVerdict>({ max: 10_000 });

export async function judgeDefinitions(
  tools: readonly ToolDefinitionInput[],
  inspectText: (text: string) => Promise<Verdict>,
  options: { scope?: string } = {},
): Promise<ToolDefinitionVerdict[]> {
  return Promise.all(
    tools.map(async (tool) => {
      const key = `${options.scope ?? ''}\0${definitionHash(canonicalDefinition(tool))}`;
      const cached = cache.get(key);
      if (cached) return { ...cached, name: tool.name };
      const verdict = await judgeOne(tool, inspectText);
      cache.set(key, verdict);
      return verdict;
    }),
  );
}

async function judgeOne(tool: ToolDefinitionInput, inspectText: (text: string) => Promise<Verdict>): Promise<ToolDefinitionVerdict> {
  const texts: { field: string; text: string }[] = [{ field: 'name', text: tool.name }];
  if (tool.title) texts.push({ field: 'title', text: tool.title });
  if (tool.description) texts.push({ field: 'description', text: tool.description });
  schemaDescriptions(tool.inputSchema, 'inputSchema', 0, texts);
  // An exception (pool overloaded, deadline) propagates: a definition that could not be judged is never allowed.
  const verdicts = await Promise.all(texts.map((t) => inspectText(t.text)));
  const findings = texts.flatMap((t, i) => {
    const v = verdicts[i];
    if (v.action !== 'block') return [];
    const flag = v.flags.find((f) => f.category) ?? v.flags[0];
    return [{ field: t.field, category: flag?.category ?? 'injection', detail: flag ? `${flag.layer}: ${flag.type}` : 'blocked' }];
  });
  return { name: tool.name, action: findings.length > 0 ? 'block' : 'allow', findings };
}

/** Every `description` (and `title`) string inside a JSON Schema, with its path. */
function schemaDescriptions(node: unknown, path: string, depth: number, out: { field: string; text: string }[]): void {
  if (depth > MAX_DEPTH || out.length >= MAX_TEXTS || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((item, i) => schemaDescriptions(item, `${path}[${i}]`, depth + 1, out));
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (out.length >= MAX_TEXTS) return;
    if ((key === 'description' || key === 'title') && typeof value === 'string' && value.length > 0) out.push({ field: `${path}.${key}`, text: value });
    else schemaDescriptions(value, `${path}.${key}`, depth + 1, out);
  }
}
