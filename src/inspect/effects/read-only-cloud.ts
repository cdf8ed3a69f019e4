/**
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
