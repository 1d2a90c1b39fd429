/**
 * Importing a game record: read a JSON file the player picks and upload it
 * (`POST /api/records`); the server checks it by replaying every move and answers with the
 * link of its replay, where the browser goes. A bad record gets the server's reason.
 */

import { failureText } from "./errors.js";
import { t } from "./i18n.js";

async function uploadRecord(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch {
    throw new Error(t("records.not_json"));
  }
  const res = await fetch("/api/records", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(record),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(failureText(res.status, data, "records.refused"));
  return data;
}

/**
 * Wire a file input: on a pick, upload and go to the replay; errors go to `errorBox`.
 *
 * The page renders the input disabled and it is enabled here, once its listener is in
 * place: this module runs only after the catalogue's fetch (i18n.js's top-level await),
 * which can end after the page's load event, and a file picked before would be ignored.
 */
export function attachImport(input, errorBox) {
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    errorBox.hidden = true;
    try {
      const answer = await uploadRecord(await file.text());
      window.location.assign(answer.url);
    } catch (err) {
      errorBox.textContent = err.message;
      errorBox.hidden = false;
    } finally {
      input.value = "";
    }
  });
  input.disabled = false;
}
