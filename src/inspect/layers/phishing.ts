import { getDomain } from 'tldts';
import config from '../../../config/phishing.json' with { type: 'json' };
import type { Flag, InspectionContext, Layer, Span, View } from '../types.js';
import { codeRanges, findDangerousUris, findLinks, insideCode, type Link } from '../phishing/extract.js';
import { parseUrl } from '../phishing/host.js';
import modelFile from '../phishing/model.json' with { type: 'json' };
import { checkModel, type PhishingModel } from '../phishing/model.js';
import { judgeUrl } from '../phishing/verdict.js';
import { scoreUrl } from '../phishing/score.js';
import { judgeExfiltration } from '../phishing/exfil.js';
import { hasPressureLanguage } from '../phishing/lexical.js';

/**
 * Layer 7 — phishing guard. Scores every link in the original content and in the decoded
 * views: brand look-alikes, homoglyph and userinfo tricks, IP hosts, risky hosting; image
 * and links that carry data out (see phishing/exfil.ts); dangerous URI schemes; link text naming another domain.
 * The verdict on a link depends on the link; pressure language in the message only lifts
 * a link that is already suspicious. Tenant allowlisted domains are never flagged.
 */

const S = config.scores;
const W = config.weights;
const MAX_FLAGS = 16;
const DOMAIN_IN_TEXT = /(?:^|[\s(<[])(?:https?:\/\/)?((?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24})(?=$|[\s/)>\]:.,])/i;

function allowed(hostname: string, allow: readonly string[]): boolean {
  return allow.some((d) => {
    const domain = d.toLowerCase().replace(/^\*?\./, '');
    return hostname === domain || hostname.endsWith(`.${domain}`);
  });
}

/** Markdown/HTML link whose visible text names a different registrable domain than its target. */
function deceptiveLabel(link: Link, hostname: string): boolean {
  if (!link.label) return false;
  const named = DOMAIN_IN_TEXT.exec(link.label)?.[1];
  if (!named) return false;
  const shown = getDomain(named.toLowerCase());
  const actual = getDomain(hostname);
  return shown !== null && actual !== null && shown !== actual;
}

/** The layer with a given URL model: leave-one-source-out evaluations swap in a model retrained without a source. */
export function createPhishingLayer(model: PhishingModel): Layer {
  return {
    name: 'phishing',
    run(ctx: InspectionContext) {
      const allow = ctx.policy.allowDomains;
      const seen = new Set<string>();
      const flags: Flag[] = [];
      let pressure: boolean | undefined;
      let top = 0;
      const spanIn = (view: View, span: Span): Span | undefined => (view.name === 'original' ? span : view.source);
      const emit = (type: string, score: number, category: string, detail: string, span?: Span): void => {
        top = Math.max(top, score);
        flags.push({ layer: 'phishing', type, score: Math.round(score * 1000) / 1000, category, detail, ...(span ? { span } : {}) });
      };
      for (const view of ctx.views) {
        // Auto-loading contexts first: a URL both rendered as an image and seen as text is judged as the image.
        const links = findLinks(view.text, config.limits.maxUrlsPerView).sort((a, b) => Number(b.context === 'image') - Number(a.context === 'image'));
        let code: Span[] | undefined;
        for (const link of links) {
          const key = `${link.context}\u0000${link.url}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const info = parseUrl(link.url);
          if (!info || allowed(info.hostname, allow)) continue;
          const span = spanIn(view, link.span);
          // Scheme-less names are not links a renderer follows; everything else can carry data out.
          const exfilKey = `exfil\u0000${info.hostname}${info.pathQuery}`;
          const rendered = link.context !== 'bare' && !seen.has(exfilKey) && !insideCode(link.span, (code ??= codeRanges(view.text)));
          const exfil = rendered ? judgeExfiltration(info, link.context === 'image', ctx.kind) : undefined;
          if (exfil) seen.add(exfilKey);
          if (exfil) emit(exfil.type, exfil.score, 'exfiltration', `${link.context === 'image' ? 'auto-loading' : 'link'} URL carries ${exfil.evidence.replace('_', ' ')}`, span);
          if (link.context === 'link' && deceptiveLabel(link, info.hostname)) {
            emit('deceptive_link', S.deceptiveLinkText, 'social_engineering', 'link text names another domain', span);
          }
          const urlKey = `url\u0000${info.hostname}${info.pathQuery}\u0000${info.username}`;
          if (seen.has(urlKey)) continue;
          seen.add(urlKey);
          const verdict = link.context === 'bare' ? scoreUrl(info) : judgeUrl(model, info);
          // A scheme-less name may be a file or a property path (`setup.py`, `os.path`): only a named trick counts,
          // and the model, which judges real links, is not consulted.
          if (verdict.score < (link.context === 'bare' ? S.bareDomainMin : 0.3)) continue;
          let score = verdict.score;
          if (score >= W.pressureBoostFloor && score < 0.95) {
            pressure ??= hasPressureLanguage(ctx.content);
            if (pressure) score = Math.min(0.95, score + W.pressureBoost);
          }
          emit('phishing_url', score, 'social_engineering', verdict.reason, span);
        }
        const uri = findDangerousUris(view.text);
        if (uri && !seen.has('uri')) {
          seen.add('uri');
          emit('dangerous_uri', uri.inLink ? S.dangerousUriLink : S.dangerousUriBare, 'social_engineering', 'script or HTML URI', spanIn(view, uri.span));
        }
      }
      flags.sort((a, b) => b.score - a.score);
      ctx.flags.push(...flags.slice(0, MAX_FLAGS));
      ctx.signals['phishing.max_score'] = top;
    },
  };
}

export const phishingLayer: Layer = createPhishingLayer(checkModel(modelFile));
