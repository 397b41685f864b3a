/** The Ideasoft shapes the connector reads and writes (subsets of the file's schemas, same names). */

export interface IdeaCurrency {
  id: number;
  label?: string;
  abbr?: string;
  status: 0 | 1;
  permissionStatus: 0 | 1;
  isPrimary: 0 | 1;
  isEffective: 0 | 1;
}

export interface IdeaCategory {
  id: number;
  name: string;
  sortOrder: number;
  status: 0 | 1;
  displayShowcaseContent: 0 | 1 | 2;
  showcaseContentDisplayType: 1 | 2 | 3;
  displayShowcaseFooterContent: 0 | 1 | 2;
  showcaseFooterContentDisplayType: 1 | 2 | 3;
  hasChildren: 0 | 1;
  isCombine: 0 | 1;
  parent?: IdeaCategory;
  slug?: string;
  tree?: string;
  createdAt?: string;
}

export interface IdeaBrand {
  id: number;
  name: string;
  status: 0 | 1;
  sortOrder: number;
  displayShowcaseContent: 0 | 1 | 2;
  displayShowcaseFooterContent: 0 | 1 | 2;
}

export interface IdeaProduct {
  id: number;
  name: string;
  fullName?: string;
  sku: string;
  barcode?: string;
  stockAmount: number;
  price1: number;
  currency: IdeaCurrency;
  discount?: number;
  discountType: 0 | 1;
  moneyOrderDiscount: number;
  taxIncluded: 0 | 1;
  tax?: number;
  stockTypeLabel: string;
  customShippingDisabled: 0 | 1;
  hasGift: 0 | 1;
  status: 0 | 1;
  hasOption: 0 | 1;
  categoryShowcaseStatus: 0 | 1;
  parent?: { id: number; name?: string };
  brand?: IdeaBrand;
  categories?: IdeaCategory[];
  children?: IdeaProduct[];
  updatedAt?: string;
  createdAt?: string;
}

export interface IdeaProductPrice {
  id?: number;
  type: 2 | 3 | 4 | 5 | 6;
  value: number;
  product: { id: number } & Partial<IdeaProduct>;
}

export interface IdeaAddress {
  id?: number;
  firstname: string;
  surname: string;
  country: string;
  location: string;
  subLocation: string;
  address: string;
  zipCode?: string;
  phoneNumber?: string;
  mobilePhoneNumber: string;
  taxNo?: string;
  taxOffice?: string;
  identityRegistrationNumber?: string;
  invoiceType?: "individual" | "corporate";
}

export interface IdeaOrderItem {
  id?: number;
  productName: string;
  productSku: string;
  productBarcode?: string;
  productPrice: number;
  productCurrency: string;
  productQuantity: number;
  productTax: number;
  productDiscount: number;
  productMoneyOrderDiscount: number;
  productWeight: number;
  productStockTypeLabel: string;
  isProductPromotioned: 0 | 1;
  discount?: number;
  product?: { id: number };
}

/** Scalar, required fields of `Order`: what a status update PUTs back. */
export const ORDER_SCALARS = [
  "id",
  "customerFirstname",
  "customerSurname",
  "customerEmail",
  "customerPhone",
  "paymentTypeName",
  "paymentProviderCode",
  "paymentProviderName",
  "paymentGatewayCode",
  "paymentGatewayName",
  "currency",
  "currencyRates",
  "amount",
  "couponDiscount",
  "taxAmount",
  "totalCustomTaxAmount",
  "promotionDiscount",
  "generalAmount",
  "shippingAmount",
  "additionalServiceAmount",
  "finalAmount",
  "sumOfGainedPoints",
  "installment",
  "installmentRate",
  "extraInstallment",
  "transactionId",
  "hasUserNote",
  "status",
  "paymentStatus",
  "nebimTransferStatus",
  "deviceType",
  "invoicePrintCount",
  "useGiftPackage",
  "usePromotion",
  "source",
] as const;

export interface IdeaOrder {
  id: number;
  customerFirstname: string;
  customerSurname: string;
  customerEmail: string;
  customerPhone: string;
  paymentTypeName: string;
  currency: string;
  amount: number;
  taxAmount: number;
  generalAmount: number;
  shippingAmount: number;
  finalAmount: number;
  couponDiscount: number;
  promotionDiscount: number;
  transactionId: string;
  status: string;
  paymentStatus: string;
  shippingCompanyName?: string;
  shippingTrackingCode?: string;
  shippingPaymentType?: "cash_on_delivery" | "standart_delivery" | "not_applicable";
  createdAt?: string;
  updatedAt?: string;
  orderItems?: IdeaOrderItem[];
  shippingAddress?: IdeaAddress;
  billingAddress?: IdeaAddress;
  member?: { id: number };
  [k: string]: unknown;
}
