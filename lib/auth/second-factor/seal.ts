import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for second-factor secrets at rest (TOTP seeds). The key is HKDF-SHA256 of the
 * configured key material (SECOND_FACTOR_KEY), so any long random string works; the sealed
 * form is `v1.<iv>.<tag>.<ciphertext>` in base64url, the version leaving room for rotation.
 * The factor's id is bound in as associated data: a sealed secret copied onto another
 * person's row does not open.
 */
const VERSION = "v1";

export function deriveSealKey(material: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "", "dgis second-factor seal v1", 32));
}

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
