import { type ChildProcess, fork } from "node:child_process";

/** A request to a bench child over IPC, and its answer (matched by id). */
export type IpcRequest = { id: number; cmd: string; args?: unknown };
export type IpcResponse = { id: number; ok: boolean; result?: unknown; error?: string };

/** A forked child answering `IpcRequest`s; its first message is `{ ready: payload }`. */
export class ChildControl<Ready> {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private exited = false;

  private constructor(
    readonly child: ChildProcess,
    readonly ready: Ready,
  ) {
    child.on("message", (m: IpcResponse) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(m.error));
    });
    child.on("exit", () => {
      this.exited = true;
      for (const w of this.waiting.values()) w.reject(new Error("bench child exited"));
      this.waiting.clear();
    });
  }

  static async start<Ready>(
    script: string,
    env: Record<string, string>,
    nodeArgs: string[] = [],
  ): Promise<ChildControl<Ready>> {
    const child = fork(script, [], {
      execArgv: ["--import", "tsx", ...nodeArgs],
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once("message", (m: { ready?: Ready; error?: string }) =>
        m.error ? reject(new Error(m.error)) : resolve(m.ready as Ready),
      );
      child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    });
    return new ChildControl<Ready>(child, ready);
  }

  call<T>(cmd: string, args?: unknown): Promise<T> {
    if (this.exited) return Promise.reject(new Error("bench child exited"));
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, args } satisfies IpcRequest);
    });
  }

  /** Waits for the child to exit after it was told to stop (or killed). */
  async stop(cmd = "close"): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((r) => this.child.once("exit", r));
    await this.call(cmd).catch(() => undefined);
    await exited;
  }
}

/** The child side: answers requests with `handlers`, after announcing `ready`. */
export function serveIpc(ready: unknown, handlers: Record<string, (args: unknown) => unknown>): void {
  process.on("message", async (m: IpcRequest) => {
    try {
      const handler = handlers[m.cmd];
      if (!handler) throw new Error(`unknown command ${m.cmd}`);
      const result = await handler(m.args);
      process.send?.({ id: m.id, ok: true, result } satisfies IpcResponse);
    } catch (error) {
      process.send?.({ id: m.id, ok: false, error: String(error) } satisfies IpcResponse);
    }
  });
  process.send?.({ ready });
}

/** The child side, when it cannot start. */
export function failIpc(error: unknown): void {
  process.send?.({ error: String(error instanceof Error ? (error.stack ?? error.message) : error) });
  process.exitCode = 1;
}
