import { type CueClass, cuesIn, foreignToolReferences } from './cues.js';
import { hiddenTextReasons } from './hidden-text.js';

export interface Finding {
  field: string;
  category: string;
  detail: string;
}

export interface FieldContext {
  field: string;
  text: string;
  /** Tool names of the same list, property names and enum values of its schemas (normalised). */
  own: ReadonlySet<string>;
  /** Other servers' tool names (normalised). */
  others: ReadonlySet<string>;
}

export interface FieldJudgement {
  findings: Finding[];
  /** Cues that corroborate a block by the injection model alone (rules.ts and pipeline-verdict.ts agree on them). */
  corroborated: boolean;
}

/** Cue classes that say something about intent; `transfer`, `sendVerb` and `extraAction` are ordinary tool language. */
const CORROBORATING: readonly CueClass[] = ['markup', 'concealment', 'override', 'addressed', 'sensitiveTarget', 'destination', 'dataCarrier', 'otherTools', 'shadowTrigger'];

/**
 * The judge's own reading of one text field. Each rule is a combination seen in the public write-ups of the attacks
 * and absent from ordinary tool language:
 * - markup addressed to the model (<IMPORTANT>, <system>, HTML comments), concealment from the user, and attempts
 *   to override the model's instructions block alone: real descriptions tell the model how to use a tool, never to
 *   hide something from the person or to drop its rules;
 * - a sensitive target (keys, credential files, the system prompt, the conversation) with a verb that moves it;
 * - a fixed destination (address, URL, IBAN, wallet, channel) with a verb that sends there as an extra action, or
 *   next to a sensitive target; a URL whose query is a placeholder for data;
 * - another server's tool (or any/all tools) with a trigger or a change of behaviour (shadowing);
 * - text addressed to the model together with any risky cue.
 */
export function judgeField(ctx: FieldContext): FieldJudgement {
  const findings: Finding[] = [];
  const add = (category: string, detail: string): void => void findings.push({ field: ctx.field, category, detail });
  for (const reason of hiddenTextReasons(ctx.text)) add('hidden_text', reason);

  const cues = cuesIn(ctx.text);
  const foreign = foreignToolReferences(ctx.text, ctx.own, ctx.others);
  const has = (c: CueClass): boolean => cues.has(c);

  if (has('markup')) add('hidden_instructions', 'markup addressed to the model');
  if (has('concealment')) add('hidden_instructions', 'asks the model to keep something from the user');
  if (has('override')) add('hidden_instructions', "tries to override the model's instructions or confirmations");
  if (has('sensitiveTarget') && has('transfer')) add('credential_access', 'asks for a credential, private file or conversation data');
  if (has('dataCarrier')) add('exfiltration', 'URL carrying a placeholder for data');
  else if (has('destination') && ((has('sendVerb') && has('extraAction')) || has('sensitiveTarget'))) add('exfiltration', 'sends data to a fixed destination');
  if ((foreign > 0 || has('otherTools')) && has('shadowTrigger')) add('shadowing', `changes how other tools behave (${foreign} foreign tool name${foreign === 1 ? '' : 's'})`);
  if (has('addressed') && findings.length === 0 && (has('sensitiveTarget') || has('destination') || foreign > 0 || has('otherTools'))) {
    add('hidden_instructions', 'addressed to the model with a risky request');
  }
  const corroborated = findings.length > 0 || foreign > 0 || CORROBORATING.some(has);
  return { findings, corroborated };
}
