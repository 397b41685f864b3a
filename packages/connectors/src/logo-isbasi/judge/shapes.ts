/**
 * The judge for Logo İşbaşı: the endpoints we call and the shapes of their requests and answers, each
 * naming its source. The vendor Swagger 1.0.9 sits behind a login; the best public evidence is a third
 * party's notes of it with live findings (public code id 70569358786, read 2026-09-20/23) and the Go
 * client ozgur-yalcin/isbasi.go (src/isbasi.go @12f3208281e95fc7c7299a079652e2125eb8e548). Values are ours.
 */

export interface ShapeSource {
  ref: string;
  finding: string;
}

export const NOTES = "code id 70569358786 (3P notes of vendor Swagger 1.0.9 + live test findings)";
export const GO_CLIENT = "ozgur-yalcin/isbasi.go src/isbasi.go @12f3208281e95fc7c7299a079652e2125eb8e548";

export interface EndpointShape {
  method: "GET" | "POST" | "PUT";
  /** Path under /api/v1.0; `:id` a numeric segment. */
  path: string;
  operation: string;
  kind: "read" | "write";
  /** Needs Authorization + tenantId (all but the login). */
  authed: boolean;
  source: ShapeSource;
  inferred?: string;
}

export const ISBASI_ENDPOINTS: EndpointShape[] = [
  {
    method: "POST",
    path: "user/integrationLogin",
    operation: "integrationLogin",
    kind: "read",
    authed: false,
    source: {
      ref: `${NOTES} "Kimlik doğrulama"; ${GO_CLIENT} Login`,
      finding:
        "ApiKey header, body {username, password[, tenantId]} → data {accessToken, tenantId, userId, …}",
    },
    inferred: "whether the login counts against the read quota (we count it)",
  },
  {
    method: "POST",
    path: "products/products",
    operation: "listProducts",
    kind: "read",
    authed: true,
    source: {
      ref: `${NOTES} "Uçlar" (Ürün) and "Cari kartları" (list body); ${GO_CLIENT} ProductRequest`,
      finding:
        "list body {filters, sorting, paging {currentPage, pageSize}, count, excel} → data {count, data[]}; product {id, code, name, isActive, vatRate, category, units[barcode], mainUnit, prices[], brand}",
    },
    inferred:
      "the product list uses the same body as firms; modificationDate on product rows; pageSize 100 maximum",
  },
  {
    method: "POST",
    path: "firms/firms",
    operation: "listFirms",
    kind: "read",
    authed: true,
    source: {
      ref: `${NOTES} "Cari kartları — gerçek yanıtlar"`,
      finding: "list body, rows {id, code, name, …, modificationDate}; doc operators are text (IsEqualTo)",
    },
  },
  {
    method: "PUT",
    path: "firms",
    operation: "saveFirm",
    kind: "write",
    authed: true,
    source: {
      ref: `${NOTES} "Cari kartları"; ${GO_CLIENT} CreateFirm`,
      finding: "PUT /firms, new card id 0, answer data = new id; phoneNumbers[0] is what is stored",
    },
  },
  {
    method: "POST",
    path: "invoices/integrationInvoices",
    operation: "integrationInvoices",
    kind: "write",
    authed: true,
    source: {
      ref: `${NOTES} "SimpleInv" and "Gerçek API ile doğrulananlar"; ${GO_CLIENT} InvoiceRequest`,
      finding:
        "invoiceId 0, customer {code,…, address, tcknVkn, postalCode}, invoiceDate yyyy-MM-dd HH:mm:ss, currency TL, salesInvoiceDetails[] → data {invoiceId, uuid, no}",
    },
  },
  {
    method: "POST",
    path: "invoices/invoices",
    operation: "listInvoices",
    kind: "read",
    authed: true,
    source: {
      ref: `${NOTES} "Uçlar" (Satış faturaları listesi)`,
      finding: "list body; numeric operators 2 <=, 5 >=, 17 IN",
    },
    inferred: "filtering on description",
  },
  {
    method: "GET",
    path: "invoices/:id",
    operation: "getInvoice",
    kind: "read",
    authed: true,
    source: {
      ref: `${NOTES} "Fatura sorgu" and live GET invoices/{id}`,
      finding: "invoiceNumber, totalwotax, vatAmount, total, eGovernmentInvoice",
    },
    inferred: "uuid and salesInvoiceDetails on the detail answer",
  },
];

export const NUMERIC_OPERATORS = [2, 5, 17];
export const TEXT_OPERATORS = ["IsEqualTo"];

export interface AnswerFixture {
  id: string;
  operation: string;
  source: ShapeSource;
  status: number;
  answer: unknown;
}

const loginSource = ISBASI_ENDPOINTS[0]?.source as ShapeSource;

export const ISBASI_ANSWERS: AnswerFixture[] = [
  {
    id: "login",
    operation: "integrationLogin",
    source: loginSource,
    status: 200,
    answer: {
      code: 200,
      message: "",
      isError: false,
      data: {
        moduleToken: "m",
        accessToken: "eyJ.test.token",
        tokenType: "Bearer",
        tenantId: "4719c95b-0000-4000-8000-000000000001",
        userId: 42,
        licenses: [],
      },
    },
  },
  {
    id: "error-400",
    operation: "integrationInvoices",
    source: { ref: `${NOTES} "Genel"`, finding: "errors {code:400, message, isError:true, data:null}" },
    status: 400,
    answer: {
      code: 400,
      message: "Firma tanımında adres, posta kodu, şehir ve ilçe alanları dolu olmalıdır",
      isError: true,
      data: null,
    },
  },
  {
    id: "not-found-599",
    operation: "getInvoice",
    source: { ref: `${NOTES} "Uç varlığı GET ile sınanamıyor"`, finding: '599 "Kayıt Numarası Bulunamadı!"' },
    status: 599,
    answer: { code: 599, message: "Kayıt Numarası Bulunamadı!", isError: true, data: null },
  },
  {
    id: "invoice-created",
    operation: "integrationInvoices",
    source: { ref: `${NOTES} "Başarılı yanıt"`, finding: "data {invoiceId, uuid, no}" },
    status: 200,
    answer: {
      code: 200,
      message: "",
      isError: false,
      data: { invoiceId: 1966, uuid: "A7E0F552-4867-4646-A836-601C7E8C466F", no: "REE2026000000172" },
    },
  },
];
