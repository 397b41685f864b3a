import { describe, expect, it } from "vitest";
import { isReturned, returnKindOf } from "./status-words";

describe("returnKindOf", () => {
  it("reads cancellations and returns in the shops' and marketplaces' words", () => {
    expect(returnKindOf({ status: "Cancelled" })).toBe("cancel");
    expect(returnKindOf({ status: "UnSupplied" })).toBe("cancel");
    expect(returnKindOf({ status: "İPTAL EDİLDİ" })).toBe("cancel");
    expect(returnKindOf({ status: "CANCELED" })).toBe("cancel");
    expect(returnKindOf({ status: "Returned" })).toBe("return");
    expect(returnKindOf({ status: "Delivered", paymentStatus: "Refunded" })).toBe("return");
    expect(returnKindOf({ status: "İADE EDİLDİ" })).toBe("return");
  });

  it("leaves live orders and refused requests alone", () => {
    for (const status of ["Created", "Picking", "UNFULFILLED", "DELIVERED", "Shipped"])
      expect(returnKindOf({ status, paymentStatus: "PAID" }), status).toBeUndefined();
    for (const status of ["REFUND_REJECTED", "CANCEL_REJECTED", "RETURN_REJECTED", "İade Reddedildi"])
      expect(isReturned({ status }), status).toBe(false);
  });
});
