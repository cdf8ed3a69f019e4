import type { Dispatcher } from 'undici';
import { BastionError } from '../errors.js';
import { upstreamError } from './client.js';

/**
 * Reads a non-streamed upstream body, refusing (502) one larger than Bastion will parse and inspect. `origin` (the
 * upstream's, never a path) names it in the error when the body stalls or breaks.
 */
export async function readBounded(body: Dispatcher.ResponseData['body'], limitBytes: number, origin?: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > limitBytes) {
        body.destroy();
        throw new BastionError('UPSTREAM_UNREACHABLE', { message: `Upstream response exceeds ${limitBytes} bytes.` });
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw upstreamError(err, origin);
  }
  return Buffer.concat(chunks);
}
