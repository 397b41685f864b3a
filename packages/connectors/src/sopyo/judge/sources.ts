/**
 * Where the Sopyo judge's evidence comes from: a public TypeScript client and two versions of its test
 * file (code ids of the public code index; the repositories are not named there). Read, never copied.
 */

import type { CodeSource } from "../../testing/judge-fixtures";

export type Source = CodeSource;

export const SOURCES = {
  client: {
    codeId: "70163041287",
    file: "sopyo-delivery.client.ts (authenticate, ordersByTracking, ordersByCode, createOrderOnce)",
  },
  bareDetailTest: {
    codeId: "70492604855",
    file: "order-detail diagnostic test: detail answered as a bare object",
  },
  wrappedDetailTest: {
    codeId: "70097526779",
    file: "order-detail diagnostic test: detail answered under data",
  },
} satisfies Record<string, Source>;
