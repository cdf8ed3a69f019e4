import { hkdfSync, randomBytes } from 'node:crypto';
import { hasher, type Hasher } from '../../flows/values.js';
import type { Services } from '../../services.js';

const hashers = new WeakMap<object, Hasher>();
const HASH_LABEL = 'bastion/flow-value-hash/v1';

/**
 * One hash key per gateway: derived from BASTION_MASTER_KEY (the same on every replica and across restarts, so stored
 * states match), else random per process (a state stored by another process then matches no value: its sources
 * still count as seen and destinations read as unknown, so the decision only refuses more).
 */
export function flowHasher(services: Pick<Services, 'config'>): Hasher {
  let h = hashers.get(services);
  if (!h) {
    const master = services.config.masterKey;
    const key = master ? Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), HASH_LABEL, 32)) : randomBytes(32);
    hashers.set(services, (h = hasher(key)));
  }
  return h;
}
