import { parseArguments, isObject } from './args/json.js';
import { hostOf } from './secret-refs.js';

/**
 * Tool calls that only read, for the semantic layer to cap its model score on below HIGH (reported, not blocked)
 * when the effect judge finds nothing in them: the model learnt discovery commands and requests to private
 * addresses as attacks, while agents make them all day.
 *
 * A tool call that is one read-only cloud or cluster CLI command (`aws … describe-*`/`list-*`/`get-*`, `gcloud …
 * list|describe`, `az … list|show`, `kubectl get|describe|logs`, `helm list|status`, `terraform plan|show`,
 * `doctl … list|get`), optionally piped into a text filter. Agents run these all day; the semantic layer caps its
 * model score on them below HIGH (reported, not blocked) when the effect judge finds nothing, since the model
 * learnt discovery commands as attacks. Reads of secrets (`get-secret-value`, `kubectl get secret`, `terraform
 * output`, decryption) are not read-only in this sense.
 */

const CLIS = new Set(['aws', 'gcloud', 'gsutil', 'az', 'kubectl', 'helm', 'terraform', 'tofu', 'pulumi', 'doctl']);
const READ_VERB = /^(describe(-.*)?|list(-.*)?|get(-.*)?|show|ls|status|history|logs|top|explain|version|api-resources|plan|validate|preview|whoami|cluster-info)$/i;
const SECRET_READ = /secret|password|credential|token|decrypt|private|key-?material|export|access|authorization|login|output|env|kubeconfig|ssh/i;
const FILTERS = new Set(['jq', 'head', 'tail', 'grep', 'wc', 'sort', 'less', 'column', 'yq', 'cut', 'awk', 'uniq']);
const SAFE_TEXT = /^[\w@%+=:,./~\s'"|*?[\]{}-]{1,400}$/;

export function isReadOnlyCloudCall(text: string): boolean {
  const t = text.trim();
  if (!SAFE_TEXT.test(t) || /\$\(|`|>|;|&&|\|\|/.test(t)) return false;
  const [head, ...pipes] = t.split('|').map((s) => s.trim().split(/\s+/));
  if (pipes.some((p) => !FILTERS.has(p[0] ?? ''))) return false;
  if (!CLIS.has(head[0] ?? '')) return false;
  const operands = head.slice(1).filter((w) => !w.startsWith('-')).slice(0, 4);
  const verb = operands.find((w) => READ_VERB.test(w));
  if (!verb) return false;
  return !operands.some((w) => SECRET_READ.test(w)) && !head.some((w) => /^--with-decryption|^-o=?(yaml|json)?$/.test(w) && /secret/i.test(t));
}

const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'xh']);
const SENDS = /^(-d|--data.*|-F|--form.*|-T|--upload-file|--post-data|--post-file|--body-file|-K|--config|--json|-X|--request|--method|-e|--execute)$/;
const INTERNAL_SUFFIX = /(\.internal|\.local|\.localhost|\.svc|\.cluster\.local|\.corp|\.lan|\.consul|\.intranet)$/;

/** Loopback, RFC 1918 and single-label hosts and internal suffixes; link-local (169.254/16, metadata) never. */
export function isInternalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').replace(/:[0-9]{1,5}$/, '').toLowerCase();
  if (/^169\.254\./.test(h) || h.startsWith('fd00:ec2') || h.startsWith('metadata')) return false;
  if (/^(localhost|127(\.[0-9]{1,3}){3}|::1|host\.docker\.internal)$/.test(h)) return true;
  if (/^(10(\.[0-9]{1,3}){3}|192\.168(\.[0-9]{1,3}){2}|172\.(1[6-9]|2[0-9]|3[01])(\.[0-9]{1,3}){2})$/.test(h)) return true;
  if (/^[a-z0-9-]{1,63}$/.test(h)) return true;
  return INTERNAL_SUFFIX.test(h);
}

/** One HTTP GET to an internal host: `curl -s http://10.0.3.17:8080/healthz`, or `{"url": "http://orders:8080/…"}`. */
export function isInternalReadCall(text: string): boolean {
  const t = text.trim();
  const args = parseArguments(t);
  if (isObject(args)) {
    const entries = Object.entries(args);
    if (entries.length > 3) return false;
    const url = entries.find(([k]) => /^(url|endpoint|href|uri)$/i.test(k))?.[1];
    const method = entries.find(([k]) => /^method$/i.test(k))?.[1];
    if (typeof url !== 'string' || (method !== undefined && !/^(get|head)$/i.test(String(method)))) return false;
    if (entries.some(([k]) => !/^(url|endpoint|href|uri|method|headers?)$/i.test(k))) return false;
    const host = hostOf(url);
    return host !== undefined && isInternalHost(host);
  }
  if (!SAFE_TEXT.test(t) || /\$\(|`|>|;|&&|\|\|/.test(t)) return false;
  const [head, ...pipes] = t.split('|').map((s) => s.trim().split(/\s+/));
  if (pipes.some((p) => !FILTERS.has(p[0] ?? '')) || !HTTP_CLIENTS.has(head[0] ?? '')) return false;
  if (head.some((w) => SENDS.test(w))) return false;
  const urls = head.slice(1).map((w) => w.replace(/^['"]|['"]$/g, '')).filter((w) => /^https?:\/\//i.test(w));
  return urls.length > 0 && urls.every((u) => isInternalHost(hostOf(u) ?? ''));
}
