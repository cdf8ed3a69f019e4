import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { lazily } from '../../lazy.js';
import { requireBearer } from '../portal/bearer.js';

// qrcode is loaded by the first QR asked for (two-step setup is rare): a gateway that never draws one never holds it.
const loadQrCode = lazily(() => import('qrcode'));

// An otpauth URI of our own (src/auth/totp.ts): issuer, e-mail and a base32 secret fit well inside this bound.
const QrBody = Type.Object(
  { otpauth_uri: Type.String({ minLength: 16, maxLength: 512, pattern: '^otpauth://totp/[\\x21-\\x7e]+$', description: 'The otpauth_uri from POST /portal/auth/totp/setup' }) },
  { additionalProperties: false },
);

/**
 * POST /console/qr: the otpauth URI as an SVG QR code for the two-step setup page. qrcode ships no browser build, so
 * the console asks its own server; only a signed-in customer may ask, nothing is stored or logged, and the answer is
 * never cached (the URI holds the TOTP secret).
 */
export async function consoleQrRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: Static<typeof QrBody> }>(
    '/qr',
    {
      config: { security: 'bearer' },
      onRequest: requireBearer,
      schema: {
        summary: 'Console helper: render an otpauth:// URI as an SVG QR code',
        body: QrBody,
        response: { 200: { description: 'image/svg+xml', content: { 'image/svg+xml': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      const { default: QRCode } = await loadQrCode();
      const svg = await QRCode.toString(request.body.otpauth_uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return reply.header('cache-control', 'no-store').type('image/svg+xml').send(svg);
    },
  );
}
