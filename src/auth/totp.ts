import { generateSecret, generateURI, verify } from 'otplib';
import { PORTAL_POLICY } from './portal-policy.js';

/**
 * RFC 6238 TOTP through otplib 13: SHA-1, 6 digits, 30-second steps (what authenticator apps expect).
 * Replay protection: the caller stores the accepted time step and passes it back as `afterTimeStep`.
 */
export function newTotpSecret(): string {
  // 20 bytes = 160 bits, RFC 4226 §4's recommended length.
  return generateSecret({ length: 20 });
}

export function otpauthUri(secret: string, label: string): string {
  return generateURI({ issuer: PORTAL_POLICY.totp.issuer, label, secret });
}

/** The RFC 6238 time step the code matched, or undefined (wrong, outside the tolerance, or not after `afterTimeStep`). */
export async function verifyTotp(secret: string, code: string, afterTimeStep: number | null): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await verify({
      secret,
      token: code,
      epochTolerance: PORTAL_POLICY.totp.epochToleranceSeconds,
      ...(afterTimeStep !== null ? { afterTimeStep } : {}),
    });
    return result.valid ? (result as { timeStep: number }).timeStep : undefined;
  } catch {
    return undefined;
  }
}
