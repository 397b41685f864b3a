/**
 * exceljs, loaded on the first workbook rather than at start-up: about 20 MB of a process's memory
 * that a worker which never exports should not carry.
 */
import { createRequire } from "node:module";
import type ExcelJS from "exceljs";

const require = createRequire(import.meta.url);
let loaded: typeof ExcelJS | undefined;

export function excel(): typeof ExcelJS {
  loaded ??= require("exceljs") as typeof ExcelJS;
  return loaded;
}

/** The panel's date and time format (`DD-MM-YYYY HH:mm`) as an Excel number format, for date cells. */
export const EXCEL_DATE_TIME = "dd-mm-yyyy hh:mm";
