import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the labelled evaluation set lives. It is not in the repository: it is maintained apart (with an encrypted
 * holdout beside it) and its secret rows carry realistic-format fake credentials that secret scanners and push
 * protection refuse. So the path is an option: `--dataset DIR`, else BASTION_EVAL_DATASET, else `../shared/eval`
 * beside the checkout (the maintainers' layout). DIR holds dev.jsonl, optionally dev.meta.jsonl and extra/*.jsonl.
 */
export const DATASET_ENV = 'BASTION_EVAL_DATASET';

export interface EvalDataset {
  dir: string;
  dev: string;
  extra: string[];
  /** How the path was chosen, for messages. */
  from: '--dataset' | typeof DATASET_ENV | 'default';
}

export class DatasetMissingError extends Error {}

/** `command` is how the caller is run, for the hint (e.g. `npm run train -- --import-dev`). */
export function resolveEvalDataset(root: string, flag: string | undefined, env: NodeJS.ProcessEnv = process.env, command = 'npm run eval --'): EvalDataset {
  const from: EvalDataset['from'] = flag ? '--dataset' : env[DATASET_ENV] ? DATASET_ENV : 'default';
  const dir = resolve(flag ?? env[DATASET_ENV] ?? join(root, '..', 'shared', 'eval'));
  const dev = join(dir, 'dev.jsonl');
  if (!existsSync(dev) || !statSync(dev).isFile()) {
    const where = from === 'default' ? `the default location ${dir}` : `${dir} (from ${from})`;
    throw new DatasetMissingError(
      `no evaluation dataset: ${where} has no dev.jsonl.\n` +
        `The labelled set is not part of the repository. Point to a folder holding dev.jsonl (optionally dev.meta.jsonl and extra/*.jsonl):\n` +
        `  ${command} --dataset /path/to/eval     or     ${DATASET_ENV}=/path/to/eval ${command.replace(/ --$/, '')}\n` +
        `or name a labelled file directly: ${command} file.jsonl`,
    );
  }
  const extraDir = join(dir, 'extra');
  const extra = existsSync(extraDir) ? readdirSync(extraDir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(extraDir, f)) : [];
  return { dir, dev, extra, from };
}
