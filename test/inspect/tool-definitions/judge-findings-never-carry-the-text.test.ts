import { readFileSync } from 'node:fs';
import t from 'tap';
import { judgeToolDefinitions, type ToolDefinitionInput } from '../../../src/inspect/tool-definitions/index.js';
import { inspectText } from './helpers.js';

// Every poisoned definition of the development set: no finding's detail may repeat a run of its text.
const rows = readFileSync(new URL('../../../datasets/mcp-tool-definitions/attacks/dev.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as ToolDefinitionInput & { text?: string })
  .filter((r) => r.text === undefined);

t.test('findings name the field and the reason, never the content', async (t) => {
  const verdicts = await judgeToolDefinitions(rows, inspectText);
  t.ok(verdicts.every((v) => v.action === 'block'), 'the development attacks are blocked');
  for (const [i, v] of verdicts.entries()) {
    const texts = JSON.stringify(rows[i]).toLowerCase();
    for (const f of v.findings) {
      t.ok(f.detail.length <= 160, 'a short detail');
      // Any 24-character window of the detail that is not the judge's own wording would be copied content.
      const words = f.detail.toLowerCase().match(/[a-z0-9_~./@-]{6,}/g) ?? [];
      const leaked = words.filter((w) => texts.includes(w) && !OWN_WORDS.has(w));
      t.same(leaked, [], `${v.name} ${f.field}: detail carries only metadata`);
    }
  }
});

/** Words of the judge's own details that attack texts may happen to contain too. */
const OWN_WORDS = new Set(['base64', 'markup', 'addressed', 'instructions', 'something', 'override', 'confirmations', 'credential', 'private', 'conversation', 'placeholder', 'destination', 'changes', 'behave', 'foreign', 'pipeline', 'indirect_injection', 'ignore_previous_instructions', 'addressed_to_assistant', 'blocked', 'characters', 'invisible', 'format', 'unicode', 'whitespace', 'padding', 'before', 'decodes', 'request', 'carrying', 'fixed', 'other', 'tools', 'model', 'phishing_url', 'encoded_payload', 'bidi_override', 'cipher_text', 'control', 'controls', 'email', 'from', 'tries', 'model\'s', 'asks', 'sends', 'hidden', 'risky', 'outside', 'joiners', 'lines', 'blank', 'text', 'inspect', 'keep', 'names', 'name', 'user', 'data', 'file', 'tool']);
