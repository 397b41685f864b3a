/**
 * Answer fixtures in the shapes of the DLL's answer models, each naming its source. Values are ours.
 * `TResult<T>` = { IsSuccessful, ErrorCode, ErrorDesc, Message, Data }; `TSelectData<T>` extends
 * `TResult<List<T>>` with { Meta, Offset, TotalCount, Limit, First, Next, Previous } (DLL typespec 1);
 * `AuthResult` = { access_token, refresh_token, error, error_description } (an OAuth answer).
 */

import { NETOPENX_SOURCE } from "./models";

export interface NetsisAnswer {
  id: string;
  operation: string;
  status: number;
  answer: unknown;
  source: string;
}

export const NETSIS_ANSWERS: NetsisAnswer[] = [
  {
    id: "token-ok",
    operation: "token",
    status: 200,
    answer: { access_token: "AAEAA…", token_type: "bearer", expires_in: 1199, refresh_token: "9f1c…" },
    source: `${NETOPENX_SOURCE} AuthResult (access_token, refresh_token); token_type/expires_in: erps.md §3b (3P)`,
  },
  {
    id: "token-refused",
    operation: "token",
    status: 400,
    answer: { error: "invalid_grant", error_description: "Kullanıcı adı veya şifre hatalı." },
    source: `${NETOPENX_SOURCE} AuthResult (error, error_description); the Turkish text is ours`,
  },
  {
    id: "denied",
    operation: "Items",
    status: 401,
    answer: { Message: "Authorization has been denied for this request." },
    source: `${NETOPENX_SOURCE} user string "Authorization has been denied for this request." next to "401"`,
  },
  {
    id: "items-page",
    operation: "Items",
    status: 200,
    answer: {
      IsSuccessful: true,
      ErrorCode: null,
      ErrorDesc: null,
      Message: null,
      Data: [{ StokTemelBilgi: { Stok_Kodu: "STK-000001", Stok_Adi: "Pamuklu Tişört", KDV_Orani: 20 } }],
      Offset: 0,
      Limit: 1,
      TotalCount: 120,
    },
    source: `${NETOPENX_SOURCE} TSelectData\`1<Items>, Items.StokTemelBilgi: ItemsPrimInfo`,
  },
  {
    id: "slip-refused",
    operation: "ItemSlips",
    status: 200,
    answer: {
      IsSuccessful: false,
      ErrorCode: "0",
      ErrorDesc: "Stok kodu bulunamadı: YOK-999",
      Message: null,
      Data: null,
    },
    source: `${NETOPENX_SOURCE} TResult\`1; HTTP 200 with IsSuccessful false: erps.md §3b (3P); ErrorCode values inferred`,
  },
  {
    id: "record-locked",
    operation: "ItemSlips",
    status: 200,
    answer: {
      IsSuccessful: false,
      ErrorCode: "0",
      ErrorDesc: "Kayıt başka bir kullanıcı tarafından kilitlenmiş.",
      Message: null,
      Data: null,
    },
    source: `${NETOPENX_SOURCE} TResult\`1; the lock wording is inferred`,
  },
];
