/**
 * The T-Soft judge, part 2: answer shapes, as fixtures written by us. Keys, nesting, types and quirks come
 * from the source each fixture names; the values are ours. Parsing tests run the connector against
 * these answers (./judge.test.ts), never against answers our emulator invented. `inferred` lists keys no
 * source shows (the connector reads them when present and copes when absent).
 */

import type { AnswerFixture } from "../../testing/judge-fixtures";
import { SOURCES } from "./sources";

export type { AnswerFixture };

const ok = (data: unknown[]) => ({ success: true, message: [{ text: ["İşlem başarılı"] }], data });

export const TSOFT_ANSWERS: AnswerFixture[] = [
  {
    id: "login-ok",
    operation: "auth/login",
    source: SOURCES.client,
    finding: "The token is data[0].token of a success answer.",
    inferred: ["expirationTime (named by code id 55903059532, format unknown: not read)"],
    answer: ok([{ token: "c0ffee0123456789abcdef", expirationTime: "2026-11-23 20:00:00" }]),
  },
  {
    id: "login-refused",
    operation: "auth/login",
    source: SOURCES.client,
    finding: "A refused login is success=false with message[0].text as a list (or a string).",
    answer: { success: false, message: [{ text: ["Kullanıcı adı veya şifre hatalı"] }], data: [] },
  },
  {
    id: "token-refused",
    operation: "product/get",
    source: SOURCES.client,
    finding:
      "A stale token is answered inside HTTP 200 with success=false and a message naming the token; the client logs in again and repeats the call once.",
    inferred: ["the exact wording (the client only looks for 'token')"],
    answer: { success: false, message: [{ text: "Token geçersiz veya süresi dolmuş" }] },
  },
  {
    id: "not-allowed",
    operation: "report/getSalesReport",
    source: SOURCES.client,
    finding: "A method the web service user may not call answers 'Controller is not allowed!'.",
    answer: { success: false, message: [{ text: ["Controller is not allowed!"] }] },
  },
  {
    id: "categories",
    operation: "category/getCategories",
    source: SOURCES.client,
    finding: "Rows CategoryId, CategoryName, ParentCode ('0' at the root).",
    inferred: ["CategoryCode (the 'T<id>' code setCategorySortNumber sends as CategoryCode)"],
    answer: ok([
      { CategoryId: "12", CategoryCode: "T12", CategoryName: "Giyim", ParentCode: "0" },
      { CategoryId: "14", CategoryCode: "T14", CategoryName: "Tişört", ParentCode: "T12" },
    ]),
  },
  {
    id: "products",
    operation: "product/get",
    source: SOURCES.client,
    finding:
      "Rows ProductId, ProductCode, ProductName, Barcode, Stock, SellingPrice, ListPrice, DefaultCategoryId, DefaultCategoryPath, CreateDate, ImageUrl; variants under SubProducts with their own Barcode, Stock and SellingPrice (mapProduct).",
    inferred: [
      "SubProducts[].SubProductCode / MainProductCode / Property1 / Property2 (the write fields of addSubProducts)",
      "Brand, Vat, IsActive on the read side (the write fields of setProducts)",
      "numbers as strings (the write side sends strings; the client wraps every read in Number())",
    ],
    answer: ok([
      {
        ProductId: "301",
        ProductCode: "STK-000001",
        ProductName: "Koton Basic Tişört Siyah",
        Barcode: "8690000000019",
        Stock: "0",
        SellingPrice: "249.90",
        ListPrice: "299.90",
        Vat: "20",
        Currency: "TL",
        Brand: "Koton",
        IsActive: "1",
        DefaultCategoryId: "14",
        DefaultCategoryPath: "Giyim > Tişört",
        CreateDate: "2026-10-01 09:30:00",
        ImageUrl: "https://cdn.example.com.tr/stk-000001.jpg",
        ListNo: "999999",
        SubProducts: [
          {
            SubProductId: "901",
            MainProductCode: "STK-000001",
            SubProductCode: "STK-000001-M",
            Barcode: "8690000000026",
            Property1: "M",
            Stock: "12",
            SellingPrice: "249.90",
            IsActive: "1",
          },
          {
            SubProductId: "902",
            MainProductCode: "STK-000001",
            SubProductCode: "STK-000001-L",
            Barcode: "8690000000033",
            Property1: "L",
            Stock: "4",
            SellingPrice: "259.90",
            IsActive: "1",
          },
        ],
      },
      {
        ProductId: "302",
        ProductCode: "STK-000002",
        ProductName: "Paşabahçe Çay Bardağı Seti",
        Barcode: "8690000000040",
        Stock: "37",
        SellingPrice: "189.50",
        ListPrice: "0",
        Vat: "20",
        Currency: "TL",
        IsActive: "1",
        DefaultCategoryId: "21",
        DefaultCategoryPath: "Ev & Yaşam > Mutfak",
        CreateDate: "2026-09-12 14:05:00",
        ImageUrl: "",
      },
    ]),
  },
  {
    id: "products-object-data",
    operation: "product/get",
    source: SOURCES.client,
    finding: "extractRows: data may come as an object of rows instead of a list.",
    answer: {
      success: true,
      data: {
        "0": {
          ProductId: "303",
          ProductCode: "STK-000003",
          ProductName: "Süzme Bal 850 g",
          Stock: "5",
          SellingPrice: "420",
        },
      },
    },
  },
  {
    id: "orders",
    operation: "order/get",
    source: SOURCES.client,
    finding:
      "Order lines are under OrderDetails (the client marks it the real field name) with ProductCode, Quantity, Price, TotalPrice; statuses 9 (cancelled) and 10 (returned) per code id 55903059532.",
    inferred: [
      "OrderId, OrderCode, OrderDate, OrderStatusId, OrderStatus (the capitalised names code id 53894632071 tries)",
      "customer, address, totals, payment and cargo keys (CargoTrackingCode: the name the cargo write takes, shops.md)",
      "SellingCurrency / SellingCurrencyExchangeRate of a line: names from code id 46404093210 (order2/getOrders), read as TRY per unit",
    ],
    answer: ok([
      {
        OrderId: "5001",
        OrderCode: "TS-5001",
        OrderDate: "2026-11-20 10:15:00",
        UpdateDate: "2026-11-20 11:00:00",
        OrderStatusId: "1",
        OrderStatus: "Onay Bekliyor",
        Currency: "TL",
        PaymentType: "Kredi Kartı",
        CustomerCode: "M1001",
        CustomerName: "Ayşe",
        CustomerSurname: "Yılmaz",
        CustomerEmail: "ayse.yilmaz@example.com.tr",
        CustomerPhone: "05321234567",
        InvoiceAddress: "Merkez Mahallesi, Atatürk Caddesi No: 5",
        InvoiceTown: "Kadıköy",
        InvoiceCity: "İstanbul",
        DeliveryAddress: "Merkez Mahallesi, Atatürk Caddesi No: 5",
        DeliveryTown: "Kadıköy",
        DeliveryCity: "İstanbul",
        CargoPrice: "29.90",
        DiscountAmount: "0",
        TotalAmount: "529.70",
        OrderDetails: [
          {
            ProductCode: "STK-000001-M",
            ProductName: "Koton Basic Tişört Siyah M",
            Quantity: "2",
            Price: "249.90",
            TotalPrice: "499.80",
            Vat: "20",
            SellingCurrency: "TL",
            SellingCurrencyExchangeRate: "1",
          },
        ],
        CargoTrackingCode: "YK123456789",
      },
      {
        OrderId: "5002",
        OrderCode: "TS-5002",
        OrderDate: "2026-11-21 18:40:00",
        OrderStatusId: "9",
        OrderStatus: "İptal",
        TotalAmount: "189.50",
        OrderDetails: [{ ProductCode: "STK-000002", Quantity: "1", Price: "189.50", TotalPrice: "189.50" }],
      },
    ]),
  },
  {
    id: "write-ok",
    operation: "subProduct/setSubProducts",
    source: SOURCES.setSubProducts,
    finding: "A write answers {success, message:[{text:[…]}]}; success=false carries the reasons in text.",
    answer: { success: true, message: [{ text: ["1 kayıt güncellendi"] }] },
  },
  {
    id: "write-refused",
    operation: "subProduct/setSubProducts",
    source: SOURCES.setSubProducts,
    finding: "success=false with message[].text listing why.",
    answer: { success: false, message: [{ text: ["STK-999999 ürün bulunamadı"] }] },
  },
];

export function tsoftAnswer(id: string): unknown {
  const f = TSOFT_ANSWERS.find((x) => x.id === id);
  if (!f) throw new Error(`no T-Soft answer fixture ${id}`);
  return structuredClone(f.answer);
}
