import config from '../../config/judge.json' with { type: 'json' };
import type { Kind } from '../inspect/types.js';

/** What the judge said about one text: an opinion, or none (garbage, a refusal, a timeout: the embedded verdict stands). */
export type JudgeOpinion =
  | { verdict: 'attack'; category: 'injection' | 'harmful_content'; codes: string[]; family?: string }
  | { verdict: 'benign' };

export type JudgeFormat = 'llama_guard' | 'json';
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const CATEGORIES = config.llamaGuardCategories as Record<string, { name: string; family: string }>;

/**
 * The chat messages for one text. Llama Guard is served (vLLM, Ollama, llama.cpp) with its own chat template, which
 * writes the task prompt and category list around the conversation: Bastion sends the conversation itself — the text
 * as the user's turn, or a model output as the assistant's answer to an elided user turn. The JSON format wraps the
 * text as data under a fixed classifier instruction, for any instruction-following model.
 */
export function judgeMessages(format: JudgeFormat, content: string, kind: Kind): Message[] {
  const text = content.slice(0, config.maxContentChars);
  if (format === 'llama_guard') {
    return kind === 'output' ? [{ role: 'user', content: '(request not shown)' }, { role: 'assistant', content: text }] : [{ role: 'user', content: text }];
  }
  return [
    { role: 'system', content: config.injectionPrompt },
    { role: 'user', content: `<data>\n${text.replaceAll('</data>', '</ data>')}\n</data>` },
  ];
}

/** Reads a Llama Guard answer: `safe`, or `unsafe` and a line of codes (S1…S14). Anything else: no opinion. */
export function parseLlamaGuard(answer: string): JudgeOpinion | undefined {
  const lines = answer.trim().split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const head = lines[0]?.toLowerCase();
  if (head === 'safe') return { verdict: 'benign' };
  if (head !== 'unsafe') return undefined;
  const codes = [...new Set((lines[1] ?? '').toUpperCase().match(/\bS\d{1,2}\b/g) ?? [])].filter((c) => c in CATEGORIES);
  const family = codes.length > 0 ? CATEGORIES[codes[0]].family : 'harmful_content';
  return { verdict: 'attack', category: 'harmful_content', codes, family };
}

/** Reads the JSON verdict (the first object in the answer; models like to wrap it in prose or a code fence). */
export function parseJsonVerdict(answer: string): JudgeOpinion | undefined {
  const start = answer.indexOf('{');
  const end = answer.indexOf('}', start);
  if (start < 0 || end < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const verdict = (parsed as { verdict?: unknown }).verdict;
  if (verdict === 'benign') return { verdict: 'benign' };
  if (verdict === 'attack') return { verdict: 'attack', category: 'injection', codes: [], family: 'injection' };
  return undefined;
}

export function parseAnswer(format: JudgeFormat, answer: string): JudgeOpinion | undefined {
  return format === 'llama_guard' ? parseLlamaGuard(answer) : parseJsonVerdict(answer);
}

export function categoryName(code: string): string | undefined {
  return CATEGORIES[code]?.name;
}
