/** The IKAS emulator's records (products, variants, prices, stock, categories, orders), as state.ts keeps them. */

export interface IkasPrice {
  priceListId: string | null;
  sellPrice: number;
  discountPrice: number | null;
  buyPrice: number | null;
  currency: string;
}

export interface IkasStock {
  stockLocationId: string;
  stockCount: number;
}

/** A variant's link to one option value (`VariantValueRelation`). */
export interface IkasValueRef {
  variantTypeId: string;
  variantValueId: string;
}

/** An option type ("Beden") and its values, an entity of its own in IKAS. */
export interface IkasVariantType {
  id: string;
  name: string;
  selectionType: "CHOICE" | "COLOR";
  values: Array<{ id: string; name: string; deleted: boolean }>;
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
}

export interface IkasProductVariantType {
  order: number;
  variantTypeId: string;
  variantValueIds: string[];
}

export interface IkasVariant {
  id: string;
  sku: string | null;
  barcodeList: string[];
  isActive: boolean;
  prices: IkasPrice[];
  stocks: IkasStock[];
  variantValueIds: IkasValueRef[];
  deleted: boolean;
}

export interface IkasProduct {
  id: string;
  name: string;
  description: string | null;
  type: string;
  brandId: string | null;
  categoryIds: string[];
  salesChannelIds: string[];
  productVariantTypes: IkasProductVariantType[];
  vatRate: number | null;
  variants: IkasVariant[];
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
}

export interface IkasCategory {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
}

export interface IkasNamed {
  id: string;
  name: string;
  deleted: boolean;
}

export interface IkasAddress {
  firstName: string;
  lastName: string;
  company: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: { name: string };
  district: { name: string };
  country: { name: string };
  postalCode: string | null;
  phone: string | null;
  identityNumber: string | null;
  taxNumber: string | null;
  taxOffice: string | null;
  isDefault: boolean;
}

export interface IkasOrderLine {
  id: string;
  status: string;
  deleted: boolean;
  quantity: number;
  price: number;
  finalPrice: number;
  discountPrice: number | null;
  taxValue: number;
  variant: { id: string; sku: string | null; name: string; productId: string; barcodeList: string[] };
}

export interface IkasPackage {
  id: string;
  deleted: boolean;
  stockLocationId: string;
  orderPackageNumber: string;
  orderPackageFulfillStatus: string;
  orderLineItemIds: string[];
  createdAt: number;
  /** Last status or tracking change (the connector reads a FULFILLED package's as its dispatch date). */
  updatedAt: number;
  trackingInfo: {
    trackingNumber: string | null;
    cargoCompany: string | null;
    trackingLink: string | null;
  } | null;
}

export interface IkasInvoice {
  id: string;
  appId: string;
  appName: string;
  storeAppId: string;
  invoiceNumber: string;
  type: string;
  createdAt: number;
  hasPdf: boolean;
  /** Decoded PDF size (emulator bookkeeping, not in the schema). */
  size: number;
}

export interface IkasOrder {
  id: string;
  merchantId: string;
  deleted: boolean;
  archived: boolean;
  currencyRates: never[];
  shippingMethod: string;
  salesChannel: { id: string; name: string };
  orderNumber: string;
  status: string;
  orderPaymentStatus: string;
  orderPackageStatus: string;
  currencyCode: string;
  totalPrice: number;
  totalFinalPrice: number;
  orderedAt: number;
  createdAt: number;
  updatedAt: number;
  salesChannelId: string;
  note: string | null;
  customer: { id: string; firstName: string; lastName: string; email: string; phone: string | null };
  billingAddress: IkasAddress;
  shippingAddress: IkasAddress;
  shippingLines: Array<{ title: string; price: number; finalPrice: number }>;
  paymentMethods: Array<{ type: string; paymentGatewayName: string; price: number }>;
  orderLineItems: IkasOrderLine[];
  orderPackages: IkasPackage[];
  invoices: IkasInvoice[];
}
