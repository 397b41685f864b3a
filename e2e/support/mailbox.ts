import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

export type CapturedMail = { to: string[]; from: string; subject: string; text: string; receivedAt: string };

/** Decodes the single text part nodemailer sends (quoted-printable, base64 or plain). */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) headers.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  let text: string;
  if (encoding === "base64") text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  else if (encoding === "quoted-printable") text = decodeQuotedPrintable(body);
  else text = body;
  return { subject: decodeHeader(headers.get("subject") ?? ""), text };
}

function decodeQuotedPrintable(input: string): string {
  const joined = input.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!;
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, "utf8")) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

/** An SMTP server that files every message as JSON in `dir`, so the test workers can read them. */
export async function startMailbox(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  await mkdir(dir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { subject, text } = parseMail(Buffer.concat(chunks).toString("utf8"));
        const mail: CapturedMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          subject,
          text,
          receivedAt: new Date().toISOString(),
        };
        seq += 1;
        writeFile(join(dir, `${Date.now()}-${seq}.json`), JSON.stringify(mail)).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Waits for a mail to `to` (and matching `filter`), reading the mailbox directory. */
export async function waitForMail(
  dir: string,
  to: string,
  filter: (mail: CapturedMail) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<CapturedMail> {
  const until = Date.now() + timeoutMs;
  const wanted = to.toLowerCase();
  while (Date.now() < until) {
    const files = (await readdir(dir).catch(() => [] as string[])).sort();
    for (const file of files) {
      const mail = JSON.parse(await readFile(join(dir, file), "utf8")) as CapturedMail;
      if (mail.to.includes(wanted) && filter(mail)) return mail;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}
