/**
 * Luca Koza emulator on the emulator kit, answering the requests of its judge (../judge/requests.ts):
 * `POST /<Method>.do` with JSON; `Giris.do` sets a `JSESSIONID` cookie (`{code: 0}`; `{code: 99}` for a wrong
 * login); data calls need the session and a chosen company/branch (`GuncelleYtkSirketSubeDegistir.do`),
 * else `{code: 1002, message: "Login olunmalı."}`; lists answer everything only with `No-Paging: true`.
 * Answer shapes are the inferred ones of VERIFIED.md. Data: the shared Turkish catalogue.
 */

import { randomBytes } from "node:crypto";
import { generateCatalog } from "../../testing/catalog";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";

export interface LucaKozaEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orgCode?: string;
  userName?: string;
  userPassword?: string;
  /** Company/branch ids of the user (more than one: the connection must name one). */
  branches?: Array<{ id: number; ack: string }>;
  /** Wrapper key of the stock card list (public code met several). */
  cardListKey?: "list" | "stokKartlari" | "stkKartListesi";
}

export interface LucaKozaEmulator extends Emulator {
  credentials: { apiUrl: string; orgCode: string; userName: string; userPassword: string };
  cards: Array<Record<string, unknown>>;
  depots: Array<{ depoId: number; kod: string; tanim: string }>;
  onHand: Map<number, Array<{ kartKodu: string; miktar: number }>>;
  /** Forget every session (a server restart / session timeout). */
  dropSessions(): void;
}

const LOGIN_REQUIRED = { code: 1002, message: "Login olunmalı." };

