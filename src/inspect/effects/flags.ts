import type { Flag, View } from '../types.js';
import { judgeToolCall } from './judge.js';

/**
 * Effect findings as inspection flags: one `dangerous_effect` flag per finding, category `dangerous_action`,
 * the finding's score (>= 0.9 blocks in normal mode, 0.5-0.7 is MEDIUM) and a detail naming the effect and the
 * taxonomy leaf, never the content. Payloads the obfuscation layer decoded out of the tool call (base64, hex,
 * escapes …) are judged too, within a small budget; re-spelled views (leet, joined letters) are not, since they
 * are guesses rather than decodings.
 */

const MAX_VIEWS = 8;
const VIEW_BUDGET_CHARS = 16384;
const GUESSED_VIEWS = new Set(['leet', 'joined', 'skeleton', 'nfkc']);

export function effectFlags(content: string, views: readonly View[] = []): Flag[] {
  const flags: Flag[] = judgeToolCall(content).map((f) => ({
    layer: 'semantic',
    type: 'dangerous_effect',
    score: f.score,
    detail: `${f.effect} (${f.leaf}): ${f.detail}`,
    category: 'dangerous_action',
  }));
  const seen = new Set(flags.map((f) => f.detail));
  let budget = VIEW_BUDGET_CHARS;
  for (const view of views.slice(1, 1 + MAX_VIEWS)) {
    if (!view.source || GUESSED_VIEWS.has(view.name) || view.text.length > budget || view.text === content) continue;
    budget -= view.text.length;
    for (const f of judgeToolCall(view.text)) {
      const detail = `${f.effect} (${f.leaf}): ${f.detail} in decoded view ${view.name}`;
      if (seen.has(detail)) continue;
      seen.add(detail);
      flags.push({ layer: 'semantic', type: 'dangerous_effect', score: f.score, detail, span: view.source, category: 'dangerous_action' });
    }
  }
  return flags;
}
