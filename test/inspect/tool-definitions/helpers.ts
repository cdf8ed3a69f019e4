import { readFileSync } from 'node:fs';
import { inspect } from '../../../src/inspect/pipeline.js';
import type { ToolDefinitionInput } from '../../../src/inspect/tool-definitions/index.js';
import type { Verdict } from '../../../src/inspect/types.js';

/** The pipeline as the proxy uses it: the text judged as untrusted tool content. */
export const inspectText = async (text: string): Promise<Verdict> => inspect({ content: text, kind: 'tool_result' });

export function benignList(file: string): ToolDefinitionInput[] {
  const url = new URL(`../../../datasets/mcp-tool-definitions/benign/${file}.jsonl`, import.meta.url);
  return readFileSync(url, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ToolDefinitionInput);
}

export const schema = (properties: Record<string, unknown>): unknown => ({ type: 'object', properties });
