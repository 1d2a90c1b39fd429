/** The record import page (`/records`): pick an exported game record to replay it. */

import { attachImport } from "./record-import.js";

attachImport(document.getElementById("import-file"), document.getElementById("import-error"));
