/** A local HTTP endpoint that keeps every webhook delivery it receives (raw body + headers), for tests. */

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

export async function startWebhookSink(): Promise<{
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/webhooks/tok-1`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
