import { defineConnector, textField } from "../sdk/skeleton";

/**
 * The systems with no public API the generic SQL / file connector serves (artifacts-by-system.md: kind 5
 * or thin 3P SQL fragments). Nothing about their schemas is assumed: the merchant's own queries and
 * column mapping say where everything is ("yapılandırılmış eşleme ile").
 */
const SYSTEMS: Array<[number, string, string, boolean]> = [
  [12, "Gizsoft", "gizsoft", true],
  [13, "Zirve", "zirve", true],
  [14, "Nebim Winner", "nebim-winner", true],
  [15, "Eta", "eta", true],
  [22, "LucaNet", "luca-net", false],
];

export function genericSqlDescriptor(type: number, name: string, system: string, onPremOnly: boolean) {
  return defineConnector("erp", {
    type,
    name,
    system,
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

export const genericSqlDescriptors = SYSTEMS.map(([type, name, system, onPrem]) =>
  genericSqlDescriptor(type, name, system, onPrem),
);
