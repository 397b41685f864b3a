import { readInvoice } from "./read.ts";
import { LABELS, partyLines, printedForm } from "./view.ts";

/**
 * The invoice as a page a person reads (the shop order's link, Faturalar › Görüntüle): GİB's standard
 * display laid out like `general.xslt` — seller top left, title, buyer ("SAYIN"), the header box
 * (customization, scenario, type, number, date and time, ETTN), the lines, the totals, notes.
 * Self-contained (inline CSS, no scripts, no external requests), every value escaped.
 */

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const rows = (items: { label: string; value: string }[], cls: string) =>
  items.map((r) => `<tr><th>${esc(r.label)}</th><td class="${cls}">${esc(r.value)}</td></tr>`).join("");

const CSS = `
body{font-family:"DejaVu Sans",Tahoma,Arial,sans-serif;font-size:11px;color:#222;margin:24px auto;max-width:820px}
h1{font-size:18px;text-align:center;margin:8px 0}
.top{display:flex;justify-content:space-between;gap:24px;align-items:flex-start}
.party{min-width:0;flex:1}
.party strong{display:block;font-size:12px;margin-bottom:2px}
.party div{margin:1px 0}
hr{border:0;border-top:1px solid #000;margin:8px 0}
table{border-collapse:collapse}
.info th,.sums th{text-align:left;padding:2px 8px 2px 0;font-weight:bold;white-space:nowrap}
.info td{padding:2px 0}
.info{border:1px solid #888;margin-left:auto}
.info th,.info td{border:1px solid #888;padding:2px 6px}
.lines{width:100%;margin-top:12px}
.lines th,.lines td{border:1px solid #000;padding:2px 4px}
.lines th{background:#eee;font-weight:bold}
.num{text-align:right;white-space:nowrap}
.sums{margin-left:auto;margin-top:8px}
.sums th,.sums td{border:1px solid #000;padding:2px 6px}
.box{border:1px solid #888;padding:6px 8px;margin-top:10px}
.box h2{font-size:12px;margin:0 0 4px}
`;

export function renderInvoiceHtml(xml: string): string {
  const v = readInvoice(xml);
  const form = printedForm(v);
  const party = (p: typeof v.supplier, heading?: string) =>
    `<div class="party">${heading ? `<strong>${esc(heading)}</strong>` : ""}<strong>${esc(p.name)}</strong>${partyLines(
      p,
    )
      .map((l) => `<div>${esc(l)}</div>`)
      .join("")}</div>`;
  const header = [...form.header, { label: LABELS.ettn, value: v.uuid }];
  const lineRows = form.lines
    .map(
      (cells) =>
        `<tr>${cells.map((c, i) => `<td${i === 1 ? "" : ' class="num"'}>${esc(c)}</td>`).join("")}</tr>`,
    )
    .join("");
  const boxes = [
    form.internetSale.length
      ? `<div class="box"><h2>${esc(LABELS.internetSale)}</h2><table class="info-plain">${rows(form.internetSale, "")}</table></div>`
      : "",
    form.exemptions.length || form.notes.length
      ? `<div class="box"><h2>${esc(LABELS.notes)}</h2>${[...form.exemptions, ...form.notes]
          .map((n) => `<div>${esc(n)}</div>`)
          .join("")}</div>`
      : "",
  ].join("");
  return `<!DOCTYPE html>
<html lang="tr"><head><meta charset="utf-8"><title>${esc(`${form.title} ${v.number}`)}</title><style>${CSS}</style></head>
<body>
<div class="top">${party(v.supplier)}<h1>${esc(form.title)}</h1></div>
<hr>
<div class="top">${party(v.customer, LABELS.buyer)}<table class="info">${rows(header, "")}</table></div>
<table class="lines"><thead><tr>${LABELS.columns.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>${lineRows}</tbody></table>
<table class="sums">${rows(form.totals, "num")}</table>
${boxes}
</body></html>
`;
}
