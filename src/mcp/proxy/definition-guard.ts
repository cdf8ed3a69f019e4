import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { judgeToolDefinitions, type ToolDefinitionInput, type ToolDefinitionVerdict } from '../../inspect/tool-definitions/index.js';
import type { Verdict } from '../../inspect/types.js';
import { MEMORY_BUDGETS, byteBounded } from '../../memory/budgets.js';
import { canonicalDefinition, definitionHash } from './tool-pins.js';

export type { ToolDefinitionInput, ToolDefinitionVerdict };

/**
 * Guard point [A] on tool definitions: what a server says about its tools is text addressed to the model. The
 * judgement is the tool-definition judge's (src/inspect/tool-definitions/); this module only caches it. A tool is
 * judged within its list (a description may name the server's own tools, not other servers'), so a whole list is
 * cached by the hash of its definitions and of the other servers' tool names, per scope (the tenant). Each tool's
 * verdict is also kept by its own definition hash, so a tools/call finds the verdict of the pinned definition without
 * judging again.
 */

// Judged lists and per-tool verdicts held in memory, by bytes (verdicts carry findings, never the text).
const lists = new LRUCache<string, ToolDefinitionVerdict[]>(byteBounded(MEMORY_BUDGETS.mcpDefinitionVerdicts / 2));
const tools = new LRUCache<string, ToolDefinitionVerdict>(byteBounded(MEMORY_BUDGETS.mcpDefinitionVerdicts / 2));

export interface JudgeOptions {
  /** Whose cache (the tenant): one tenant's judgement never answers for another's. */
  scope?: string;
  /** Tool names of the tenant's other servers: a description that hooks into one of them is shadowing. */
  otherToolNames?: readonly string[];
}

export async function judgeDefinitions(
  definitions: readonly ToolDefinitionInput[],
  inspectText: (text: string) => Promise<Verdict>,
  options: JudgeOptions = {},
): Promise<ToolDefinitionVerdict[]> {
  const scope = options.scope ?? '';
  const hashes = definitions.map((d) => definitionHash(canonicalDefinition(d)));
  const others = [...new Set(options.otherToolNames ?? [])].sort();
  const listKey = `${scope}\0${createHash('sha256').update(hashes.join(',')).update('\0').update(others.join('\0')).digest('hex')}`;
  const hit = lists.get(listKey);
  if (hit) return hit;
  // An exception (pool overloaded, deadline) propagates: a definition that could not be judged is never allowed.
  const verdicts = await judgeToolDefinitions(definitions, inspectText, { otherToolNames: others });
  lists.set(listKey, verdicts);
  verdicts.forEach((v, i) => tools.set(`${scope}\0${hashes[i]}`, v));
  return verdicts;
}

/** The verdict last given to this exact definition (by hash) in a judged list of the scope, if still in memory. */
export function cachedDefinitionVerdict(scope: string, hash: string): ToolDefinitionVerdict | undefined {
  return tools.get(`${scope}\0${hash}`);
}
