import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, configureApiClient, request, requestBlob } from "../src/lib/api-client";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("api client", () => {
  const fetchMock = vi.fn<typeof fetch>();
  const onUnauthorized = vi.fn();
  let token: string | null = null;

  beforeEach(() => {
    vi.stubGlobal("fetch", fetchMock);
    token = null;
    configureApiClient({ getToken: () => token, onUnauthorized });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    onUnauthorized.mockReset();
  });

  it("unwraps the envelope and sends JSON with the bearer header", async () => {
    token = "abc.def.ghi";
    fetchMock.mockResolvedValue(
      json(200, { successful: true, statusCode: 200, message: "ok", data: { id: 7 } }),
    );
    const data = await api.put<{ id: number }>("/api/Account", { first_Name: "Ali" });
    expect(data).toEqual({ id: 7 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/Account");
    expect(init?.method).toBe("PUT");
    expect(init?.body).toBe(JSON.stringify({ first_Name: "Ali" }));
    const headers = (init?.headers ?? {}) as Record<string, string>;
    expect(headers.Authorization).toBe("Bearer abc.def.ghi");
    expect(headers.Accept).toBe("application/json");
    expect(headers["Content-Type"]).toBe("application/json");
  });

  it("sends no Authorization header without a token, and encodes query parameters", async () => {
    fetchMock.mockResolvedValue(json(200, { successful: true, statusCode: 200, message: "", data: null }));
    await request("/api/account/recover-password", {
      method: "POST",
      query: { email: "a+b@x.com", skip: undefined },
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/account/recover-password?email=a%2Bb%40x.com");
    expect((init?.headers ?? {}) as Record<string, string>).not.toHaveProperty("Authorization");
  });

  it("passes the abort signal through for GETs", async () => {
    fetchMock.mockResolvedValue(json(200, { successful: true, statusCode: 200, message: "", data: [] }));
    const controller = new AbortController();
    await api.get("/api/CustomerLicense", { signal: controller.signal });
    expect(fetchMock.mock.calls[0]![1]?.signal).toBe(controller.signal);
  });

  it("turns a failed envelope into an ApiError with business code and field errors", async () => {
    fetchMock.mockResolvedValue(
      json(400, {
        successful: false,
        statusCode: 400,
        message: "Lütfen formdaki hataları düzeltiniz.",
        data: { errors: [{ field: "email", message: "E-Posta zorunludur." }] },
      }),
    );
    const error = (await api.post("/api/account/register", {}).catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.httpStatus).toBe(400);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe("Lütfen formdaki hataları düzeltiniz.");
    expect(error.fieldErrors).toEqual([{ field: "email", message: "E-Posta zorunludur." }]);
  });

  it("keeps the business code of a conflict", async () => {
    fetchMock.mockResolvedValue(
      json(409, { successful: false, statusCode: 105, message: "var", data: null }),
    );
    const error = (await api.post("/api/account/register", {}).catch((e) => e)) as ApiError;
    expect(error.httpStatus).toBe(409);
    expect(error.statusCode).toBe(105);
  });

  it("calls the 401 handler only for calls that carried a token", async () => {
    fetchMock.mockResolvedValue(json(401, { successful: false, statusCode: 401, message: "x", data: null }));
    await api.post("/api/account/login", {}).catch(() => undefined);
    expect(onUnauthorized).not.toHaveBeenCalled();
    token = "t";
    await api.get("/api/Account").catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("reports an unreachable server as a network error", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    const error = (await api.get("/api/config").catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isNetworkError).toBe(true);
  });

  it("hands back the HTTP status so callers can treat 204 as they need", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const result = await request("/api/account/recover-password", { method: "POST" });
    expect(result.httpStatus).toBe(204);
  });

  describe("requestBlob (file downloads)", () => {
    it("answers the file with the server's file name, sending the query and the bearer header", async () => {
      token = "t.o.k";
      fetchMock.mockResolvedValue(
        new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
          status: 200,
          headers: {
            "content-disposition": 'attachment; filename="satis-raporu-2026-11-01-2026-11-24.xlsx"',
          },
        }),
      );
      const blob = await requestBlob("/api/SalesReport/export", { query: { startDate: "2026-11-01" } });
      expect(blob.size).toBe(4);
      expect(blob.fileName).toBe("satis-raporu-2026-11-01-2026-11-24.xlsx");
      const [url, init] = fetchMock.mock.calls[0]!;
      expect(url).toBe("/api/SalesReport/export?startDate=2026-11-01");
      expect((init?.headers ?? {}) as Record<string, string>).toMatchObject({
        Authorization: "Bearer t.o.k",
      });
    });

    it("reads a refusal's Turkish message from the envelope", async () => {
      fetchMock.mockResolvedValue(
        json(400, {
          successful: false,
          statusCode: 400,
          message: "Başlangıç tarihi bitiş tarihinden sonra olamaz.",
          data: null,
        }),
      );
      const error = await requestBlob("/api/SalesReport/export").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe("Başlangıç tarihi bitiş tarihinden sonra olamaz.");
      expect((error as ApiError).httpStatus).toBe(400);
    });

    it("hands a 401 to the session", async () => {
      token = "expired";
      fetchMock.mockResolvedValue(
        json(401, { successful: false, statusCode: 401, message: "x", data: null }),
      );
      await expect(requestBlob("/api/SalesReport/export")).rejects.toBeInstanceOf(ApiError);
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
    });
  });
});
