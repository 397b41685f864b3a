/**
 * The returns report as Amazon documents it (the Reports API model takes any `reportType` string, so the
 * report's own facts are kept here, with their sources; amazon/VERIFIED.md "Returns"):
 * - developer-docs.amazon.com/sp-api/docs/returns-reports-attributes ("Returns reports"):
 *   GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE is requested or scheduled, a tab-delimited flat file, "up to 60
 *   days of data in a single report", roles Inventory and Order Tracking or Direct to Consumer Shipping; its
 *   attributes in the order below;
 * - airbytehq/airbyte `source-amazon-seller-partner/.../schemas/GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE.json`
 *   (a client by another author that reads this report live): the same 32 column names, every value a string.
 */

export const AMAZON_RETURNS_REPORT_TYPE = "GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE";

/** Days of return requests one report may cover. */
export const AMAZON_RETURNS_REPORT_MAX_DAYS = 60;

/** The flat file's header, in order. */
export const AMAZON_RETURNS_COLUMNS = [
  "Order ID",
  "Order date",
  "Return request date",
  "Return request status",
  "Amazon RMA ID",
  "Merchant RMA ID",
  "Label type",
  "Label cost",
  "Currency code",
  "Return carrier",
  "Tracking ID",
  "Label to be paid by",
  "A-to-Z Claim",
  "Is prime",
  "ASIN",
  "Merchant SKU",
  "Item Name",
  "Return quantity",
  "Return Reason",
  "In policy",
  "Return type",
  "Resolution",
  "Invoice number",
  "Return delivery date",
  "Order Amount",
  "Order quantity",
  "SafeT Action reason",
  "SafeT claim id",
  "SafeT claim state",
  "SafeT claim creation time",
  "SafeT claim reimbursement amount",
  "Refunded Amount",
] as const;
