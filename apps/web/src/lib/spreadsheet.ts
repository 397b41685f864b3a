/**
 * Reading a workbook someone saved in Excel, with exceljs (the library the server writes exports
 * with). Imported lazily by the one screen that reads files: its ~250 kB (gzip) stay out of the
 * signed-in first load. The package's `browser` entry is a self-contained bundle.
 */
export async function readSpreadsheetRows(bytes: ArrayBuffer): Promise<{ row: number; cells: string[] }[]> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: { row: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    for (let col = 1; col <= Math.max(row.cellCount, 2); col++) cells.push(row.getCell(col).text.trim());
    rows.push({ row: number, cells });
  });
  return rows;
}

/**
 * A workbook as the CSV text the ERP-matching import takes: the first two columns quoted and
 * joined by ';', Excel's row numbers kept (blank or skipped rows stay blank lines), so a refusal
 * names the row the user sees in Excel.
 */
export async function spreadsheetToCsv(bytes: ArrayBuffer): Promise<string> {
  const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  const lines: string[] = [];
  for (const { row, cells } of await readSpreadsheetRows(bytes)) {
    while (lines.length < row - 1) lines.push("");
    lines[row - 1] = cells.some((c) => c) ? cells.slice(0, 2).map(quote).join(";") : "";
  }
  return lines.join("\n");
}

/** Hands a downloaded file to the browser's save dialog. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob over; revoke after the current task so the download starts.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
