import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for connection credentials at rest. The key id travels with every value, so keys can
 * rotate: `keyId.iv.tag.ciphertext`, each part base64url.
 */
export class CredentialCipher {
  constructor(
    private readonly keys: Map<string, Buffer>,
    private readonly activeKeyId: string,
  ) {
    if (!keys.has(activeKeyId)) throw new Error(`Credential key ${activeKeyId} is missing`);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keys.get(this.activeKeyId)!, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [this.activeKeyId, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  decrypt(value: string): string {
    const [keyId, iv, tag, body] = value.split(".");
    const key = keyId ? this.keys.get(keyId) : undefined;
    if (!key || !iv || !tag || body === undefined)
      throw new Error(`Cannot decrypt credential (key ${keyId})`);
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }
}
