import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config.ts";

export type Secrets = {
  /** HMAC key for session tokens and captcha challenges. */
  tokenSecret: string;
  /** Active credential-encryption key: id and 32 raw bytes (AES-256-GCM). */
  credentialKey: { id: string; key: Buffer };
};

type SecretsFile = { tokenSecret: string; credentialKeyId: string; credentialKey: string };

/**
 * Secrets come from the environment or, for the embedded default, from `DATA_DIR/secrets.json`,
 * generated once with mode 0600 and reused on every start.
 */
export function loadSecrets(config: Config): Secrets {
  let file: SecretsFile | undefined;
  const needFile = !config.tokenSecret || !config.credentialKey;
  if (needFile) {
    const path = join(config.dataDir, "secrets.json");
    if (existsSync(path)) {
      file = JSON.parse(readFileSync(path, "utf8")) as SecretsFile;
    } else {
      mkdirSync(config.dataDir, { recursive: true });
      file = {
        tokenSecret: randomBytes(48).toString("base64url"),
        credentialKeyId: "k1",
        credentialKey: randomBytes(32).toString("base64"),
      };
      writeFileSync(path, JSON.stringify(file, null, 2), { mode: 0o600 });
      chmodSync(path, 0o600);
    }
  }
  const tokenSecret = config.tokenSecret ?? file!.tokenSecret;
  const [id, b64] = config.credentialKey
    ? config.credentialKey.split(":")
    : [file!.credentialKeyId, file!.credentialKey];
  const key = Buffer.from(b64 ?? "", "base64");
  if (key.length !== 32 || !id) throw new Error("Credential key must be 32 bytes (AES-256-GCM)");
  return { tokenSecret, credentialKey: { id, key } };
}
