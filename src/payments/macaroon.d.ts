// Types for the parts of `macaroon` 3.0.4 (CJS, ships none) that src/payments/l402.ts uses.
declare module 'macaroon' {
  export interface Macaroon {
    readonly identifier: Uint8Array;
    readonly location: string;
    readonly signature: Uint8Array;
    readonly caveats: { identifier: Uint8Array; location?: string }[];
    addFirstPartyCaveat(caveatId: string | Uint8Array): void;
    /** Throws on a signature mismatch, or when `check` returns an error string for a first-party caveat. */
    verify(rootKey: Uint8Array, check: (caveat: string) => string | null, discharges?: Macaroon[]): void;
    exportBinary(): Uint8Array;
  }
  export function newMacaroon(params: { identifier: string | Uint8Array; location?: string; rootKey: string | Uint8Array; version?: 1 | 2 }): Macaroon;
  export function importMacaroon(obj: string | Uint8Array | object): Macaroon;
  export function bytesToBase64(bytes: Uint8Array): string;
}
