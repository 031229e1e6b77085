/** A plain GET form, not Remix's: the browser itself downloads the file, with or without scripts. */
export function CsvDownload({ action, years }: { action: string; years: number[] }) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3">
      <div className="space-y-1.5">
        <label htmlFor="csv-year" className="block text-sm font-semibold text-slate-800">
          Year
        </label>
        <select id="csv-year" name="year" defaultValue={years[0]} className="input h-11 py-0">
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-outline">
        Download CSV
      </button>
    </form>
  );
}
