/**
 * What the Uyumsoft emulator keeps: the account it answers for, GİB's registered e-Fatura users (seeded
 * Turkish companies) and the outbox (ETTN → status, number, PDF bytes).
 */

import { Prng } from "../../testing/prng";
import { ADJECTIVES, CITIES, LAST_NAMES } from "../../testing/turkish-data";

export interface EmulatedUser {
  vkn: string;
  title: string;
  alias: string;
  firstCreated: string;
  enabled: boolean;
}

export interface OutboxInvoice {
  ettn: string;
  number: string;
  /** The service's own status word (`InvoiceStatus` enumeration). */
  status: string;
  scenario: "eInvoice" | "eArchive";
  localId?: string;
  pdf: Buffer;
  createdAt: string;
  cancelDate?: string;
}

export interface UyumsoftAccount {
  username: string;
  password: string;
  title: string;
  vkn: string;
  /** Three-letter series of the invoice numbers this account gets. */
  series: string;
}

/** Uyumsoft's public test user (erps.md §10). */
export const UYUMSOFT_TEST_ACCOUNT: UyumsoftAccount = {
  username: "Uyumsoft",
  password: "Uyumsoft",
  title: "Uyumsoft Deneme A.Ş.",
  vkn: "9000068418",
  series: "EMU",
};

/** A tiny valid PDF (one page, one line of text) with correct cross-reference offsets. */
export function tinyPdf(text: string): Buffer {
  const safe = text.replace(/[()\\]/g, "").replace(/[^\x20-\x7e]/g, "?");
  const stream = `BT /F1 12 Tf 40 800 Td (${safe}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

export class UyumsoftState {
  readonly users: EmulatedUser[] = [];
  readonly outbox = new Map<string, OutboxInvoice>();
  private serial = 0;

  constructor(
    readonly account: UyumsoftAccount = UYUMSOFT_TEST_ACCOUNT,
    seed: number | string = 1,
    userCount = 25,
  ) {
    const rng = new Prng(`${seed}:uyumsoft-users`);
    const kinds = ["Ticaret", "Tekstil", "Gıda", "Elektronik", "Mobilya", "Lojistik"];
    for (let i = 0; i < userCount; i++) {
      const name = LAST_NAMES[rng.int(0, LAST_NAMES.length - 1)] ?? "Yılmaz";
      const adj = ADJECTIVES[rng.int(0, ADJECTIVES.length - 1)] ?? "";
      const city = CITIES[rng.int(0, CITIES.length - 1)]?.city ?? "İstanbul";
      const kind = kinds[rng.int(0, kinds.length - 1)] ?? "Ticaret";
      const vkn = rng.digits(10);
      const day = new Date(Date.UTC(2020, 0, 1) + i * 37 * 86_400_000).toISOString();
      this.users.push({
        vkn,
        title: `${name} ${adj} ${kind} ${city} Ltd. Şti.`.replace(/\s+/g, " "),
        alias: `urn:mail:defaultpk@${vkn}.example.com.tr`,
        firstCreated: day,
        enabled: true,
      });
    }
  }

  isUser(vkn: string): boolean {
    return this.users.some((u) => u.vkn === vkn && u.enabled);
  }

  /** A GİB-format number: series + year + 9-digit serial. */
  nextNumber(): string {
    this.serial++;
    return `${this.account.series}${new Date().getUTCFullYear()}${String(this.serial).padStart(9, "0")}`;
  }

  store(inv: Omit<OutboxInvoice, "pdf" | "number" | "createdAt"> & { number?: string }): OutboxInvoice {
    const number = inv.number ?? this.nextNumber();
    const stored: OutboxInvoice = {
      ...inv,
      number,
      createdAt: new Date().toISOString(),
      pdf: tinyPdf(`${this.account.title} - Fatura ${number} - ETTN ${inv.ettn}`),
    };
    this.outbox.set(inv.ettn.toLowerCase(), stored);
    return stored;
  }

  find(ettn: string): OutboxInvoice | undefined {
    return this.outbox.get(ettn.toLowerCase());
  }

  /** Move a sent invoice on, as GİB and the receiver would (tests drive it). */
  setStatus(ettn: string, status: string): void {
    const inv = this.find(ettn);
    if (inv) inv.status = status;
  }
}
