import config from '../../../config/mcp-tool-definitions.json' with { type: 'json' };
import type { Verdict } from '../types.js';
import { normaliseName } from './cues.js';
import { collectFields, type TextField } from './fields.js';
import { hiddenTextReasons } from './hidden-text.js';
import { DEFAULT_TUNING, pipelineFinding, type Tuning } from './pipeline-verdict.js';
import { type Finding, judgeField } from './rules.js';

/**
 * Judges the tool definitions of one MCP server's `tools/list` as text addressed to the model (poisoning, hidden
 * instructions, credential requests, exfiltration, shadowing of other servers' tools, hidden text) before an agent
 * sees them. Pure: the caller supplies `inspectText`, the pipeline judging a text as untrusted tool content. An error
 * of `inspectText` rejects the whole call (the caller fails closed); nothing is ever allowed by default.
 * Findings carry the field and metadata only, never the text.
 */
export interface ToolDefinitionInput {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  icons?: unknown;
  _meta?: unknown;
}

export interface ToolDefinitionVerdict {
  name: string;
  action: 'allow' | 'block';
  findings: { field: string; category: string; detail: string }[];
}

const NAME = new RegExp(config.namePattern, 'u');
const { maxTools, maxNameChars } = config.limits;

export async function judgeToolDefinitions(
  tools: readonly ToolDefinitionInput[],
  inspectText: (text: string) => Promise<Verdict>,
  options?: { otherToolNames?: readonly string[] },
): Promise<ToolDefinitionVerdict[]> {
  return judgeWithTuning(tools, inspectText, options, DEFAULT_TUNING);
}

/** The same judgement with the operating point given: for the evaluation's sweep and leave-one-package-out view. */
export async function judgeWithTuning(
  tools: readonly ToolDefinitionInput[],
  inspectText: (text: string) => Promise<Verdict>,
  options: { otherToolNames?: readonly string[] } | undefined,
  tuning: Tuning,
): Promise<ToolDefinitionVerdict[]> {
  if (tools.length > maxTools) throw new RangeError(`at most ${maxTools} tool definitions per call`);
  const collected = tools.map((tool) => collectFields(str(tool.description), str(tool.title), tool.inputSchema, tool));
  const own = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (typeof tool.name === 'string') own.add(normaliseName(tool.name));
    for (const word of collected[i]!.vocabulary) own.add(normaliseName(word));
  }
  const others = new Set((options?.otherToolNames ?? []).filter((n) => typeof n === 'string').map(normaliseName));

  // One inspection per distinct text: tool lists repeat 'Repository owner' and the like many times.
  const verdicts = new Map<string, Promise<Verdict>>();
  const inspectOnce = (text: string): Promise<Verdict> => {
    let v = verdicts.get(text);
    if (!v) verdicts.set(text, (v = inspectText(text)));
    return v;
  };

  return Promise.all(
    tools.map(async (tool, i) => {
      const { fields, oversized } = collected[i]!;
      const findings: Finding[] = [...nameFindings(tool.name)];
      if (oversized) findings.push({ field: 'inputSchema', category: 'oversized', detail: oversized });
      else findings.push(...(await judgeFields(fields, own, others, inspectOnce, tuning)));
      return { name: typeof tool.name === 'string' ? tool.name : '', action: findings.length > 0 ? 'block' : 'allow', findings };
    }),
  );
}

async function judgeFields(
  fields: readonly TextField[],
  own: ReadonlySet<string>,
  others: ReadonlySet<string>,
  inspectOnce: (text: string) => Promise<Verdict>,
  tuning: Tuning,
): Promise<Finding[]> {
  const judged = await Promise.all(
    fields.map(async ({ field, text }) => {
      const own_ = judgeField({ field, text, own, others });
      const detail = pipelineFinding(await inspectOnce(text), own_.corroborated, tuning);
      return detail ? [...own_.findings, { field, category: 'prompt_injection', detail }] : own_.findings;
    }),
  );
  return judged.flat();
}

function nameFindings(name: unknown): Finding[] {
  if (typeof name !== 'string' || name.length === 0) return [{ field: 'name', category: 'malformed', detail: 'missing tool name' }];
  if (name.length > maxNameChars) return [{ field: 'name', category: 'oversized', detail: `name longer than ${maxNameChars} characters` }];
  const findings: Finding[] = hiddenTextReasons(name).map((detail) => ({ field: 'name', category: 'hidden_text', detail }));
  if (findings.length === 0 && !NAME.test(name)) findings.push({ field: 'name', category: 'malformed', detail: 'characters outside the MCP tool-name set' });
  return findings;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
