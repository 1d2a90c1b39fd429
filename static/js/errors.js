/**
 * What a refusal of the server reads as, in the page's language (docs/protocol.md, "Errors
 * in the reader's language"). Every error body (`{"error": {code, reason, message?}}`) and
 * every websocket `error` frame carries a stable `code` and the English `reason`; a specific
 * refusal also carries `message` (a key and params). The text shown is, in this order:
 *
 * 1. the message, rendered in the page's language (`tm`);
 * 2. on an English page, the server's own reason (more specific than a sentence per code);
 * 3. the catalogue's sentence for the code (`error.<code>`);
 * 4. the English reason, then the code itself.
 */

import { has, lang, t, tm } from "./i18n.js";

/** The text of an error `{code, reason, message}` (a body's `error`, or an `error` frame). */
export function errorText(error) {
  const e = error || {};
  if (e.message && typeof e.message === "object" && has(e.message.key)) return tm(e.message, e.reason);
  if (lang === "en" && e.reason) return e.reason;
  if (e.code && has(`error.${e.code}`)) return t(`error.${e.code}`);
  return e.reason || (e.code ? t("error.unknown", { code: e.code }) : t("error.unknown", { code: "?" }));
}

/** The text of a failed request's answer: its error body, else a sentence with the status. */
export function failureText(status, body, key = "error.request_failed") {
  const e = body && body.error;
  if (e && (e.code || e.reason)) return errorText(e);
  return t(key, { status });
}
