import type { ConnectorDescriptor, ShopCapability } from "@ep/connectors";
import { ConnectorError } from "@ep/connectors";
import { type JobType, message } from "@ep/contracts";

/** The shop write each job type cannot do without (order transfer only reads the shop). */
const JOB_NEEDS: Partial<Record<JobType, ShopCapability>> = {
  CategoryIntegration: "categoryWrite",
  ProductIntegration: "productWrite",
  ProductUpdate: "productWrite",
  StockIntegration: "stockWrite",
  PriceIntegration: "priceWrite",
  InvoiceIntegration: "invoiceWrite",
};

/**
 * A job the shop connector declares it cannot do (descriptor `unsupported`): the run is refused before
 * any call, with the connector's Turkish reason, instead of failing record by record.
 */
export function unsupportedJob(jobType: JobType, shop: ConnectorDescriptor): ConnectorError | undefined {
  const capability = JOB_NEEDS[jobType];
  const why = capability ? shop.unsupported?.[capability] : undefined;
  if (!why) return undefined;
  return new ConnectorError(`${shop.system}: ${jobType} is not supported`, {
    reason: "unsupported",
    system: shop.system,
    operation: jobType,
    merchantMessage: message("failure.jobUnsupported", { system: shop.name, why }),
  });
}
