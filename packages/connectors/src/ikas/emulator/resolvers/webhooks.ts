/** IKAS emulator: webhook subscriptions, one row per endpoint and scope (as `Webhook.scope` is one string). */

import type { WebhookSubscription } from "../../../testing/webhooks";
import { type IkasResolverContext, type Resolvers, validationError } from "./common";

function row(s: WebhookSubscription) {
  const at = Date.parse(s.createdAt);
  return { id: s.id, endpoint: s.uri, scope: s.topic, deleted: false, createdAt: at, updatedAt: at };
}

export function webhookResolvers(ctx: IkasResolverContext): Resolvers {
  const outbox = ctx.webhooks;
  if (!outbox) return {};
  return {
    listWebhook: () => outbox.subscriptions.map(row),
    saveWebhook: (a) => {
      const input = a.input as { endpoint: string; scopes: string[] };
      if (!/^https?:\/\//.test(input.endpoint)) throw validationError("endpoint must be an http(s) URL");
      return input.scopes.map((scope) => row(outbox.subscribe(scope, input.endpoint)));
    },
    deleteWebhook: (a) => {
      for (const scope of a.scopes as string[]) outbox.unsubscribe(scope);
      return true;
    },
  };
}
