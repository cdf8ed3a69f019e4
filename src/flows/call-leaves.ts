import flowConfig from '../../config/flow-labels.json' with { type: 'json' };
import { isObject, parseArguments } from '../inspect/effects/args/json.js';
import { leavesOf, normKey, type Leaf } from '../inspect/effects/args/leaves.js';

/**
 * A call's argument leaves, as both the flow decision (main thread) and the reading of its facts (an inspection thread,
 * call-facts.ts) see them: every leaf of the parsed arguments (a command line as one leaf), and those outside prose
 * fields (a body or a subject is what a sink sends, not where it goes, and names no command that runs).
 */

const FREE_TEXT: ReadonlySet<string> = new Set(flowConfig.freeTextKeys.map(normKey));
const MAX_ARGS_TEXT = 256 * 1024;

export interface CallLeaves {
  /** The arguments text as read (bounded). */
  text: string;
  leaves: Leaf[];
  traced: Leaf[];
}

export function callLeaves(argumentsText: string): CallLeaves {
  const text = argumentsText.length > MAX_ARGS_TEXT ? argumentsText.slice(0, MAX_ARGS_TEXT) : argumentsText;
  const parsed = parseArguments(text);
  const leaves: Leaf[] = isObject(parsed) || Array.isArray(parsed) ? leavesOf(parsed) : [{ path: [], key: '', value: text }];
  return { text, leaves, traced: leaves.filter((l) => !l.path.some((k) => FREE_TEXT.has(k))) };
}

export const leafField = (l: Leaf): string => l.path.join('.') || '(arguments)';
