import type { ShopConnector } from "@ep/connectors";
import {
  type CreateErpMatchingRequest,
  type ErpMatchingDto,
  type ErpMatchingImportResult,
  type MessageKey,
  message,
} from "@ep/contracts";
import { encodeBinding, engineSchema, SyncLedger } from "@ep/engine";
import { and, desc, eq, ilike, or } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import type { Db } from "../../platform/db/database.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { connectorFor } from "../connections/connector-factory.ts";
import { type ConnectionRow, findConnection, openCredentials } from "../connections/repository.ts";
import { erpMatchings } from "./schema.ts";

type Row = typeof erpMatchings.$inferSelect;
/** Why a link was not saved; `heldBy` is the ERP code that already holds the shop variant. */
type Refusal = { key: MessageKey; heldBy?: string };

class BindingTaken extends Error {
  constructor(readonly heldBy: string) {
    super("shop variant already bound");
  }
}

const refusalText = (r: Refusal, shopSku: string) =>
  r.heldBy ? message("erpMatching.bindingTakenRow", { shopSku, heldBy: r.heldBy }) : message(r.key);
const MAX_IMPORT_ROWS = 5000;

const toDto = (r: Row): ErpMatchingDto => ({
  id: r.id,
  erpSku: r.erpSku,
  shopSku: r.shopSku,
  shopProductId: r.shopProductId,
  shopVariantId: r.shopVariantId,
  created_Date: r.createdAt.toISOString(),
});

/** Cells of one CSV line (`;` or `,`, double quotes allowed). */
function cells(line: string): string[] {
  const sep = line.includes(";") ? ";" : ",";
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === sep && !quoted) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** Removes the engine's variant binding of an ERP code on a shop connection. */
function dropVariantBinding(db: Tx, connectionId: number, erpSku: string) {
  const { syncLedger } = engineSchema;
  return db
    .delete(syncLedger)
    .where(
      and(
        eq(syncLedger.connectionId, connectionId),
        eq(syncLedger.entity, "variant"),
        eq(syncLedger.key, erpSku),
      ),
    );
}

/**
 * ERP matching (spec section 7): a manual link is stored and written as the engine's variant
 * binding of the ERP code, so the next stock, price and product runs use it.
 */
export class ErpMatchingService {
  constructor(private readonly ctx: AppContext) {}

  private get db(): Db {
    return this.ctx.database.db;
  }

  async list(companyId: number, search?: string): Promise<ErpMatchingDto[]> {
    const q = search ? `%${search.replace(/[%_\\]/g, "\\$&")}%` : null;
    const rows = await this.db
      .select()
      .from(erpMatchings)
      .where(
        and(
          eq(erpMatchings.companyId, companyId),
          q ? or(ilike(erpMatchings.erpSku, q), ilike(erpMatchings.shopSku, q)) : undefined,
        ),
      )
      .orderBy(desc(erpMatchings.id))
      .limit(500);
    return rows.map(toDto);
  }

  async get(companyId: number, id: number): Promise<ErpMatchingDto> {
    const [row] = await this.db
      .select()
      .from(erpMatchings)
      .where(and(eq(erpMatchings.companyId, companyId), eq(erpMatchings.id, id)));
    if (!row) throw AppError.notFound();
    return toDto(row);
  }

  private async shopSide(companyId: number): Promise<{ row: ConnectionRow; shop: ShopConnector }> {
    const row = await findConnection(this.db, companyId, "shop");
    if (!row) throw new AppError(409, "connectionSettings.notConnected");
    const creds = openCredentials(this.ctx.credentials, row);
    return { row, shop: connectorFor(this.ctx, companyId, "shop", row.systemType, creds) as ShopConnector };
  }

  private async lookUp(shop: ShopConnector, skus: string[]) {
    try {
      return await shop.findProductsBySku(skus);
    } catch {
      throw new AppError(409, "connectionSettings.listFailed");
    }
  }

