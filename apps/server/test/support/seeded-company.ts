import { randomBytes } from "node:crypto";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { type ConnectedCompany, connectedCompany, runJob } from "../engine/engine-harness.ts";
import { call, type TestApp } from "../harness.ts";

/** A connected company with one of each record an endpoint can address by id. */
export type SeededCompany = ConnectedCompany & {
  /** Texts only this company's records hold: any answer to someone else that carries one leaked. */
  markers: string[];
  ids: {
    agent: number;
    connection: number;
    ticket: number;
    attachment: number;
    category: number;
    matching: number;
    run: number;
    license: number;
    errorReport: number;
    notification: number;
  };
  /** The id an operation's field most likely means, for this company. */
  idFor(path: string, field: string): number;
};

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

function multipart(fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const boundary = `----ep${randomBytes(6).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function seededCompany(t: TestApp): Promise<SeededCompany> {
  const c = await connectedCompany(t, { erp: { productCount: 12 }, shop: { productCount: 8 } });
  const tag = randomBytes(4).toString("hex");
  const markers = [`Gizli-${tag}`, `Ek-${tag}.png`, `Etkinlik-${tag}`, `Makine-${tag}`];
  const api = (method: "GET" | "POST", url: string, body?: unknown) =>
    call(t.app, method, url, { token: c.token, body });

  const categories = (await api("GET", "/api/Ticket/categories")).body.data as Array<{ id: number }>;
  const children = (await api("GET", `/api/Ticket/categories?parentid=${categories[0]?.id}`)).body
    .data as Array<{
    id: number;
  }>;
  const category = children[0]?.id ?? categories[0]?.id ?? 1;
  const form = multipart(
    { categoryId: String(category), subject: markers[0] as string, message: `${markers[0]} mesajı` },
    { name: markers[1] as string, data: PNG },
  );
  const created = await t.app.inject({
    method: "POST",
    url: "/api/Ticket/my-company",
    headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType },
    payload: form.payload,
  });
  if (created.statusCode !== 200) throw new Error(`ticket: ${created.body}`);
  const ticket = created.json().data as {
    id: number;
    ticketReplies: Array<{ attachments: Array<{ id: number }> }>;
  };

  await api("POST", "/api/activity", { activity_Description: markers[2] });
  const [erpSku] = [...c.erp.state.stokByKod.keys()];
  const [shopSku] = [...c.shop.state.skuIndex.keys()];
  const matching = await api("POST", "/api/ErpMatching", { erpSku, shopSku });
  const run = await runJob(t, c, "StockIntegration");
  const licenses = (await api("GET", "/api/CustomerLicense")).body.data as Array<{ id: number }>;
  const errors = (await api("GET", "/api/JobErrorReport/1/10/StockIntegration")).body.data?.dataList as
    | Array<{ id: number }>
    | undefined;
  const notifications = (await api("GET", "/api/Notification/1/10")).body.data?.dataList as
    | Array<{ id: number }>
    | undefined;

  // An on-site agent of the company (the agents, files and SQL preview routes name it or a connection).
  const pairing = (await api("POST", "/api/agents/pairing-code")).body.data as { code: string };
  const paired = await call(t.app, "POST", "/api/agents/pair", {
    body: { code: pairing.code, machineName: markers[3] },
  });
  if (paired.status !== 200) throw new Error(`agent: ${JSON.stringify(paired.body)}`);
  const connectionRows = await t.ctx.database.db
    .select({ id: engineSchema.connections.id })
    .from(engineSchema.connections)
    .where(eq(engineSchema.connections.companyId, c.companyId));

  const ids = {
    agent: paired.body.data.agentId as number,
    connection: connectionRows[0]?.id ?? 1,
    ticket: ticket.id,
    attachment: ticket.ticketReplies[0]?.attachments[0]?.id ?? 1,
    category,
    matching: (matching.body.data?.id as number | undefined) ?? 1,
    run: run.id as number,
    license: licenses[0]?.id ?? 1,
    errorReport: errors?.[0]?.id ?? 1,
    notification: notifications?.[0]?.id ?? 1,
  };
  const idFor = (path: string, field: string): number => {
    const p = path.toLowerCase();
    const f = field.toLowerCase();
    if (f === "attachmentid") return ids.attachment;
    if (f === "agentid" || p.startsWith("/api/agents")) return ids.agent;
    if (f === "connectionid") return ids.connection;
    if (f === "companyid") return c.companyId;
    if (f === "parentid" || f === "categoryid") return ids.category;
    if (f === "jobrunid") return ids.run;
    if (f === "joberrorreportid") return ids.errorReport;
    if (f === "ticketid" || p.includes("ticket")) return ids.ticket;
    if (f === "jobid" || p.startsWith("/api/job/") || p === "/api/job") return c.jobId("StockIntegration");
    if (f === "joberroridlist" || p.includes("joberrorreport")) return ids.errorReport;
    if (p.includes("jobhistory")) return ids.run;
    if (p.includes("erpmatching")) return ids.matching;
    if (p.includes("license")) return ids.license;
    if (p.includes("notification")) return ids.notification;
    return 1;
  };
  return { ...c, markers, ids, idFor };
}
