import type { Flag, InspectionContext, Layer } from '../types.js';
import type { Candidate } from '../secrets/candidate.js';
import { LIMITS, SCORES } from '../secrets/config.js';
import { resolveOverlaps } from '../secrets/resolve.js';
import { scanText } from '../secrets/scan.js';

/**
 * Layer 3 (SPEC §1): secret redactor. Finds credentials (≈70 vendor formats, private keys,
 * JWTs, URLs with passwords, keyword-anchored passwords and secrets) and PII (email, phone,
 * payment card, IBAN, SSN, national ids and passports, bank accounts, street addresses) in the content and in the decoded views of layer 2,
 * and records them in `ctx.secrets` for `redact()` to replace with `[REDACTED:<type>]`.
 *
 * Scores follow where the credential travels:
 * - `prompt` / `output`: the user (or model) is handing over their own secret. The right
 *   answer is to redact it and let the request through, so per-type flags stay below the
 *   decision layer's HIGH threshold (0.75): `credentialInPrompt` = 0.7 (MEDIUM).
 * - `tool_result` / `tool_call`: a credential in tool traffic is secret exfiltration
 *   (SPEC §1 [A]; a command carrying a key can ship it anywhere), so per-type flags score
 *   `credentialInTool` = 0.85 and one `secret_exfiltration` flag scores 0.9: HIGH, blocked.
 * - PII is always redacted, never blocking by itself: `pii` = 0.4 (LOW).
 * The tenant's `secretMode: 'block'` still turns any finding into a block in the decision layer.
 */

const EXFILTRATION_KINDS = new Set(['tool_result', 'tool_call']);

/** Findings from decoded views: located at the view's source span, or flag-only without one. */
function scanViews(ctx: InspectionContext, located: Candidate[], flagOnly: Candidate[]): void {
  let budget = LIMITS.maxViewChars;
  let scanned = 0;
  for (const view of ctx.views) {
    if (view.name === 'original' || view.text === ctx.content || view.text.length === 0) continue;
    if (scanned >= LIMITS.maxViews || view.text.length > budget) continue;
    budget -= view.text.length;
    scanned++;
    for (const f of scanText(view.text)) {
      if (view.source && view.source.end > view.source.start && view.source.end <= ctx.content.length) {
        located.push({ ...f, start: view.source.start, end: view.source.end, priority: f.priority - 1 });
      } else {
        flagOnly.push(f);
      }
    }
  }
}

function flagFor(type: string, pii: boolean, count: number, kind: string, first: Candidate | undefined): Flag {
  const score = pii ? SCORES.pii : EXFILTRATION_KINDS.has(kind) ? SCORES.credentialInTool : SCORES.credentialInPrompt;
  return {
    layer: 'secrets',
    type,
    score,
    category: 'exfiltration',
    detail: `${count} ${pii ? 'personal data' : 'credential'} value(s)${first?.verified ? ', checksum verified' : ''}`,
    ...(first ? { span: { start: first.start, end: first.end } } : {}),
  };
}

export const secretsLayer: Layer = {
  name: 'secrets',
  run(ctx: InspectionContext) {
    const located = scanText(ctx.content);
    const flagOnly: Candidate[] = [];
    scanViews(ctx, located, flagOnly);
    const findings = resolveOverlaps(located, ctx.content.length, LIMITS.maxFindings);

    const byType = new Map<string, { pii: boolean; count: number; first?: Candidate }>();
    for (const f of findings) {
      ctx.secrets.push({ type: f.type, start: f.start, end: f.end, ...(f.pii ? { pii: true } : {}) });
      const entry = byType.get(f.type) ?? { pii: Boolean(f.pii), count: 0, first: f };
      entry.count++;
      byType.set(f.type, entry);
    }
    for (const f of flagOnly) {
      const entry = byType.get(f.type) ?? { pii: Boolean(f.pii), count: 0 };
      entry.count++;
      byType.set(f.type, entry);
    }

    let credentials = 0;
    let pii = 0;
    for (const [type, entry] of byType) {
      ctx.flags.push(flagFor(type, entry.pii, entry.count, ctx.kind, entry.first));
      if (entry.pii) pii += entry.count;
      else credentials += entry.count;
    }
    if (credentials > 0 && EXFILTRATION_KINDS.has(ctx.kind)) {
      ctx.flags.push({
        layer: 'secrets',
        type: 'secret_exfiltration',
        score: SCORES.secretExfiltration,
        category: 'exfiltration',
        detail: `${credentials} credential(s) in ${ctx.kind} content`,
      });
    }
    ctx.signals['secrets.credentials'] = credentials;
    ctx.signals['secrets.pii'] = pii;
  },
};