  /**
   * Stores the link and binds the ERP code to the shop variant in the engine's ledger. A shop
   * variant feeds from one ERP code only: one already bound to another code (by an earlier sync or
   * lookup) is refused, naming that code, instead of being taken over, which would leave the other
   * code to fail every run.
   */
  private async store(
    companyId: number,
    connection: ConnectionRow,
    input: CreateErpMatchingRequest,
    ids: { productId: string; variantId: string },
  ): Promise<Row | Refusal> {
    const taken = await this.db
      .select({ id: erpMatchings.id })
      .from(erpMatchings)
      .where(
        and(
          eq(erpMatchings.companyId, companyId),
          or(eq(erpMatchings.erpSku, input.erpSku), eq(erpMatchings.shopSku, input.shopSku)),
        ),
      );
    if (taken.length > 0) return { key: "erpMatching.duplicate" };
    const externalId = encodeBinding(ids);
    const heldBy = await new SyncLedger(this.db, connection.id, companyId).holderOf("variant", externalId);
    if (heldBy !== undefined && heldBy !== input.erpSku) return { key: "erpMatching.bindingTaken", heldBy };
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(erpMatchings)
          .values({
            companyId,
            erpSku: input.erpSku,
            shopSku: input.shopSku,
            shopProductId: ids.productId,
            shopVariantId: ids.variantId,
          })
          .returning();
        const [conflict] = await new SyncLedger(tx, connection.id, companyId).put("variant", [
          { key: input.erpSku, externalId },
        ]);
        // A run bound the variant since the check above: nothing is saved.
        if (conflict) throw new BindingTaken(conflict.heldBy);
        return row!;
      });
    } catch (error) {
      if (error instanceof BindingTaken) return { key: "erpMatching.bindingTaken", heldBy: error.heldBy };
      throw error;
    }
  }

  async create(companyId: number, userId: number, input: CreateErpMatchingRequest): Promise<ErpMatchingDto> {
    const { row: connection, shop } = await this.shopSide(companyId);
    const found = (await this.lookUp(shop, [input.shopSku])).get(input.shopSku);
    if (!found) throw new AppError(400, "erpMatching.shopSkuNotFound");
    const stored = await this.store(companyId, connection, input, found);
    if ("key" in stored)
      throw new AppError(409, stored.key, 409, stored.heldBy ? { boundErpSku: stored.heldBy } : null);
    await recordActivity(this.db, {
      companyId,
      userId,
      action: "erpMatchingChanged",
      detail: `${input.erpSku} → ${input.shopSku}`,
    });
    return toDto(stored);
  }

  async remove(companyId: number, userId: number, id: number): Promise<void> {
    const match = await this.get(companyId, id);
    const connection = await findConnection(this.db, companyId, "shop");
    await this.db.transaction(async (tx) => {
      await tx
        .delete(erpMatchings)
        .where(and(eq(erpMatchings.companyId, companyId), eq(erpMatchings.id, id)));
      if (connection) {
        // Without the link the engine looks the ERP code up in the shop again.
        await dropVariantBinding(tx, connection.id, match.erpSku);
      }
    });
    await recordActivity(this.db, {
      companyId,
      userId,
      action: "erpMatchingChanged",
      detail: `${match.erpSku} → ${match.shopSku}`,
    });
  }

  /** Bulk import from a CSV text: every row answered as accepted or with the reason it was refused. */
  async import(companyId: number, userId: number, csv: string): Promise<ErpMatchingImportResult> {
    const lines = csv
      .split(/\r?\n/)
      .map((l, i) => ({ line: l, row: i + 1 }))
      .filter((l) => l.line.trim() !== "");
    if (lines.length > MAX_IMPORT_ROWS) throw new AppError(400, "erpMatching.tooManyRows");
    const parsed = lines.map(({ line, row }) => {
      const [erpSku = "", shopSku = ""] = cells(line);
      return { row, erpSku, shopSku };
    });
    // A first line naming its columns is a header, not a match.
    if (
      parsed[0] &&
      /erp/i.test(parsed[0].erpSku) &&
      /(shop|ma[gğ]aza|e-?ticaret)/i.test(parsed[0].shopSku)
    ) {
      parsed.shift();
    }
    const { row: connection, shop } = await this.shopSide(companyId);
    const valid = parsed.filter(
      (p) => p.erpSku && p.shopSku && p.erpSku.length <= 100 && p.shopSku.length <= 100,
    );
    const found = await this.lookUp(shop, [...new Set(valid.map((p) => p.shopSku))]);
    const rows: ErpMatchingImportResult["rows"] = [];
    for (const p of parsed) {
      let reason: MessageKey | null = null;
      const ids = found.get(p.shopSku);
      if (!valid.includes(p)) reason = "erpMatching.rowInvalid";
      else if (!ids) reason = "erpMatching.shopSkuNotFound";
      else {
        const stored = await this.store(companyId, connection, p, ids);
        if ("key" in stored) {
          rows.push({ ...p, accepted: false, reason: refusalText(stored, p.shopSku) });
          continue;
        }
      }
      rows.push({ ...p, accepted: reason === null, reason: reason ? message(reason) : null });
    }
    const accepted = rows.filter((r) => r.accepted).length;
    if (accepted > 0) {
      await recordActivity(this.db, {
        companyId,
        userId,
        action: "erpMatchingChanged",
        detail: message("erpMatching.imported", { accepted, refused: rows.length - accepted }),
      });
    }
    return { accepted, refused: rows.length - accepted, rows };
  }
}
