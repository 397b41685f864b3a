import type { JobType } from "@ep/contracts";
import { categorySync } from "./category-sync.ts";
import { channelListing } from "./channel-listing.ts";
import type { Flow } from "./flow.ts";
import { invoiceTransfer } from "./invoice-transfer.ts";
import { orderTransfer } from "./order-transfer.ts";
import { priceSync } from "./price-sync.ts";
import { productSync, productUpdate } from "./product-sync.ts";
import { stockSync } from "./stock-sync.ts";

/** The flow each job type runs. */
export const FLOWS: Record<JobType, Flow> = {
  CategoryIntegration: categorySync,
  // A sales channel's product job opens products on the marketplace by its category mapping.
  ProductIntegration: (ctx) => (ctx.channel ? channelListing(ctx) : productSync(ctx)),
  ProductUpdate: productUpdate,
  StockIntegration: stockSync,
  PriceIntegration: priceSync,
  OrderIntegration: orderTransfer,
  InvoiceIntegration: invoiceTransfer,
};
