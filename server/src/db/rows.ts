import { z } from 'zod';

/** A row's shape: the columns a statement returns, by name, with the types the drivers give them. */
export type RowSchema = z.ZodType<Record<string, unknown>>;

/**
 * A timestamp column. ±infinity (a client's "never" in some columns) comes from node-postgres as ±Infinity and
 * from PGlite as an invalid Date: both are an invalid Date here, so code sees one shape on either database.
 */
export const timestamp = z
  .union([z.instanceof(Date), z.literal(Infinity), z.literal(-Infinity)])
  .transform((value) => (value instanceof Date ? value : new Date(Number.NaN)));

/** Thrown when a statement's rows do not fit the schema its caller declared: a 500, naming the column. */
export class RowShapeError extends Error {
  constructor(statement: string, issue: z.core.$ZodIssue) {
    const column = issue.path.length > 0 ? issue.path.join('.') : '(row)';
    super(`A row of "${statement.replace(/\s+/g, ' ').trim().slice(0, 80)}" does not fit its schema at ${column}: ${issue.message}`);
    this.name = 'RowShapeError';
  }
}

/**
 * Each row checked against `row`. The schema is the row's only type: a column renamed in the SQL, or a
 * driver answering another type (PGlite and node-postgres differ on some), fails here in the tests of
 * both databases instead of travelling on as `undefined`.
 */
export function checkedRows<Schema extends RowSchema>(row: Schema, rows: unknown[], statement: string): z.output<Schema>[] {
  const checked: z.output<Schema>[] = new Array(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const result = row.safeParse(rows[index]);
    if (!result.success) throw new RowShapeError(statement, result.error.issues[0]!);
    checked[index] = result.data;
  }
  return checked;
}
