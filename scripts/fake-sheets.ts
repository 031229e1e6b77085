/**
 * Runs the fake Google Sheets server, so the whole app can run on its Sheets driver
 * with no Google account: cells live in this process's memory and are gone when it stops.
 *
 *   npm run fake-sheets                 # port 8085, or FAKE_SHEETS_PORT
 *   GOOGLE_SHEETS_ID=local GOOGLE_SHEETS_API_URL=http://127.0.0.1:8085/ npm run dev
 */
import { startFakeSheets } from "../tests/fake-sheets/server";

const port = Number(process.env.FAKE_SHEETS_PORT ?? 8085);
const fake = await startFakeSheets({ port, host: process.env.FAKE_SHEETS_HOST ?? "127.0.0.1" });
console.log(`Fake Google Sheets API on ${fake.url} (any spreadsheet id; data kept in memory only)`);
console.log(`Run the app on it with: GOOGLE_SHEETS_ID=local GOOGLE_SHEETS_API_URL=${fake.url} npm run dev`);

const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
