/**
 * exceljs, loaded on the first workbook rather than at module load: about 20 MB of a process's memory
 * that a worker which never exports should not carry. The web server loads it before it listens
 * (bootstrap.ts, `listenWhenWarm`): the load is synchronous, 1–2 s of the event loop on a busy box,
 * and no call may wait on it.
 */
import { createRequire } from "node:module";
import type ExcelJS from "exceljs";

const require = createRequire(import.meta.url);
let loaded: typeof ExcelJS | undefined;

export function excel(): typeof ExcelJS {
  loaded ??= require("exceljs") as typeof ExcelJS;
  return loaded;
}

/** Whether this process has loaded exceljs (for the start-up's test). */
export const excelLoaded = (): boolean => loaded !== undefined;

/** The panel's date and time format (`DD-MM-YYYY HH:mm`) as an Excel number format, for date cells. */
export const EXCEL_DATE_TIME = "dd-mm-yyyy hh:mm";
