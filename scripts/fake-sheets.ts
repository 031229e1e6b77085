/**
 * Runs the fake Google Sheets server, so the whole app can run on its Sheets driver
 * with no Google account: cells live in this process's memory and are gone when it stops.
 *
 *   npm run fake-sheets                 # port 8085, or FAKE_SHEETS_PORT
 *   GOOGLE_SHEETS_ID=local GOOGLE_SHEETS_API_URL=http://127.0.0.1:8085/ npm run dev
 *
 * Like Google it answers 404 for a spreadsheet id it does not hold: it holds one, `local`
 * (or FAKE_SHEETS_ID). Staff edits can be replayed by hand, now or between the app's next
 * read and its write (`when=next-write`):
 *
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/sort?tab=Agents&column=fullName&order=descending&when=next-write'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/insert-row?tab=Agents&row=2'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/delete-row?tab=Agents&row=3'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/move-row?tab=Agents&row=5&before=2'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/type?tab=Agents&cell=H2&text=0123456'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/rename-tab?tab=Agents&to=Agents%20(old)'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/move-column?tab=Agents&column=city&to=2&when=next-write'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/locale?locale=en_GB'
 *   curl -X POST 'http://127.0.0.1:8085/_staff/local/share?role=reader'    # Viewer-only share
 */
import { startFakeSheets } from "./lib/fake-sheets/server";

const port = Number(process.env.FAKE_SHEETS_PORT ?? 8085);
const spreadsheetId = process.env.FAKE_SHEETS_ID ?? "local";
const fake = await startFakeSheets({ port, host: process.env.FAKE_SHEETS_HOST ?? "127.0.0.1" });
fake.spreadsheet(spreadsheetId);
console.log(`Fake Google Sheets API on ${fake.url} holding spreadsheet "${spreadsheetId}" (data kept in memory only)`);
console.log(`Run the app on it with: GOOGLE_SHEETS_ID=${spreadsheetId} GOOGLE_SHEETS_API_URL=${fake.url} npm run dev`);
console.log(
  `Staff edits: POST ${fake.url}_staff/${spreadsheetId}/{sort,insert-row,delete-row,move-row,move-column,insert-column,delete-column,type,rename-tab,locale,share}?tab=...`,
);

const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
