import { defineConnector, textField } from "../sdk/skeleton";
import { ERP_SYSTEMS } from "../sdk/systems";

/**
 * The systems with no public API the generic SQL / file connector serves (artifacts-by-system.md: kind 5
 * or thin 3P SQL fragments). Nothing about their schemas is assumed: the merchant's own queries and
 * column mapping say where everything is ("yapılandırılmış eşleme ile").
 */
const SYSTEMS = ["gizsoft", "zirve", "nebim-winner", "eta", "luca-net"] as const;

export function genericSqlDescriptor(system: (typeof SYSTEMS)[number]) {
  // Where the spec's list says the system runs (LucaNet is hosted; the others need the agent).
  const onPremOnly = ERP_SYSTEMS.some(([, , key, onPrem]) => key === system && onPrem);
  return defineConnector("erp", system, {
    mapping: true,
    credentials: [
      textField(
        "sqlAlias",
        "Veritabanı takma adı",
        'Yerel bağlantı aracında "entegrasyon-agent db add AD --dialect firebird|mssql --host … --database … --user … --password …" ile kaydettiğiniz ad; parola yalnızca o makinede kalır.',
        { required: false, placeholder: "erp" },
      ),
      textField("sqlDialect", "Veritabanı türü", "firebird veya mssql", {
        required: false,
        default: "firebird",
      }),
      textField(
        "sqlConfig",
        "SQL ile bağlantı",
        'Sorgular ve sütun eşlemesi; aşağıdaki "SQL ile bağlantı" bölümünden düzenlenir.',
        { required: false },
      ),
    ],
    batch: { page: 500 },
    budget: { requests: 20, windowMs: 1000 },
    onPremOnly,
    notes:
      "Generic SQL / file connector: the merchant's SELECTs and column mapping, run through the on-site agent.",
  });
}

export const genericSqlDescriptors = SYSTEMS.map((system) => genericSqlDescriptor(system));
