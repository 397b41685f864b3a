import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSupportUser } from "../src/modules/support/create-support-user.ts";
import { supportActions } from "../src/modules/support/schema.ts";
import { TICKET_AUTO_CLOSE_QUEUE } from "../src/modules/tickets/auto-close.ts";
import { tickets } from "../src/modules/tickets/schema.ts";
import { TicketService } from "../src/modules/tickets/service.ts";
import { mailMessages } from "../src/platform/db/schema.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");

type Part = { name: string; value: string } | { name: string; fileName: string; type: string; data: Buffer };

async function multipart(t: TestApp, url: string, token: string, parts: Part[]) {
  const boundary = `----ep${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("value" in p) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.type}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from("\r\n"));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const response = await t.app.inject({
    method: "POST",
    url,
    payload: Buffer.concat(chunks),
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
  });
  return { status: response.statusCode, body: response.json() };
}

const login = async (t: TestApp, email: string, password: string) => {
  const res = await call(t.app, "POST", "/api/account/login", { body: { email, password }, ip: "10.7.0.1" });
  return res.body.data.token as string;
};

describe("tickets", () => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof registerAndLogin>>;
  let b: Awaited<ReturnType<typeof registerAndLogin>>;
  let support: string;
  let failedTaskId: number;
  let runId: number;

  beforeAll(async () => {
    t = await startTestApp();
    a = await registerAndLogin(t.app);
    b = await registerAndLogin(t.app, { company_Name: "Başka Firma" });
    await createSupportUser(t.ctx.database.db, {
      email: "destek@entegrasyon.test",
      password: "Destek.Parola1",
    });
    support = await login(t, "destek@entegrasyon.test", "Destek.Parola1");
    // A failed task of company A, as an engine run leaves it.
    const db = t.ctx.database.db;
    const companyId = a.account.company.id as number;
    await ensureCompanyJobs(db, companyId, new Date());
    const [job] = await db.select().from(engineSchema.jobs).where(eq(engineSchema.jobs.companyId, companyId));
    const [run] = await db
      .insert(engineSchema.jobRuns)
      .values({
        jobId: job!.id,
        companyId,
        jobType: job!.type,
        jobName: job!.name,
        trigger: "manual",
        status: "PartiallyFailed",
        report: "1 kayıt aktarılamadı.",
      })
      .returning();
    runId = run!.id;
    const [failed] = await db
      .insert(engineSchema.jobErrorReports)
      .values({
        companyId,
        jobId: job!.id,
        jobType: job!.type,
        jobRunId: runId,
        entityKey: "SKU-1",
        errorType: "Validation",
        message: "Barkod eksik",
        payload: { sku: "SKU-1" },
      })
      .returning();
    failedTaskId = failed!.id;
  });
  afterAll(async () => t?.close());

  it("serves categories with parents", async () => {
    const top = await call(t.app, "GET", "/api/Ticket/categories", { token: a.token });
    expect(top.status).toBe(200);
    expect(top.body.data.map((c: { name: string }) => c.name)).toContain("Entegrasyon");
    expect(top.body.data.every((c: { parentId: null }) => c.parentId === null)).toBe(true);
    const sub = await call(t.app, "GET", "/api/Ticket/categories?parentid=1", { token: a.token });
    expect(sub.body.data.map((c: { name: string }) => c.name)).toContain("Ürün Aktarımı");
    expect(sub.body.data.every((c: { parentId: number }) => c.parentId === 1)).toBe(true);
  });

  let ticketId: number;

  it("creates a ticket from a failed task with attachments, and mails the support team", async () => {
    const res = await multipart(t, "/api/Ticket/my-company", a.token, [
      { name: "categoryId", value: "101" },
      { name: "subject", value: "Ürünler aktarılmıyor" },
      { name: "message", value: "SKU-1 mağazaya gitmedi." },
      { name: "jobErrorReportId", value: String(failedTaskId) },
      { name: "files", fileName: "ekran.png", type: "image/png", data: PNG },
      { name: "files", fileName: "../../rapor.pdf", type: "application/pdf", data: PDF },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Ticketınız oluşturuldu.");
    const ticket = res.body.data;
    ticketId = ticket.id;
    expect(ticket.status).toBe(0);
    expect(ticket.jobRunId).toBe(runId);
    expect(ticket.jobErrorReportId).toBe(failedTaskId);
    expect(ticket.category.name).toBe("Ürün Aktarımı");
    expect(ticket.parentCategory.name).toBe("Entegrasyon");
    expect(ticket.ticketReplies).toHaveLength(1);
    const files = ticket.ticketReplies[0].attachments;
    expect(files.map((f: { contentType: string }) => f.contentType)).toEqual([
      "image/png",
      "application/pdf",
    ]);
    expect(files[1].fileName).toBe("rapor.pdf");
    const download = await t.app.inject({
      method: "GET",
      url: `/api/Ticket/my-company/${ticketId}/attachments/${files[0].id}`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(download.rawPayload, PNG)).toBe(0);
    const mails = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, "destek@entegrasyon.test"));
    expect(mails.some((m) => m.subject === `Yeni ticket #${ticketId}: Ürünler aktarılmıyor`)).toBe(true);
  });

  it("checks attachments by content and size, and validates the form in Turkish", async () => {
    const fake = await multipart(t, "/api/Ticket/my-company", a.token, [
      { name: "categoryId", value: "101" },
      { name: "subject", value: "Sahte resim" },
      { name: "message", value: "x" },
      {
        name: "files",
        fileName: "resim.png",
        type: "image/png",
        data: Buffer.from("MZ\x90\x00 not an image"),
      },
    ]);
    expect(fake.status).toBe(400);
    expect(fake.body.message).toBe("Yalnızca resim (PNG, JPEG, GIF, WEBP) ve PDF dosyaları eklenebilir.");
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await multipart(t, "/api/Ticket/my-company", a.token, [
      { name: "categoryId", value: "101" },
      { name: "subject", value: "Büyük dosya" },
      { name: "message", value: "x" },
      { name: "files", fileName: "buyuk.pdf", type: "application/pdf", data: big },
    ]);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toBe("Her dosya en fazla 5 MB olabilir.");
    const tooMany = await multipart(t, "/api/Ticket/my-company", a.token, [
      { name: "categoryId", value: "101" },
      { name: "subject", value: "Çok dosya" },
      { name: "message", value: "x" },
      ...Array.from({ length: 6 }, (_, i) => ({
        name: "files",
        fileName: `${i}.png`,
        type: "image/png",
        data: PNG,
      })),
    ]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("En fazla 5 dosya eklenebilir.");
    const invalid = await call(t.app, "POST", "/api/Ticket/my-company", {
      token: a.token,
      body: { subject: "" },
    });
    expect(invalid.status).toBe(400);
    const messages = invalid.body.data.errors.map((e: { message: string }) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining(["Kategori seçimi zorunludur.", "Konu zorunludur.", "Mesaj zorunludur."]),
    );
    // Nothing was stored by the refused attempts.
    const list = await call(t.app, "GET", "/api/Ticket/my-company/1/20?orderBy=desc", { token: a.token });
    expect(list.body.data.totalCount).toBe(1);
  });

  it("keeps every company to its own tickets", async () => {
    const other = await call(t.app, "GET", `/api/Ticket/my-company/${ticketId}`, { token: b.token });
    expect(other.status).toBe(404);
    const list = await call(t.app, "GET", "/api/Ticket/my-company/1/20", { token: b.token });
    expect(list.body.data.dataList).toEqual([]);
    const reply = await call(t.app, "POST", "/api/Ticket/my-company/ticket_reply", {
      token: b.token,
      body: { ticketId, message: "Merhaba" },
    });
    expect(reply.status).toBe(404);
    const close = await call(
      t.app,
      "POST",
      `/api/Ticket/my-company/update-state?ticketid=${ticketId}&status=3`,
      { token: b.token },
    );
    expect(close.status).toBe(404);
    const file = await call(t.app, "GET", `/api/Ticket/my-company/${ticketId}/attachments/1`, {
      token: b.token,
    });
    expect(file.status).toBe(404);
    const linked = await call(t.app, "POST", "/api/Ticket/my-company", {
      token: b.token,
      body: { categoryId: 101, subject: "Başkasının hatası", message: "x", jobErrorReportId: failedTaskId },
    });
    expect(linked.status).toBe(404);
    const count = await call(t.app, "GET", "/api/Ticket/count-by-status/0", { token: b.token });
    expect(count.body.data).toBe(0);
  });

  it("keeps support and company accounts apart", async () => {
    for (const [method, url] of [
      ["GET", "/api/support/tickets/1/20"],
      ["GET", `/api/support/tickets/${ticketId}`],
      ["POST", `/api/support/tickets/${ticketId}/close`],
      ["GET", "/api/support/companies"],
      ["GET", "/api/support/announcements"],
      ["GET", "/api/support/actions"],
    ] as const) {
      const res = await call(t.app, method, url, { token: a.token });
      expect(res.status, url).toBe(403);
    }
    const reply = await call(t.app, "POST", `/api/support/tickets/${ticketId}/reply`, {
      token: a.token,
      body: { message: "x" },
    });
    expect(reply.status).toBe(403);
    const ann = await call(t.app, "POST", "/api/support/announcements", {
      token: a.token,
      body: { type: "Bilgi", content: "x" },
    });
    expect(ann.status).toBe(403);
    // A support account gets nothing from the company calls.
    for (const url of [
      `/api/Ticket/my-company/${ticketId}`,
      "/api/Ticket/my-company/1/20",
      "/api/Ticket/count-by-status/2",
      "/api/Dashboard",
    ]) {
      const res = await call(t.app, "GET", url, { token: support });
      expect(res.status, url).toBe(403);
    }
    const create = await call(t.app, "POST", "/api/Ticket/my-company", {
      token: support,
      body: { categoryId: 101, subject: "Destekten", message: "x" },
    });
    expect(create.status).toBe(403);
    // Registration never makes a support account.
    const reg = await call(t.app, "POST", "/api/account/register", {
      body: {
        company_Name: "Sızma",
        email: "sizma@example.com",
        password: "Guclu.Parola1",
        first_Name: "A",
        last_Name: "B",
        phone: "05321234567",
        erpType: 9,
        ecommerceType: 1,
        role: "support",
      },
    });
    expect(reg.status).toBe(200);
    expect(reg.body.data.companyUser.role).toBe("company");
  });

  it("walks the states: support answers (2), the customer replies (1), support answers, the customer closes (3)", async () => {
    const inbox = await call(t.app, "GET", "/api/support/tickets/1/20?status=0", { token: support });
    expect(inbox.status).toBe(200);
    expect(inbox.body.data.dataList.map((x: { id: number }) => x.id)).toContain(ticketId);
    const detail = await call(t.app, "GET", `/api/support/tickets/${ticketId}`, { token: support });
    expect(detail.body.data.company.id).toBe(a.account.company.id);
    expect(detail.body.data.run.id).toBe(runId);
    expect(detail.body.data.failedTask).toMatchObject({ message: "Barkod eksik", payload: { sku: "SKU-1" } });
    const supportFile = await t.app.inject({
      method: "GET",
      url: `/api/support/tickets/${ticketId}/attachments/${detail.body.data.ticketReplies[0].attachments[0].id}`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(supportFile.statusCode).toBe(200);

    const answer = await call(t.app, "POST", `/api/support/tickets/${ticketId}/reply`, {
      token: support,
      body: { message: "Barkodu ekleyip tekrar çalıştırınız." },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.status).toBe(2);
    const mine = await call(t.app, "GET", `/api/Ticket/my-company/${ticketId}`, { token: a.token });
    expect(mine.body.data.status).toBe(2);
    expect(mine.body.data.ticketReplies.at(-1)).toMatchObject({
      answeredBy: -1,
      message: "Barkodu ekleyip tekrar çalıştırınız.",
    });
    expect((await call(t.app, "GET", "/api/Ticket/count-by-status/2", { token: a.token })).body.data).toBe(1);
    const notes = await call(t.app, "GET", "/api/Notification/1/10", { token: a.token });
    expect(notes.status).toBe(200);
    expect(JSON.stringify(notes.body.data)).toContain("destek ekibi tarafından cevaplandı");
    // The notification opens the ticket it is about.
    const answered = notes.body.data.dataList.find((n: { notification_Text: string }) =>
      n.notification_Text.includes("cevaplandı"),
    );
    expect(answered.link).toBe(`/tickets/${ticketId}`);
    const mails = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, a.registration.email));
    expect(mails.some((m) => m.subject === `#${ticketId} numaralı ticketınız cevaplandı`)).toBe(true);

    const reply = await multipart(t, "/api/Ticket/my-company/ticket_reply", a.token, [
      { name: "ticketId", value: String(ticketId) },
      { name: "message", value: "Ekledim, yine olmadı." },
      { name: "files", fileName: "ikinci.png", type: "image/png", data: PNG },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe(1);
    expect(reply.body.data.ticketReplies.at(-1).attachments).toHaveLength(1);

    await call(t.app, "POST", `/api/support/tickets/${ticketId}/reply`, {
      token: support,
      body: { message: "Kontrol ediyoruz." },
    });
    const wrongState = await call(
      t.app,
      "POST",
      `/api/Ticket/my-company/update-state?ticketid=${ticketId}&status=1`,
      { token: a.token },
    );
    expect(wrongState.status).toBe(400);
    const closed = await call(
      t.app,
      "POST",
      `/api/Ticket/my-company/update-state?ticketid=${ticketId}&status=3`,
      { token: a.token },
    );
    expect(closed.status).toBe(200);
    expect(closed.body.data.status).toBe(3);
    const late = await call(t.app, "POST", "/api/Ticket/my-company/ticket_reply", {
      token: a.token,
      body: { ticketId, message: "Bir şey daha" },
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("Bu ticket kapatılmış; yeni mesaj eklenemez.");
    const lateSupport = await call(t.app, "POST", `/api/support/tickets/${ticketId}/reply`, {
      token: support,
      body: { message: "x" },
    });
    expect(lateSupport.status).toBe(400);

    const actions = await t.ctx.database.db
      .select()
      .from(supportActions)
      .where(eq(supportActions.ticketId, ticketId));
    expect(actions.map((x) => x.action)).toEqual(["ticket.reply", "ticket.reply"]);
  });

  it("lists with search, status and order", async () => {
    for (const subject of ["Fatura sorusu", "Stok farkı"]) {
      await call(t.app, "POST", "/api/Ticket/my-company", {
        token: a.token,
        body: { categoryId: 102, subject, message: "Merhaba" },
      });
    }
    const all = await call(t.app, "GET", "/api/Ticket/my-company/1/20?orderBy=desc", { token: a.token });
    expect(all.body.data.dataList.map((x: { subject: string }) => x.subject)).toEqual([
      "Stok farkı",
      "Fatura sorusu",
      "Ürünler aktarılmıyor",
    ]);
    const asc = await call(t.app, "GET", "/api/Ticket/my-company/1/2?orderBy=asc", { token: a.token });
    expect(asc.body.data).toMatchObject({ totalCount: 3, pageNumber: 1, pageSize: 2 });
    expect(asc.body.data.dataList[0].subject).toBe("Ürünler aktarılmıyor");
    const search = await call(
      t.app,
      "GET",
      `/api/Ticket/my-company/1/20?searchKey=${encodeURIComponent("fatura")}`,
      { token: a.token },
    );
    expect(search.body.data.dataList.map((x: { subject: string }) => x.subject)).toEqual(["Fatura sorusu"]);
    const byNumber = await call(t.app, "GET", `/api/Ticket/my-company/1/20?searchKey=%23${ticketId}`, {
      token: a.token,
    });
    expect(byNumber.body.data.dataList.map((x: { id: number }) => x.id)).toEqual([ticketId]);
    const closed = await call(t.app, "GET", "/api/Ticket/my-company/1/20?status=3", { token: a.token });
    expect(closed.body.data.dataList.map((x: { id: number }) => x.id)).toEqual([ticketId]);
    expect((await call(t.app, "GET", "/api/Ticket/count-by-status/0", { token: a.token })).body.data).toBe(2);
  });

  it("closes an answered ticket after 24 hours without a customer reply, on the queue", async () => {
    const opened = await call(t.app, "POST", "/api/Ticket/my-company", {
      token: a.token,
      body: { categoryId: 201, subject: "Bağlantı hatası", message: "ERP bağlanmıyor" },
    });
    const id = opened.body.data.id as number;
    const waiting = await call(t.app, "POST", "/api/Ticket/my-company", {
      token: a.token,
      body: { categoryId: 201, subject: "Cevap bekleyen", message: "Soru" },
    });
    await call(t.app, "POST", `/api/support/tickets/${id}/reply`, {
      token: support,
      body: { message: "Şifreyi yenileyiniz." },
    });
    await call(t.app, "POST", `/api/support/tickets/${waiting.body.data.id}/reply`, {
      token: support,
      body: { message: "Cevap" },
    });
    await call(t.app, "POST", "/api/Ticket/my-company/ticket_reply", {
      token: a.token,
      body: { ticketId: waiting.body.data.id, message: "Olmadı" },
    });

    const service = new TicketService(t.ctx);
    const statusOf = async (ticketId: number) =>
      (await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]?.status;
    t.clock.advance(23 * 3600_000);
    expect(await service.autoClose()).toBe(0);
    t.clock.advance(3600_000 + 1000);
    // The scheduled job's path: one message on the queue, handled by the worker.
    await t.ctx.queue.send(TICKET_AUTO_CLOSE_QUEUE, {});
    const until = Date.now() + 15_000;
    let status = 2;
    while (status === 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await statusOf(id)) ?? 2;
    }
    expect(status).toBe(3);
    expect(await statusOf(waiting.body.data.id)).toBe(1);
    expect(await service.autoClose()).toBe(0);
    const mails = await t.ctx.database.db
      .select()
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.to, a.registration.email),
          eq(mailMessages.subject, `#${id} numaralı ticketınız kapatıldı`),
        ),
      );
    expect(mails).toHaveLength(1);
  });

  it("lets support see companies, change a licence and publish announcements, recording each", async () => {
    // The clock moved a day on: sign in again.
    support = await login(t, "destek@entegrasyon.test", "Destek.Parola1");
    a.token = await login(t, a.registration.email, a.registration.password);
    b.token = await login(t, b.registration.email, b.registration.password);
    const companies = await call(t.app, "GET", "/api/support/companies", { token: support });
    expect(companies.status).toBe(200);
    const mine = companies.body.data.find((c: { id: number }) => c.id === a.account.company.id);
    expect(mine.failedTaskCount).toBe(1);
    expect(mine.lastRuns[0].id).toBe(runId);
    expect(mine.licenses.length).toBeGreaterThan(0);
    const license = mine.licenses[0];
    const before = new Date(license.expire_date).getTime();
    const extended = await call(t.app, "PUT", `/api/support/licenses/${license.id}`, {
      token: support,
      body: { extendDays: 30 },
    });
    expect(extended.status).toBe(200);
    expect(new Date(extended.body.data.expire_date).getTime()).toBe(before + 30 * 86_400_000);
    const mineLicences = await call(t.app, "GET", "/api/CustomerLicense", { token: a.token });
    expect(JSON.stringify(mineLicences.body.data)).toContain(extended.body.data.expire_date);

    const missing = await call(t.app, "POST", "/api/support/announcements", {
      token: support,
      body: { type: "", content: "" },
    });
    expect(missing.status).toBe(400);
    const published = await call(t.app, "POST", "/api/support/announcements", {
      token: support,
      body: { type: "Bakım", content: "Pazar 02:00-03:00 arası bakım yapılacaktır." },
    });
    expect(published.status).toBe(200);
    const list = await call(t.app, "GET", "/api/support/announcements", { token: support });
    expect(list.body.data[0].content).toBe("Pazar 02:00-03:00 arası bakım yapılacaktır.");
    // Every company's dashboard shows it.
    const dashboard = await call(t.app, "GET", "/api/Dashboard", { token: b.token });
    expect(dashboard.status).toBe(200);
    expect(JSON.stringify(dashboard.body.data.lastAnnouncements)).toContain(
      "Pazar 02:00-03:00 arası bakım yapılacaktır.",
    );
    const actions = await call(t.app, "GET", "/api/support/actions", { token: support });
    expect(actions.body.data.map((x: { action: string }) => x.action)).toEqual(
      expect.arrayContaining(
        ["license.update", "announcement.create", "ticket.reply", "ticket.close"].slice(0, 3),
      ),
    );
    expect(actions.body.data[0].supportUser).toBe("destek@entegrasyon.test");
  });
});
