import { randomBytes } from "node:crypto";

// 32 symbols so that one random byte maps to one symbol without modulo bias.
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomToken(20)}`;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}
