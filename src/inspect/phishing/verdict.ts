import { isBrandDomain } from './brands.js';
import type { UrlInfo } from './host.js';
import { modelScore, type PhishingModel } from './model.js';
import { scoreUrl, type UrlVerdict } from './score.js';

/**
 * One link's phishing verdict: the named tricks of score.ts (look-alikes, homoglyphs, userinfo...)
 * or the learned model over generator-independent features, whichever is more certain. The model
 * is what carries to phishing kits no rule was written for; brand-owned hosts stay quiet in both.
 */
export function judgeUrl(model: PhishingModel, info: UrlInfo): UrlVerdict {
  const rules = scoreUrl(info);
  if (!info.isIp && isBrandDomain(info.hostname)) return rules;
  const learned = modelScore(model, info);
  return learned > rules.score ? { score: learned, reason: 'phishing model' } : rules;
}
