/**
 * The one CSV writer of every export, console and server (RFC 4180 fields, CRLF lines).
 *
 * Formula-looking values: a spreadsheet runs a field that starts with = + - @ (or a tab or carriage
 * return before one) as a formula, so such a field gets a leading apostrophe — unless the whole field
 * is a plain number, such as -5 or +3.25, which a spreadsheet reads as that number and nothing else.
 * The rule looks at the text, not its JavaScript type: the audit log's `-5` read from a database
 * column and a count of -5 come out the same.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: objects as JSON, null and undefined empty, formula-looking text defused, quoted when needed. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of fields, without its line break. */
export const csvLine = (fields: readonly unknown[]): string => fields.map(csvField).join(',');

/** A whole document: the header, then a line per row in the header's order, each line ended by CRLF. */
export function csvDocument<Column extends string>(columns: readonly Column[], rows: Iterable<Readonly<Record<Column, unknown>>>): string {
  const lines = [csvLine(columns)];
  for (const row of rows) lines.push(csvLine(columns.map((column) => row[column])));
  return `${lines.join('\r\n')}\r\n`;
}
