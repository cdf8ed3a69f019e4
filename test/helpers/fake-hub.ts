import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server speaking the Hugging Face hub routes `bastion models pull` uses: model info with blobs, `resolve`
 * answering small files directly (ETag = git blob id) and LFS files with a 302 to a CDN path (X-Linked-Etag = sha256,
 * X-Linked-Size), and the CDN honouring Range. Faults are switched on per test.
 */
export interface FakeHub {
  url: string;
  /** Requests seen: method, path, the range asked for and whether a token came along. */
  seen: { path: string; range?: string; auth: boolean }[];
  faults: { cutOnce?: string; corrupt?: string; requireToken?: string };
}

const LFS = (name: string) => name.endsWith('.onnx');
const gitBlobId = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export async function fakeHub(t: { teardown(fn: () => unknown): void }, repo: string, files: Record<string, Buffer>, commit = 'c0ffee'.padEnd(40, '0')): Promise<FakeHub> {
  const hub: FakeHub = { url: '', seen: [], faults: {} };
  const byHash = new Map(Object.entries(files).filter(([n]) => LFS(n)).map(([n, b]) => [sha256(b), n]));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    hub.seen.push({ path, range: req.headers.range, auth: req.headers.authorization !== undefined });
    if (hub.faults.requireToken && req.headers.authorization !== `Bearer ${hub.faults.requireToken}` && !path.startsWith('/cdn/')) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Access to model is restricted"}');
      return;
    }
    if (path === `/api/models/${repo}/revision/main` || path === `/api/models/${repo}/revision/${commit}`) {
      const siblings = Object.entries(files).map(([rfilename, b]) => ({ rfilename, size: b.length, ...(LFS(rfilename) ? { lfs: { sha256: sha256(b), size: b.length } } : {}) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: repo, sha: commit, siblings: [...siblings, { rfilename: 'model.safetensors', size: 1 }] }));
      return;
    }
    const prefix = `/${repo}/resolve/`;
    if (path.startsWith(prefix)) {
      const name = path.slice(prefix.length).split('/').slice(1).join('/');
      const body = files[name];
      if (!body) return void res.writeHead(404).end();
      if (LFS(name)) {
        res.writeHead(302, { location: `/cdn/${sha256(body)}`, 'x-linked-etag': `"${sha256(body)}"`, 'x-linked-size': String(body.length), etag: `"${sha256(body)}"`, 'x-repo-commit': commit }).end();
        return;
      }
      res.writeHead(200, { etag: `"${gitBlobId(body)}"`, 'content-length': body.length, 'x-repo-commit': commit }).end(body);
      return;
    }
    if (path.startsWith('/cdn/')) {
      const name = byHash.get(path.slice(5));
      if (!name) return void res.writeHead(404).end();
      let body = files[name];
      if (hub.faults.corrupt === name) {
        body = Buffer.from(body);
        body[body.length >> 1] ^= 0xff;
      }
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const from = m ? Number(m[1]) : 0;
      const part = body.subarray(from);
      res.writeHead(m ? 206 : 200, { 'content-length': part.length, ...(m ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}) });
      if (hub.faults.cutOnce === name) {
        delete hub.faults.cutOnce;
        // Half of the file, then the connection drops.
        res.write(part.subarray(0, part.length >> 1), () => res.destroy());
        return;
      }
      res.end(part);
      return;
    }
    res.writeHead(404).end();
  };
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hub;
}
