/// <reference path="./js-md4.d.ts" />
/**
 * The server side of NTLM (MS-NLMP) as IIS does it in front of AX 2012's AIF services, for the emulator:
 * a Type 2 challenge for a client's Type 1, and the check of the client's Type 3 NTLMv2 answer against
 * the configured Windows account (NTProofStr = HMAC-MD5(NTOWFv2, server challenge ‖ blob)). Written from
 * the protocol specification, independently of the client library the agent uses. MD4 (the NT hash)
 * comes from `js-md4`: Node's OpenSSL 3 no longer offers it.
 */

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import md4 from "js-md4";

const SIGNATURE = Buffer.from("NTLMSSP\0", "ascii");
// NEGOTIATE_UNICODE | REQUEST_TARGET | NEGOTIATE_NTLM | TARGET_TYPE_DOMAIN | EXTENDED_SESSIONSECURITY | TARGET_INFO
const TYPE2_FLAGS = 0x00000001 | 0x00000004 | 0x00000200 | 0x00010000 | 0x00080000 | 0x00800000;

export interface WindowsAccount {
  domain: string;
  user: string;
  password: string;
}

/** The NTLM message type (1, 2, 3) of an `Authorization: NTLM …` value, or 0. */
export function ntlmMessage(header: string | undefined): { type: number; raw: Buffer } {
  const b64 = /^NTLM\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "")?.[1];
  const raw = b64 ? Buffer.from(b64, "base64") : Buffer.alloc(0);
  const type = raw.length >= 12 && raw.subarray(0, 8).equals(SIGNATURE) ? raw.readUInt32LE(8) : 0;
  return { type, raw };
}

/** A Type 2 message (base64) with a fresh 8-byte challenge; the target is the account's domain. */
export function type2Message(domain: string): { header: string; challenge: Buffer } {
  const challenge = randomBytes(8);
  const target = Buffer.from(domain.toUpperCase(), "utf16le");
  // Target info: MsvAvNbDomainName (2), then MsvAvEOL (0).
  const info = Buffer.alloc(4 + target.length + 4);
  info.writeUInt16LE(2, 0);
  info.writeUInt16LE(target.length, 2);
  target.copy(info, 4);
  const head = Buffer.alloc(48);
  SIGNATURE.copy(head, 0);
  head.writeUInt32LE(2, 8);
  head.writeUInt16LE(target.length, 12);
  head.writeUInt16LE(target.length, 14);
  head.writeUInt32LE(48, 16);
  head.writeUInt32LE(TYPE2_FLAGS, 20);
  challenge.copy(head, 24);
  head.writeUInt16LE(info.length, 40);
  head.writeUInt16LE(info.length, 42);
  head.writeUInt32LE(48 + target.length, 44);
  return { header: `NTLM ${Buffer.concat([head, target, info]).toString("base64")}`, challenge };
}

function field(raw: Buffer, at: number): Buffer {
  const len = raw.readUInt16LE(at);
  const off = raw.readUInt32LE(at + 4);
  if (off + len > raw.length) throw new Error("NTLM field out of range");
  return raw.subarray(off, off + len);
}

/** Whether a Type 3 message answers `challenge` for `account` with a valid NTLMv2 response. */
export function verifyType3(raw: Buffer, challenge: Buffer, account: WindowsAccount): boolean {
  try {
    const nt = field(raw, 20);
    const domain = field(raw, 28).toString("utf16le");
    const user = field(raw, 36).toString("utf16le");
    if (user.toLowerCase() !== account.user.toLowerCase()) return false;
    if (domain.toLowerCase() !== account.domain.toLowerCase()) return false;
    if (nt.length <= 24) return false; // NTLMv1 is refused (as a hardened IIS does)
    const ntHash = Buffer.from(md4.arrayBuffer(Buffer.from(account.password, "utf16le")));
    const ntowfv2 = createHmac("md5", ntHash)
      .update(Buffer.from(user.toUpperCase() + domain, "utf16le"))
      .digest();
    const proof = createHmac("md5", ntowfv2)
      .update(Buffer.concat([challenge, nt.subarray(16)]))
      .digest();
    return timingSafeEqual(proof, nt.subarray(0, 16));
  } catch {
    return false;
  }
}
