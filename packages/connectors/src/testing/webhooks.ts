/**
 * Webhook subscriptions of an emulated shop and their deliveries: the emulator stores what the connector
 * registered and, when an order is created, POSTs a signed delivery to each subscribed callback. The
 * emulator itself posts (plain fetch), not a connector, so the outbound guard does not apply here.
 */

export interface WebhookSubscription {
  id: string;
  topic: string;
  uri: string;
  createdAt: string;
}

export interface WebhookMessage {
  body: string;
  headers: Record<string, string>;
}

export class WebhookOutbox {
  readonly subscriptions: WebhookSubscription[] = [];
  readonly stats = { sent: 0, failed: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  private seq = 0;

  constructor(private readonly opts: { attempts?: number; now?: () => number } = {}) {}

  /** Subscribe `uri` to `topic`; the same pair twice keeps the first subscription. */
  subscribe(topic: string, uri: string): WebhookSubscription {
    const found = this.subscriptions.find((s) => s.topic === topic && s.uri === uri);
    if (found) return found;
    const sub = {
      id: String(++this.seq),
      topic,
      uri,
      createdAt: new Date(this.opts.now?.() ?? Date.now()).toISOString(),
    };
    this.subscriptions.push(sub);
    return sub;
  }

  unsubscribe(topic: string): number {
    const before = this.subscriptions.length;
    for (let i = this.subscriptions.length - 1; i >= 0; i--)
      if (this.subscriptions[i]!.topic === topic) this.subscriptions.splice(i, 1);
    return before - this.subscriptions.length;
  }

  /** Deliver to every subscriber of `topic`, in the background; non-2xx is retried (IKAS: 3 times). */
  emit(topic: string, build: (sub: WebhookSubscription) => WebhookMessage): void {
    for (const sub of this.subscriptions.filter((s) => s.topic === topic)) {
      const message = build(sub);
      const p = this.post(sub.uri, message).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** Resolves when every delivery under way has ended. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async post(uri: string, message: WebhookMessage): Promise<void> {
    const attempts = this.opts.attempts ?? 4;
    for (let i = 0; i < attempts; i++) {
      try {
        const res = await fetch(uri, {
          method: "POST",
          headers: { "content-type": "application/json", ...message.headers },
          body: message.body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.ok) {
          this.stats.sent++;
          return;
        }
      } catch {
        // unreachable callback: retried like a non-2xx answer
      }
      await new Promise((r) => setTimeout(r, 50 * (i + 1)));
    }
    this.stats.failed++;
  }
}
