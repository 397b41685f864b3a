/**
 * Where the T-Soft judge's evidence comes from. T-Soft publishes no schema (its REST1 PDF, 2013–14, is
 * readable only as a table of contents), so the judge is built from public code that talks to live
 * stores. Code ids are those of the public code index (`read_file` id); the index does not name their
 * repositories. The code is read, never copied: every rule and fixture here is ours.
 */

import type { CodeSource } from "../../testing/judge-fixtures";

export type Source = CodeSource;

export const SOURCES = {
  client: {
    codeId: "52484842784",
    file: "TypeScript REST1 client (TSoftClient: fetchToken, post, mapProduct)",
  },
  orderClient: {
    codeId: "53894632071",
    file: "TypeScript REST1 client (getAuthToken, tsoftPost, fetchAllTsoftOrders)",
  },
  pilotNotes: { codeId: "55903059532", file: "T-Soft REST1 pilot integration notes (Laravel project)" },
  setProducts: { codeId: "5968666097", file: "PHP form posting rest1/product/setProducts" },
  addSubProducts: {
    codeId: "5745967012",
    file: "PHP form posting rest1/subProduct/addSubProducts and subProduct/updateStock",
  },
  setSubProducts: { codeId: "36927263467", file: "C# tool posting rest1/subProduct/setSubProducts" },
  fetchSubProducts: {
    codeId: "37237612763",
    file: "Node script posting rest1/product/get with FetchSubProducts",
  },
} satisfies Record<string, Source>;
