import { Type } from 'typebox';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';

/** Wire shapes shared by the portal and session routes. Every input is bounded; unknown fields are refused. */

const { minLength, maxLength } = PORTAL_POLICY.password;

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'E-mail address (compared case-insensitively)' });
/** A password being set: 12+ characters, not common (checked by the handler). */
export const NewPassword = Type.String({ minLength, maxLength, description: `${minLength} to ${maxLength} characters; common passwords are refused` });
/** A password being checked: any length up to the bound, so a short wrong guess is a 401, not a hint. */
export const Password = Type.String({ minLength: 1, maxLength });
export const Code = Type.String({ pattern: '^[0-9]{6}$', description: '6-digit authenticator code' });
export const DisplayName = Type.String({ minLength: 1, maxLength: 128 });
export const Company = Type.String({ minLength: 1, maxLength: 128 });

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT (HS256); send as Authorization: Bearer' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
});

export const TotpRequired = Type.Object({
  totp_required: Type.Literal(true),
  challenge_token: Type.String({ description: 'Single-purpose; expires in minutes; send it to /portal/auth/totp/complete' }),
});

export const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
