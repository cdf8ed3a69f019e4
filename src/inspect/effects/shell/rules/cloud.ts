import { cliPatterns, isProductionScope, maxOperandScan, scopedDelete, scopeOptions, type CliPattern, type CloudEffect } from '../../cloud-settings.js';
import { finding } from '../../settings.js';
import type { ShellCommand } from '../../types.js';
import type { CommandRule } from './emit.js';
import { operands } from './targets.js';

/**
 * Cloud and cluster CLIs (aws, gsutil, gcloud, az, kubectl, doctl, terraform/tofu, pulumi; helm): destroying a
 * project, resource group, cluster, namespace, bucket, database or stack (ATT&CK T1485), opening storage or IAM to
 * everyone (T1530), minting credentials or privileged role bindings for another principal (T1098.001/.003), and
 * deleting releases or objects in a production namespace or context. Read-only verbs (describe, list, get, show)
 * never match a pattern; `helm uninstall` and `kubectl delete <kind> <name>` outside production scopes pass.
 */

const EFFECT: Record<CloudEffect, { id: string; effect: string; what: string }> = {
  destroy: { id: 'cloud-destroy', effect: 'cloud_destroy', what: 'destroys a cloud or cluster resource' },
  publicAccess: { id: 'cloud-public-access', effect: 'cloud_public_access', what: 'opens storage or IAM to everyone' },
  credentials: { id: 'cloud-credential-grant', effect: 'cloud_credential_grant', what: 'mints credentials or grants a privileged role' },
};

/** gcloud/az release tracks and the like sit before the command group. */
const SKIPPED_OPERANDS = new Set(['alpha', 'beta', 'preview']);

export const cloudClis: CommandRule = (cmd, _script, emit) => {
  const groups = cliPatterns.get(cmd.name);
  if (groups) {
    const ops = operands(cmd).filter((o) => !SKIPPED_OPERANDS.has(o.toLowerCase())).slice(0, maxOperandScan);
    for (const effect of ['destroy', 'publicAccess', 'credentials'] as const) {
      const hit = groups[effect].find((p) => matches(p, ops, cmd));
      if (hit) emit(finding(EFFECT[effect].id, EFFECT[effect].effect, `${cmd.name} ${EFFECT[effect].what}`));
    }
  }
  const verbs = scopedDelete.get(cmd.name);
  if (verbs && operands(cmd).slice(0, 2).some((o) => verbs.has(o.toLowerCase())) && productionScoped(cmd)) {
    emit(finding('cluster-production-delete', 'cluster_production_delete', `${cmd.name} deletes in a production namespace or context`));
  }
};

function matches(pattern: CliPattern, ops: string[], cmd: ShellCommand): boolean {
  let at = 0;
  for (const word of pattern.words) {
    if (word.kind === 'operand') {
      while (at < ops.length && !word.alternatives.some((re) => re.test(ops[at]))) at++;
      if (at >= ops.length) return false;
      at++;
    } else if (!word.names.some((name) => optionPresent(cmd.args, name, word.values))) return false;
  }
  return true;
}

const bare = (name: string): string => name.replace(/^-+/, '');

/**
 * `--name`, `-name` (terraform's single-dash long options), `--name=value`, `--name value`, and a one-letter
 * option inside a cluster (`-rf` has `-r`). With `values`, one of the option's values must match one of them.
 */
function optionPresent(args: string[], name: string, values?: RegExp[]): boolean {
  const want = bare(name);
  const short = want.length === 1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) continue;
    const eq = a.indexOf('=');
    const key = bare(eq >= 0 ? a.slice(0, eq) : a);
    const hit = short ? !a.startsWith('--') && (key === want || (eq < 0 && key.length > 1 && /^[a-z]+$/i.test(key) && key.includes(want))) : key.toLowerCase() === want.toLowerCase();
    if (!hit) continue;
    if (!values) return true;
    const value = eq >= 0 ? a.slice(eq + 1) : (args[i + 1] ?? '');
    if (values.some((re) => re.test(value))) return true;
  }
  return false;
}

/** The namespace, context or cluster a command is aimed at, when one of them names production. */
function productionScoped(cmd: ShellCommand): boolean {
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i];
    const eq = a.indexOf('=');
    if (eq > 0 && scopeOptions.has(a.slice(0, eq)) && isProductionScope(a.slice(eq + 1))) return true;
    if (scopeOptions.has(a) && isProductionScope(cmd.args[i + 1] ?? '')) return true;
    // `-nproduction`
    if (/^-n[^-=]/.test(a) && isProductionScope(a.slice(2))) return true;
  }
  // `kubectl delete ns production` is already a destroy; `kubectl delete deploy/api --context prod` is scoped above.
  return false;
}
