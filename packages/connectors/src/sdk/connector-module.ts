/**
 * How a system registers itself: its descriptor, its factories, and what else its folder offers (webhooks,
 * an e-invoice provider, a sandbox). Apart from `connector.ts` so that the interfaces stay below the parts
 * that implement them.
 */
import type { SandboxEntry } from "../testing/sandbox";
import type {
  ConnectorDescriptor,
  ErpConnectorFactory,
  ShopConnectorFactory,
  ShopStockFileRow,
  ShopWebhooks,
} from "./connector";
import type { EInvoiceProviderFactory } from "./einvoice";

export interface ErpConnectorModule {
  descriptor: ConnectorDescriptor & { kind: "erp" };
  /** The built-in sandbox ("Deneme sistemlerine bağlan"), when the system has one. */
  sandbox?: SandboxEntry;
  create?: ErpConnectorFactory;
  /** E-invoice services listed as ERP types (Uyumsoft 8, 18): their `EInvoiceProvider`. */
  einvoice?: EInvoiceProviderFactory;
  /**
   * An e-invoice portal without an API (LucaPortal 19): invoices are generated (UBL, numbering) and
   * exported as files for the merchant to upload; nothing is sent.
   */
  fileInvoices?: true;
}

/** What a shop connected through its own files (`descriptor.fileShop`) says about them. */
export interface FileShopFiles {
  /** Each row of an uploaded orders file checked: accepted, or the Turkish reasons it is not. */
  checkOrderRows(
    columns: readonly string[],
    rows: readonly Record<string, unknown>[],
    first: number,
  ): Array<{ row: number; key: string; accepted: boolean; reasons: string[] }>;
  /** The stock and price file the merchant imports into the shop (.xlsx). */
  writeStockFile(rows: readonly ShopStockFileRow[]): Promise<Buffer>;
  /** Its download name, without the extension. */
  stockFileName: string;
}

export interface ShopConnectorModule {
  descriptor: ConnectorDescriptor & { kind: "shop" };
  /** A shop with no API, connected through the files it exports and imports (JetStok). */
  files?: FileShopFiles;
  create?: ShopConnectorFactory;
  /** The built-in sandbox ("Deneme sistemlerine bağlan"), when the system has one. */
  sandbox?: SandboxEntry;
  /** Present when the shop publishes order webhooks this connector can register and verify. */
  webhooks?: ShopWebhooks;
}

export type ConnectorModule = ErpConnectorModule | ShopConnectorModule;
