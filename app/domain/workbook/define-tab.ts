/**
 * How a tab of the workbook is declared: its columns (each a kind from `columns.ts`), its
 * indexes, and the typed record a row reads as. `tabs.ts` declares the tabs with it.
 */
import type { CellKind, Column } from "./columns";

type AnyColumns = { readonly id: Column<string> } & Record<string, Column<unknown>>;

type ColumnValue<C> = C extends Column<infer T> ? T : never;

type OptionalKeys<Columns> = { [K in keyof Columns]: undefined extends ColumnValue<Columns[K]> ? K : never }[keyof Columns];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The typed record of a tab: one property per column; columns that may be blank-as-undefined are optional. */
type RecordOf<Columns> = Simplify<
  { readonly [K in Exclude<keyof Columns, OptionalKeys<Columns>>]: ColumnValue<Columns[K]> } & {
    readonly [K in OptionalKeys<Columns>]?: ColumnValue<Columns[K]>;
  }
>;

/** An index maps a record to zero, one or several keys; keys are compared trimmed and lower-cased. */
export type IndexKey = string | readonly string[] | undefined;

/** Method-typed so a tab with specific records still fits where any tab is expected. */
type IndexFunction<Record> = { key(record: Record): IndexKey }["key"];

export type TabDefinition<Columns extends AnyColumns = AnyColumns, IndexName extends string = string> = {
  /** The tab's name in the spreadsheet, the table's name in SQLite. */
  readonly name: string;
  readonly columns: Columns;
  /** The header row, in the order the app creates it (staff may reorder columns later). */
  readonly headers: readonly string[];
  /** Each header's cell kind. */
  readonly kinds: Readonly<Record<string, CellKind>>;
  /** Headers of required columns. */
  readonly requiredHeaders: readonly string[];
  /**
   * Append-only tabs only ever grow at the bottom, so a refresh reads just their new
   * rows; mutable tabs are re-read whole.
   */
  readonly appendOnly: boolean;
  readonly indexes: { readonly [I in IndexName]: IndexFunction<RecordOf<Columns>> };
  /**
   * For tabs whose ids are made from the row's content (so two app instances may append
   * the same row at once): two rows with one id are one record, merged by this, rather
   * than the second being skipped as a duplicate.
   */
  readonly mergeDuplicates?: MergeFunction<RecordOf<Columns>>;
  /**
   * Values that read but are probably a typing mistake (a date in a money column, a kind
   * of mail that does not exist): each reason names the column. The row is kept and
   * listed for staff rather than skipped.
   */
  readonly doubts?: DoubtFunction<RecordOf<Columns>>;
};

/** Method-typed for the same reason as IndexFunction. */
type DoubtFunction<Record> = { doubts(record: Record): readonly string[] }["doubts"];

/** Method-typed for the same reason as IndexFunction. */
type MergeFunction<Record> = { merge(first: Record, later: Record): Record }["merge"];

export type TabRecord<Tab> = Tab extends TabDefinition<infer Columns, string> ? RecordOf<Columns> : never;
export type TabIndexName<Tab> = Tab extends TabDefinition<AnyColumns, infer IndexName> ? IndexName : never;

export function defineTab<Columns extends AnyColumns, IndexName extends string>(definition: {
  name: string;
  appendOnly: boolean;
  columns: Columns;
  indexes: { [I in IndexName]: (record: RecordOf<Columns>) => IndexKey };
  mergeDuplicates?: (first: RecordOf<Columns>, later: RecordOf<Columns>) => RecordOf<Columns>;
  doubts?: (record: RecordOf<Columns>) => readonly string[];
}): TabDefinition<Columns, IndexName> {
  const kinds = Object.fromEntries(Object.entries(definition.columns).map(([header, column]) => [header, column.kind]));
  const requiredHeaders = Object.entries(definition.columns)
    .filter(([, column]) => column.required)
    .map(([header]) => header);
  return { ...definition, headers: Object.keys(definition.columns), kinds, requiredHeaders };
}
