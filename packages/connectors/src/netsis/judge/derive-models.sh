#!/usr/bin/env bash
# Re-derives netopenx-models.generated.json from the vendor's client DLL (never committed):
#   fetch github:gvardal/NetOpenX (commit 7786984e770001c8a36623623d8763e740d16690), then
#   git -C <mirror> show 7786984:Rest.Library/Dll/NetOpenX.Rest.Client.dll > x.dll
#   packages/connectors/src/netsis/judge/derive-models.sh x.dll > netopenx-models.generated.json
# It reads the metadata tables with monodis (property map → property names and CLR types per model
# type; enum constants; the user-string heap for routes) and prints the JSON the judge loads.
set -euo pipefail
DLL=${1:?usage: derive-models.sh NetOpenX.Rest.Client.dll}
W=$(mktemp -d)
monodis --property "$DLL" >"$W/property.txt"
monodis --propertymap "$DLL" >"$W/pmap.txt"
monodis --fields "$DLL" >"$W/fields.txt"
monodis --constant "$DLL" >"$W/const.txt"
python3 - "$W" <<'PY'
import json, re, sys
w = sys.argv[1]
props = {}
for l in open(f"{w}/property.txt"):
    m = re.match(r"^(\d+): (.*) (\w+) \(\s*\)\s*$", l.rstrip())
    if m: props[int(m.group(1))] = (m.group(2), m.group(3))
ents = []
for l in open(f"{w}/pmap.txt"):
    m = re.match(r"^\d+: (\S+) \((\d+)\) (\d+)", l)
    if m: ents.append((m.group(1), int(m.group(3))))
types = {}
for i, (t, s) in enumerate(ents):
    e = ents[i + 1][1] if i + 1 < len(ents) else max(props) + 1
    types[t] = [props[p] for p in range(s, e) if p in props]
def simp(t):
    m = re.match(r"valuetype \[mscorlib\]System.Nullable`1<(.*)>$", t)
    if m: t = m.group(1)
    if t == "string": return "string"
    if t == "int32": return "int"
    if t == "float64": return "number"
    if t == "bool": return "bool"
    if "System.DateTime" in t: return "datetime"
    m = re.match(r"valuetype NetOpenX\.Rest\.Client\.Model\.(?:Enums\.)?(\w+)$", t)
    if m: return "enum:" + m.group(1)
    m = re.match(r"class \[mscorlib\]System.Collections.Generic.List`1<(?:class NetOpenX\.Rest\.Client\.Model\.(?:\w+\.)*)?(\w+)>$", t)
    if m: return "list:" + m.group(1)
    m = re.match(r"class NetOpenX\.Rest\.Client\.Model\.(?:\w+\.)*(\w+)$", t)
    if m: return "object:" + m.group(1)
    return "T" if t == "!0" else "other:" + t
want = ["Model.JLogin", "Model.AuthResult", "Model.Meta", "Model.SelectFilter", "Model.SortParam",
        "Model.TResult`1", "Model.TSelectData`1", "Model.Custom.QueryParam", "Model.NetOpenX.ARPs",
        "Model.NetOpenX.ARPsPrimInfo", "Model.NetOpenX.ARPsSuppInfo", "Model.NetOpenX.Items",
        "Model.NetOpenX.ItemsPrimInfo", "Model.NetOpenX.ItemsSuppInfo", "Model.NetOpenX.ItemSlips",
        "Model.NetOpenX.ItemSlipsHeader", "Model.NetOpenX.ItemSlipLines"]
models = {}
for k in want:
    full = "NetOpenX.Rest.Client." + k
    models[k.split(".")[-1].replace("`1", "")] = {"dllType": full, "properties": {n: simp(t) for t, n in types[full]}}
# Enum members in declaration order with their constants (field table + constant table).
consts = {}
for l in open(f"{w}/const.txt"):
    m = re.match(r"^\d+: Parent= Field: (\d+) int32\(0x([0-9a-f]+)\)", l)
    if m: consts[int(m.group(1))] = int(m.group(2), 16)
enums, cur = {}, None
for l in open(f"{w}/fields.txt"):
    if l.startswith("########## "):
        name = l.split()[1]
        cur = name.split(".")[-1] if name.split(".")[-1] in ("JNVTTipi", "JTFaturaTip", "JTFaturaTipi") else None
        if cur: enums[cur] = {}
        continue
    m = re.match(r"^(\d+): valuetype \S+ (\w+): public static literal", l)
    if cur and m: enums[cur][m.group(2)] = consts[int(m.group(1))]
print(json.dumps({
    "source": {"repository": "gvardal/NetOpenX", "path": "Rest.Library/Dll/NetOpenX.Rest.Client.dll",
               "commit": "7786984e770001c8a36623623d8763e740d16690",
               "method": "monodis --typedef/--property/--propertymap/--fields/--constant/--userstrings of the DLL; property names and CLR types per model type (see derive-models.sh)"},
    "routes": {"base": "api/v2/", "token": "api/v2/token", "ARPs": "ARPs/", "ARPsById": "ARPs/{0}/",
               "Items": "Items/", "ItemsById": "Items/{0}/", "ItemsPrimInfo": "Items/PrimInfo/",
               "ItemSlips": "ItemSlips/", "ItemSlipsById": "ItemSlips/{0}/", "ItemSlipsMainInfo": "ItemSlips/MainInfo/",
               "Queries": "Queries/", "QueriesGet": "Queries/?tsql=", "revoke": "revoke"},
    "tokenForm": ["grant_type", "branchcode", "username", "password", "dbname", "dbuser", "dbpassword",
                  "dbtype", "hashcode", "idmtoken", "refresh_token"],
    "listQuery": ["first", "last", "limit", "offset", "expand", "sort", "fields", "q"],
    "enums": enums, "models": models}, indent=1, ensure_ascii=False))
PY
rm -rf "$W"