export async function startLucaKozaEmulator(opts: LucaKozaEmulatorOptions = {}): Promise<LucaKozaEmulator> {
  const seed = opts.seed ?? 1;
  const orgCode = opts.orgCode ?? "1234567";
  const userName = opts.userName ?? "admin";
  const userPassword = opts.userPassword ?? "koza-emulator-sifre";
  const branches = opts.branches ?? [{ id: 5501, ack: "Deneme Ticaret A.Ş. / Merkez" }];
  const cardListKey = opts.cardListKey ?? "list";
  const server = createEmulatorServer({
    ...opts,
    answers: {
      serverError: {
        status: 500,
        contentType: "text/html",
        body: "<html><body>HTTP Status 500 – Internal Server Error</body></html>",
      },
      tooManyRequests: () => ({ code: 429, message: "Çok fazla istek" }),
      lock: { status: 200, body: { code: 1, message: "Kayıt başka bir kullanıcı tarafından kilitlenmiş." } },
      unauthorized: { status: 200, body: LOGIN_REQUIRED },
    },
  });
  const { counters, now } = server;
  const items = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
  const categories: Array<{ kod: string; tanim: string }> = [];
  const catCode = new Map<string, string>();
  for (const i of items) {
    if (!catCode.has(i.categoryRoot)) {
      const code = String(catCode.size + 1).padStart(2, "0");
      catCode.set(i.categoryRoot, code);
      categories.push({ kod: code, tanim: i.categoryRoot });
    }
    const key = `${i.categoryRoot}/${i.categoryChild}`;
    if (!catCode.has(key)) {
      const code = `${catCode.get(i.categoryRoot)}.${String(catCode.size + 1).padStart(3, "0")}`;
      catCode.set(key, code);
      categories.push({ kod: code, tanim: i.categoryChild });
    }
  }
  const cards = items.map((i, n) => ({
    skartId: 60_000 + n + 1,
    kartKodu: i.sku,
    kartAdi: i.name,
    kategoriAgacKod: catCode.get(`${i.categoryRoot}/${i.categoryChild}`) ?? "",
    barkod: i.barcode,
    kartSatisKdvOran: i.vatRate / 100,
    kartTuru: 1,
    satilabilirFlag: 1,
  }));
  const depots = [
    { depoId: 1451, kod: "0001", tanim: "Merkez Depo" },
    { depoId: 1452, kod: "0002", tanim: "İzmir Depo" },
  ];
  const onHand = new Map<number, Array<{ kartKodu: string; miktar: number }>>([
    [1451, items.map((i) => ({ kartKodu: i.sku, miktar: i.stock1 }))],
    [1452, items.filter((i) => i.stock2 > 0).map((i) => ({ kartKodu: i.sku, miktar: i.stock2 }))],
  ]);
  const prices = new Map(
    items.map((i, n) => [
      60_000 + n + 1,
      [
        { listeAdi: "Perakende", fiyat: i.retailPrice, paraBirimKod: "TRY", kdvDahilFlag: 1 },
        { listeAdi: "Toptan", fiyat: i.wholesalePrice, paraBirimKod: "TRY", kdvDahilFlag: 0 },
      ],
    ]),
  );
  const sessions = new Map<string, { branch?: number }>();

  server.app.post("/:method", async (req, reply) => {
    const method = (req.params as { method: string }).method;
    const gate = await server.gate(req, reply, { kind: "read", operation: method });
    if (gate === "handled") return reply;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (method === "Giris.do") {
      if (body.orgCode !== orgCode || body.userName !== userName || body.userPassword !== userPassword) {
        counters.errors++;
        counters.authFailures++;
        return reply.send({ code: 99, message: "Kullanıcı-Parola Bilgisi Yanlış!" });
      }
      const id = randomBytes(16).toString("hex").toUpperCase();
      sessions.set(id, {});
      return reply
        .header("set-cookie", `JSESSIONID=${id}; Path=/; HttpOnly`)
        .send({ code: 0, message: "Giriş başarılı" });
    }
    const sid = /JSESSIONID=([A-F0-9]+)/.exec(String(req.headers.cookie ?? ""))?.[1];
    const session = sid ? sessions.get(sid) : undefined;
    if (!session) {
      counters.errors++;
      counters.authFailures++;
      return reply.send(LOGIN_REQUIRED);
    }
    if (method === "YdlUserResponsibilityOrgSs.do") return reply.send(branches);
    if (method === "GuncelleYtkSirketSubeDegistir.do") {
      const b = branches.find((x) => x.id === body.orgSirketSubeId);
      if (!b) return reply.send({ code: 1, message: "Şirket şube bulunamadı." });
      session.branch = b.id;
      return reply.send({
        message: "Oturumda Çalıştığınız Şirket Şube Başarıyla Değiştirildi.",
        sirketSubeAdi: b.ack,
      });
    }
    if (session.branch === undefined) return reply.send(LOGIN_REQUIRED);
    const all = <T>(rows: T[]) => (req.headers["no-paging"] === "true" ? rows : rows.slice(0, 20));
    switch (method) {
      case "ListeleStkSkart.do":
        return reply.send({ [cardListKey]: all(cards) });
      case "ListeleStkDepo.do":
        return reply.send({ depolar: all(depots) });
      case "ListeleStkSkartKategoriAgac.do":
        return reply.send({ list: all(categories) });
      case "ListeleStkSsEldekiMiktar.do": {
        const q = req.query as Record<string, string>;
        return reply.send({ list: all(onHand.get(Number(q["stkDepo.depoId"])) ?? []) });
      }
      case "ListeleStkSkartFiyatListeleri.do": {
        const id = Number((body.stkSkart as { skartId?: unknown } | undefined)?.skartId);
        return reply.send({ list: all(body.tip === "satis" ? (prices.get(id) ?? []) : []) });
      }
      default:
        // Struts answers an unknown action with an HTML error page.
        return reply.code(404).type("text/html").send("<html><body>There is no Action mapped</body></html>");
    }
  });

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { apiUrl: url, orgCode, userName, userPassword },
    cards,
    depots,
    onHand,
    dropSessions: () => sessions.clear(),
  };
}
