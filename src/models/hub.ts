import { createHash, type Hash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import catalogue from '../../config/models.json' with { type: 'json' };
import { MANIFEST } from './folder.js';

/**
 * Downloads a model folder from the Hugging Face hub's HTTP API (the routes huggingface_hub uses):
 * `GET /api/models/{repo}/revision/{rev}?blobs=true` lists the files with their sizes and, for LFS files, sha256;
 * `GET /{repo}/resolve/{rev}/{file}` answers the file or redirects to a CDN, with `X-Linked-Etag` (sha256 of an LFS
 * file) and `X-Linked-Size`, and `ETag` (the git blob id of a small file). Every file is verified (sha256 for LFS,
 * the git blob id otherwise, and the pinned hash of config/models.json when one is set), parts resume with `Range`,
 * and the folder appears under the model directory only once complete (one rename).
 */
export interface PullOptions {
  repo: string;
  revision: string;
  modelDir: string;
  endpoint: string;
  token?: string;
  /** The ONNX file to fetch; default: the catalogue's, else the quantized export, else onnx/model.onnx. */
  onnx?: string;
  /** Progress lines (file names and sizes only). */
  log?: (line: string) => void;
}

interface Sibling {
  rfilename: string;
  size?: number;
  lfs?: { sha256?: string; size?: number };
}

const REPO = /^[A-Za-z0-9][\w.-]{0,95}\/[\w.-]{1,96}$/;
const REVISION = /^[\w.-]{1,128}$/;
const MAX_FILE_BYTES = 8 * 1024 ** 3;
const MAX_INFO_BYTES = 4 * 1024 * 1024;
const TOKENIZER_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json'];
const ONNX_PREFERENCE = ['onnx/model_quantized.onnx', 'onnx/model_int8.onnx', 'onnx/model.onnx', 'model.onnx'];

export class PullError extends Error {}

export async function pullModel(o: PullOptions): Promise<{ dir: string; files: string[]; commit: string }> {
  if (!REPO.test(o.repo) || o.repo.includes('..')) throw new PullError('REPO must be owner/name');
  if (!REVISION.test(o.revision) || o.revision.includes('..')) throw new PullError('--revision must be a branch, tag or commit');
  const log = o.log ?? (() => {});
  const auth: Record<string, string> = o.token ? { authorization: `Bearer ${o.token}` } : {};
  const infoRes = await fetch(`${o.endpoint}/api/models/${o.repo}/revision/${encodeURIComponent(o.revision)}?blobs=true`, { headers: auth, redirect: 'follow' });
  if (infoRes.status === 401 || infoRes.status === 403) throw new PullError(`${o.repo}: access refused (${infoRes.status}); a gated model needs HF_TOKEN with access granted`);
  if (infoRes.status === 404) throw new PullError(`${o.repo}@${o.revision}: not found on the hub`);
  if (!infoRes.ok) throw new PullError(`model info answered ${infoRes.status}`);
  const info = JSON.parse(await boundedText(infoRes, MAX_INFO_BYTES)) as { sha?: string; siblings?: Sibling[] };
  const siblings = new Map((info.siblings ?? []).map((s) => [s.rfilename, s]));
  const commit = typeof info.sha === 'string' && /^[0-9a-f]{40}$/.test(info.sha) ? info.sha : o.revision;

  const known = (catalogue.models as Record<string, { onnx: string | null; sha256: Record<string, string> | null }>)[o.repo];
  const onnx = o.onnx ?? [known?.onnx, ...ONNX_PREFERENCE].find((f) => f && siblings.has(f));
  if (!onnx || !siblings.has(onnx)) throw new PullError(`${o.repo}@${o.revision} has no ONNX export (${ONNX_PREFERENCE.join(', ')}): export one and copy the folder`);
  const wanted = [...TOKENIZER_FILES.flatMap((f) => [f, `onnx/${f}`]).filter((f) => siblings.has(f)), onnx];
  if (!wanted.some((f) => f.endsWith('tokenizer.json'))) throw new PullError(`${o.repo} has no tokenizer.json`);

  // Parts live in a staging folder keyed by repo and commit: a cut download resumes where it stopped.
  const staging = join(o.modelDir, '.incomplete', `${o.repo.replace('/', '--')}@${commit}`);
  for (const file of wanted) {
    const target = join(staging, file);
    if (existsSync(target)) continue;
    await download(o, auth, file, target, siblings.get(file)!, known?.sha256?.[file] ?? null, log);
  }
  writeFileSync(join(staging, MANIFEST), JSON.stringify({ repo: o.repo, revision: o.revision, commit, files: wanted, pulledAt: new Date().toISOString() }, null, 2));
  const dir = join(o.modelDir, o.repo);
  mkdirSync(dirname(dir), { recursive: true });
  if (existsSync(dir)) {
    const old = `${dir}.old-${process.pid}`;
    renameSync(dir, old);
    renameSync(staging, dir);
    rmSync(old, { recursive: true, force: true });
  } else renameSync(staging, dir);
  return { dir, files: wanted, commit };
}

async function download(o: PullOptions, auth: Record<string, string>, file: string, target: string, sibling: Sibling, pinned: string | null, log: (l: string) => void) {
  const part = `${target}.part`;
  mkdirSync(dirname(target), { recursive: true });
  const have = existsSync(part) ? statSync(part).size : 0;
  const url = `${o.endpoint}/${o.repo}/resolve/${encodeURIComponent(o.revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
  const { res, linked } = await resolve(url, auth, have);
  const expectedSize = sibling.lfs?.size ?? sibling.size ?? linked.size;
  const sha256 = (sibling.lfs?.sha256 ?? linked.sha256)?.toLowerCase();
  const gitBlob = sha256 ? undefined : linked.etag;
  if (expectedSize !== undefined && expectedSize > MAX_FILE_BYTES) throw new PullError(`${file}: ${expectedSize} bytes is more than ${MAX_FILE_BYTES}`);
  if (!sha256 && !gitBlob) throw new PullError(`${file}: the hub gave no hash to verify it against`);

  // 206: the server continues the part; 200: it sends the whole file again.
  const resumed = res.status === 206 && have > 0;
  if (!resumed && res.status !== 200) throw new PullError(`${file}: download answered ${res.status}`);
  const hash = createHash(sha256 ? 'sha256' : 'sha1');
  if (gitBlob) hash.update(`blob ${expectedSize ?? (resumed ? have : 0) + Number(res.headers.get('content-length'))}\0`);
  if (resumed) await hashFile(part, hash);
  const handle = await open(part, resumed ? 'a' : 'w');
  let written = resumed ? have : 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      written += chunk.length;
      if (written > (expectedSize ?? MAX_FILE_BYTES)) throw new PullError(`${file}: more bytes than announced`);
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  if (expectedSize !== undefined && written !== expectedSize) throw new PullError(`${file}: download cut at ${written} of ${expectedSize} bytes; run the same pull again to resume`);
  const digest = hash.digest('hex');
  const want = sha256 ?? gitBlob!;
  if (digest !== want || (pinned && digest !== pinned)) {
    rmSync(part, { force: true });
    throw new PullError(`${file}: content does not match its ${digest !== want ? (sha256 ? 'sha256' : 'git blob id') : 'pinned sha256'}; the corrupted part was removed`);
  }
  renameSync(part, target);
  log(`${file}  ${written} bytes  ${sha256 ? 'sha256' : 'git blob'} ok`);
}

/** Follows the hub's redirects by hand: the linked headers are on the first answer, and the token never leaves the hub. */
async function resolve(url: string, auth: Record<string, string>, from: number) {
  const linked: { sha256?: string; size?: number; etag?: string } = {};
  let at = url;
  for (let hop = 0; hop < 5; hop++) {
    const sameOrigin = new URL(at).origin === new URL(url).origin;
    const res = await fetch(at, { redirect: 'manual', headers: { ...(sameOrigin ? auth : {}), ...(from > 0 ? { range: `bytes=${from}-` } : {}), 'accept-encoding': 'identity' } });
    const linkedEtag = res.headers.get('x-linked-etag');
    const linkedSize = res.headers.get('x-linked-size');
    const etag = res.headers.get('etag');
    if (linkedEtag && linked.sha256 === undefined) linked.sha256 = unquote(linkedEtag);
    if (linkedSize && linked.size === undefined && /^\d+$/.test(linkedSize)) linked.size = Number(linkedSize);
    if (etag && linked.etag === undefined && !linkedEtag) linked.etag = unquote(etag);
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      at = new URL(res.headers.get('location')!, at).href;
      continue;
    }
    if (res.status === 401 || res.status === 403) throw new PullError(`access refused (${res.status}); a gated model needs HF_TOKEN`);
    return { res, linked };
  }
  throw new PullError('too many redirects');
}

function unquote(v: string): string {
  return v.replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
}

async function hashFile(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/** The body as text, read as it streams and given up past `max` bytes: an endless answer never fills memory. */
async function boundedText(res: Response, max: number): Promise<string> {
  const tooLarge = () => new PullError(`model info is larger than ${max} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (bytes > max) {
      await res.body!.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
