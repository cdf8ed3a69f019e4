import type { FastifyReply, FastifyRequest } from 'fastify';
import { secretsEqual } from '../auth/key-material.js';
import { BastionError } from '../errors.js';

/**
 * Guards operator routes with X-Admin-Key (SPEC §5). The admin key is never accepted as an API key and an
 * API key never passes here: the two are separate secrets compared in constant time.
 */
export async function requireAdminKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const expected = request.server.services.config.adminKey;
  if (!expected) throw new BastionError('ADMIN_DISABLED');
  const presented = request.headers['x-admin-key'];
  if (typeof presented !== 'string' || !secretsEqual(presented, expected)) {
    throw new BastionError('ADMIN_UNAUTHENTICATED', { headers: { 'www-authenticate': 'AdminKey' } });
  }
}
