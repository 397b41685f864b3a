/// <reference path="./ntlm-client.d.ts" />
/**
 * The office's proxy when it wants Windows (NTLM) authentication, as a Windows domain's proxy (TMG,
 * Squid with ntlm_auth, Bluecoat…) often does: the CONNECT goes with a Type 1 message, the proxy's 407
 * carries its challenge (Type 2), and the CONNECT goes again on the same connection with the Type 3
 * answer (NTLM authenticates the connection). Then the tunnel carries TLS to the panel end to end.
 * The account is the one `http-auth add PROXY:PORT --ntlm …` kept on this machine (http-auth.json, 0600).
 * Messages: the maintained `@ewsjs/ntlm-client` (as for the ERP's own NTLM, see relay.ts).
 */
import type { ClientRequest } from "node:http";
import { isIP, connect as netConnect, type Socket } from "node:net";
import { hostname } from "node:os";
import { connect as tlsConnect } from "node:tls";
import { message } from "@ep/contracts";
import ntlm from "@ewsjs/ntlm-client";
import { Agent, type AgentConnectOpts } from "agent-base";
import type { AgentHttpAuth } from "./store.ts";

type Account = AgentHttpAuth[string];
type ProxyAnswer = { status: number; headers: Map<string, string>; closes: boolean };

/** The proxy refused the account (or the handshake): the merchant's sentence says what to check. */
export class ProxyAuthError extends Error {
  readonly code = "EPROXYAUTH";
}

/** The longest proxy answer head or body read before the tunnel (a 407 page is small). */
const MAX_ANSWER = 64 * 1024;

export class NtlmProxyAgent extends Agent {
  constructor(
    private readonly proxy: URL,
    private readonly account: Account,
  ) {
    super({ keepAlive: false });
  }

  async connect(req: ClientRequest, opts: AgentConnectOpts) {
    const proxyPort = Number(this.proxy.port) || (this.proxy.protocol === "https:" ? 443 : 80);
    const host = this.proxy.hostname.replace(/^\[|\]$/g, "");
    const socket: Socket =
      this.proxy.protocol === "https:"
        ? tlsConnect({ host, port: proxyPort, servername: host })
        : netConnect({ host, port: proxyPort });
    try {
      const target = `${isIP(opts.host ?? "") === 6 ? `[${opts.host}]` : opts.host}:${opts.port}`;
      const workstation = hostname().toUpperCase();
      const first = await this.connectOnce(
        socket,
        target,
        ntlm.createType1Message(workstation, this.account.domain),
      );
      let answer = first;
      if (first.status === 407) {
        const challenge = /NTLM\s+([A-Za-z0-9+/=]+)/i.exec(
          first.headers.get("proxy-authenticate") ?? "",
        )?.[1];
        if (!challenge || first.closes) throw this.refused(first.status);
        const type2 = ntlm.decodeType2Message(`NTLM ${challenge}`);
        answer = await this.connectOnce(
          socket,
          target,
          ntlm.createType3Message(
            type2,
            this.account.user,
            this.account.password,
            workstation,
            this.account.domain,
          ),
        );
      }
      if (answer.status !== 200) throw this.refused(answer.status);
      // Paused after the handshake: node's HTTP client reads on once it has the socket.
      req.once("socket", (s: Socket) => s.resume());
      if (!opts.secureEndpoint) return socket;
      const {
        host: _host,
        port: _port,
        path: _path,
        ...tlsOptions
      } = opts as AgentConnectOpts & { path?: string };
      const servername = opts.servername ?? opts.host ?? "";
      return tlsConnect({ ...tlsOptions, socket, servername: isIP(servername) ? undefined : servername });
    } catch (e) {
      socket.destroy();
      throw e;
    }
  }

  private refused(status: number) {
    return new ProxyAuthError(message("agents.cli.proxyRefused", { proxy: this.proxy.host, status }));
  }

  /** One CONNECT with an NTLM message; the answer's head (and body, read and dropped). */
  private connectOnce(socket: Socket, target: string, authorization: string): Promise<ProxyAnswer> {
    socket.write(
      `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n` +
        "Proxy-Connection: keep-alive\r\n\r\n",
    );
    return readAnswer(socket);
  }
}

/** Reads an HTTP answer head from the proxy and skips its body; bytes after it stay in the socket. */
function readAnswer(socket: Socket): Promise<ProxyAnswer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let head: (ProxyAnswer & { bodyLeft: number }) | undefined;
    const done = (error?: Error) => {
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
      if (error) return reject(error);
      socket.pause();
      if (buffered.length > 0) socket.unshift(buffered);
      const { status, headers, closes } = head!;
      resolve({ status, headers, closes });
    };
    const onError = (e: Error) => done(e);
    const onClose = () =>
      done(Object.assign(new Error("proxy closed the connection"), { code: "ECONNRESET" }));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!head) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buffered.length > MAX_ANSWER) done(new Error("proxy answer head too long"));
          return;
        }
        const [statusLine = "", ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
        const headers = new Map<string, string>();
        for (const line of lines) {
          const at = line.indexOf(":");
          if (at <= 0) continue;
          const name = line.slice(0, at).trim().toLowerCase();
          const value = line.slice(at + 1).trim();
          headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
        }
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
        const length = status === 200 ? 0 : Number(headers.get("content-length") ?? 0);
        if (!Number.isFinite(length) || length > MAX_ANSWER) return done(new Error("proxy answer too long"));
        const connection = `${headers.get("connection") ?? ""},${headers.get("proxy-connection") ?? ""}`;
        head = { status, headers, closes: /close/i.test(connection), bodyLeft: length };
        buffered = buffered.subarray(end + 4);
      }
      const skip = Math.min(head.bodyLeft, buffered.length);
      head.bodyLeft -= skip;
      buffered = buffered.subarray(skip);
      if (head.bodyLeft === 0) done();
    };
    socket.on("data", onData);
    socket.once("error", onError);
    socket.once("close", onClose);
    socket.resume();
  });
}
