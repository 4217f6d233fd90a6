import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { Database } from '../db/client';
import { csvLine } from '@contract/csv';
import { EXPORT_SECTIONS, sectionRows, tableColumns, type ExportRow, type ExportSection } from './exportQueries';
import { redactTokens } from './scrub';

const BATCH = 5000;

/** The client's rows of one section, a batch at a time in key order (keyset paging). */
export async function* sectionBatches(database: Database, section: ExportSection, clientId: number): AsyncGenerator<ExportRow[]> {
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await sectionRows(database, section, clientId, after, BATCH);
    if (rows.length > 0) yield rows.map((row) => redactTokens(row) as ExportRow);
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    after = section.keys.map((key) => last[key]);
  }
}

const plain = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value);
const json = (value: unknown) => JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));

/** One JSON document, written as it is read: { client_id, exported_at, sections: { name: [rows] } }. */
export async function* exportJson(database: Database, clientId: number, now: Date): AsyncGenerator<string> {
  yield `{"format":"studio-console client export","version":1,"client_id":${clientId},"exported_at":${json(now.toISOString())},"sections":{`;
  let firstSection = true;
  for (const section of EXPORT_SECTIONS) {
    yield `${firstSection ? '' : ','}${json(section.name)}:[`;
    firstSection = false;
    let first = true;
    for await (const rows of sectionBatches(database, section, clientId)) {
      yield (first ? '' : ',') + rows.map((row) => json(Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plain(value)])))).join(',');
      first = false;
    }
    yield ']';
  }
  yield '}}\n';
}

async function columnsOf(database: Database, section: ExportSection): Promise<string[]> {
  const columns = await tableColumns(database, section.table);
  return [...columns, ...(section.extras ?? []).map((extra) => extra.name)];
}

/** One section as CSV (the one CSV writer), header first, a batch at a time. */
async function* sectionCsv(database: Database, section: ExportSection, clientId: number): AsyncGenerator<string> {
  const columns = await columnsOf(database, section);
  yield `${csvLine(columns)}\r\n`;
  for await (const rows of sectionBatches(database, section, clientId)) {
    yield rows.map((row) => `${csvLine(columns.map((column) => plain(row[column])))}\r\n`).join('');
  }
}

/** A zip of one CSV per section; the archive reads each section only when it comes to it. */
export function exportZip(database: Database, clientId: number): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  for (const section of EXPORT_SECTIONS) {
    archive.append(Readable.from(sectionCsv(database, section, clientId)), { name: `${section.name}.csv` });
  }
  void archive.finalize();
  return archive;
}
