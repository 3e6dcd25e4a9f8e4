import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (TOTP seeds, the chat webhook URL), under a key from
 * `deriveKey` (./derive-key.ts). The sealed form is `v1.<iv>.<tag>.<ciphertext>` in base64url,
 * the version leaving room for rotation. `boundTo` (the row's id, or the setting's name) is
 * bound in as associated data: a sealed secret copied onto another row does not open.
 */
const VERSION = "v1";

export function sealSecret(plain: string, key: Buffer, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The plain secret, or an error that says nothing of it (wrong key, tampered, another row's). */
export function openSecret(sealed: string, key: Buffer, boundTo: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Sealed secret has an unknown format.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("Sealed secret does not open with this key.");
  }
}
