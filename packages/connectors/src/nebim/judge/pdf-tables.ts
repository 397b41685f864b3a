/**
 * Field tables of the vendor PDF (`references/NEBIM V3 Integrator Document-EN.pdf`, see ./source.ts),
 * transcribed by hand for the models this connector sends: input key → [value type, max characters,
 * mandatory]. Mandatory "1" is required; "0-1" (CurrAccCode: empty when the system numbers customers) and
 * "0" are optional. The wholesale order (ModelType 5) has no table in the PDF: only its samples judge it.
 * Paths name array members with `[]` and object members with `.`.
 */

export type PdfType =
  | "integer"
  | "tinyint"
  | "smallint"
  | "string"
  | "money"
  | "float"
  | "bit"
  | "date"
  | "numeric";
export type PdfField = [type: PdfType, max: number | undefined, mandatory: "1" | "0" | "0-1"];

export interface PdfTable {
  title: string;
  /** Page heading in the PDF. */
  section: string;
  fields: Record<string, PdfField>;
}

/**
 * The addresses, attributes and communications both customer tables (wholesale and retail) end with. The
 * wholesale table prints CommAddress (string 100) between its header fields; the samples put it in
 * Communications, as the retail table does.
 */
const CUSTOMER_SUB_TABLES: Record<string, PdfField> = {
  "PostalAddresses[].AddressTypeCode": ["string", 10, "1"],
  "PostalAddresses[].CountryCode": ["string", 10, "1"],
  "PostalAddresses[].StateCode": ["string", 10, "0"],
  "PostalAddresses[].CityCode": ["string", 10, "0"],
  "PostalAddresses[].DistrictCode": ["string", 30, "0"],
  "PostalAddresses[].Address": ["string", 200, "0"],
  "Attributes[].AttributeTypeCode": ["tinyint", undefined, "0"],
  "Attributes[].AttributeCode": ["string", 20, "0"],
  "Communications[].CommunicationTypeCode": ["string", 20, "0"],
  "Communications[].CommAddress": ["string", 100, "0"],
};

export const PDF_TABLES: Record<string, PdfTable> = {
  "1": {
    title: "Connect",
    section: "Connect Model",
    fields: {
      ModelType: ["integer", undefined, "1"],
      DatabaseName: ["string", 128, "1"],
      UserGroupCode: ["string", 5, "1"],
      UserName: ["string", 15, "1"],
      Password: ["string", 100, "1"],
    },
  },
  "2": {
    title: "Wholesale Customer",
    section: "Creating Wholesale Customers",
    fields: {
      ModelType: ["integer", undefined, "1"],
      CurrAccCode: ["string", 30, "0-1"],
      CurrAccDescription: ["string", 100, "0"],
      IdentityNum: ["string", 20, "0"],
      OfficeCode: ["string", 5, "0"],
      WholeSalePriceGroupCode: ["string", 10, "0"],
      CreditLimit: ["money", undefined, "0"],
      CurrencyCode: ["string", 10, "0"],
      CustomerTypeCode: ["tinyint", undefined, "0"],
      TaxNumber: ["string", 20, "0"],
      TaxOfficeCode: ["string", 10, "0"],
      MersisNum: ["string", 20, "0"],
      ...CUSTOMER_SUB_TABLES,
    },
  },
  "3": {
    title: "Retail Customer",
    section: "Creating Retail Customer",
    fields: {
      ModelType: ["integer", undefined, "1"],
      CurrAccCode: ["string", 30, "0-1"],
      FirstName: ["string", 60, "0"],
      LastName: ["string", 60, "0"],
      IdentityNum: ["string", 20, "0"],
      OfficeCode: ["string", 5, "0"],
      RetailSalePriceGroupCode: ["string", 10, "0"],
      CreditLimit: ["money", undefined, "0"],
      CurrencyCode: ["string", 10, "0"],
      ...CUSTOMER_SUB_TABLES,
    },
  },
  "6": {
    title: "Retail Order",
    section: "Creating a Retail Sales Order",
    fields: {
      ModelType: ["integer", undefined, "1"],
      CustomerCode: ["string", 30, "1"],
      OfficeCode: ["string", 5, "1"],
      StoreCode: ["string", 30, "1"],
      StoreWareHouseCode: ["string", 10, "1"],
      DeliveryCompanyCode: ["string", 10, "0"],
      ShipmentMethodCode: ["string", 10, "0"],
      PosTerminalID: ["smallint", undefined, "0"],
      OrderDate: ["date", undefined, "0"],
      IsCompleted: ["bit", undefined, "0"],
      IsSalesViaInternet: ["bit", undefined, "0"],
      DocumentNumber: ["string", 30, "0"],
      Description: ["string", 200, "0"],
      // ColorCode / ItemCode / ItemDim1Code are marked 1, but "if UsedBarcode is sent, ItemCode, ColorCode,
      // ItemDim1Code can not be sent": the judge checks that rule (./requests.ts) instead of `required`.
      "Lines[].ColorCode": ["string", 10, "0"],
      "Lines[].ItemCode": ["string", 30, "0"],
      "Lines[].ItemDim1Code": ["string", 10, "0"],
      "Lines[].UsedBarcode": ["string", 30, "0"],
      "Lines[].Qty1": ["float", undefined, "1"],
      "Lines[].LDisRate1": ["float", undefined, "0"],
      "Lines[].PriceVI": ["money", undefined, "0"],
      "Lines[].LineDescription": ["string", 200, "0"],
      "OrdersViaInternetInfo.SalesURL": ["string", 30, "0"],
      "OrdersViaInternetInfo.PaymentTypeCode": ["tinyint", undefined, "0"],
      "OrdersViaInternetInfo.PaymentTypeDescription": ["string", 100, "0"],
      "OrdersViaInternetInfo.PaymentAgent": ["string", 100, "0"],
      "OrdersViaInternetInfo.PaymentDate": ["date", undefined, "0"],
      "OrdersViaInternetInfo.SendDate": ["date", undefined, "0"],
      "Discounts[].DiscountTypeCode": ["string", 10, "0"],
      "Discounts[].Value": ["float", undefined, "0"],
      "Discounts[].DiscountReasonCode": ["tinyint", undefined, "0"],
      "Discounts[].IsPercentage": ["bit", undefined, "0"],
      "Payments[].PaymentType": ["tinyint", undefined, "0"],
      "Payments[].Code": ["string", 30, "0"],
      "Payments[].CreditCardTypeCode": ["string", 10, "0"],
      "Payments[].InstallmentCount": ["tinyint", undefined, "0"],
      "Payments[].CurrencyCode": ["string", 10, "0"],
      "Payments[].Amount": ["money", undefined, "0"],
    },
  },
  "33": {
    title: "Procedure",
    section: "Procedure Call",
    fields: {
      ModelType: ["integer", undefined, "1"],
      ProcName: ["string", 100, "1"],
      "Parameters[].Name": ["string", undefined, "1"],
      "Parameters[].Value": ["string", undefined, "1"],
    },
  },
};
