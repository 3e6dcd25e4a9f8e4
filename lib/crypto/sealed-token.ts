import { EncryptJWT, jwtDecrypt } from "jose";

/**
 * A JWE (dir + A256GCM, jose) that carries `payload` to the browser and back: it can neither
 * read nor forge it. The key comes from `deriveKey` (./derive-key.ts); the token expires after
 * `maxAgeS`.
 */
export async function sealToken(payload: Record<string, unknown>, key: Uint8Array, maxAgeS: number): Promise<string> {
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${maxAgeS}s`)
    .encrypt(key);
}

/** The payload, or null (expired, tampered, another key, another algorithm, no expiry). */
export async function openToken(token: string, key: Uint8Array): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtDecrypt(token, key, {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["exp"],
    });
    return payload;
  } catch {
    return null;
  }
}
