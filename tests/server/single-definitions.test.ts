import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LIST_DEFINITIONS } from '@contract/clientLists';
import { ClientListParams } from '@contract/clients';
import { MESSAGE_TYPES, isWeeklyType } from '@contract/messageTypes';
import { MessagingTypeParams } from '@contract/messaging';
import type { Database } from '../../server/src/db/client';
import { en } from '../../src/i18n/en';
import { clientLists } from '../../src/clients/clientLists';
import { messageTypes } from '../../src/messaging/messageTypes';
import { testDatabases } from '../support/databases';

// The message types and the client lists are defined once, in contract/messageTypes.ts and
// contract/clientLists.ts; the server, the console and the database's seeded rows follow them.

const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
const code = () =>
  ['contract', 'src', 'server/src', 'server/seed']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .map((file) => ({ file: relative(ROOT, file), text: withoutComments(readFileSync(file, 'utf8')) }));

describe('message types and client lists, defined once', () => {
  it('the console builds its pages and labels from the contract, with a label for each', () => {
    expect(messageTypes.map(({ id, slug }) => ({ id, slug }))).toEqual(MESSAGE_TYPES.map(({ id, slug }) => ({ id, slug })));
    for (const type of MESSAGE_TYPES) expect(en.messaging.types[type.key], type.slug).toBeTruthy();
    expect(clientLists.map(({ id, slug }) => ({ id, slug }))).toEqual(CLIENT_LIST_DEFINITIONS.map(({ id, slug }) => ({ id, slug })));
    for (const list of CLIENT_LIST_DEFINITIONS) expect(en.clients.titles[list.slug], list.slug).toBeTruthy();
  });

  it('the API accepts exactly the defined ids', () => {
    for (const type of MESSAGE_TYPES) expect(MessagingTypeParams.safeParse({ typeId: String(type.id) }).success).toBe(true);
    expect(MessagingTypeParams.safeParse({ typeId: String(MESSAGE_TYPES.length + 1) }).error?.issues[0]?.message).toBe('must be a message type from 1 to 6');
    for (const list of CLIENT_LIST_DEFINITIONS) expect(ClientListParams.safeParse({ listId: String(list.id) }).success).toBe(true);
    expect(ClientListParams.safeParse({ listId: '5' }).success).toBe(false);
  });

  it('the weekly types are #notetoself and Monday Morning', () => {
    expect(MESSAGE_TYPES.filter((type) => isWeeklyType(type.id)).map((type) => type.title)).toEqual(['#notetoself', 'Monday Morning']);
    expect(isWeeklyType(99)).toBe(false);
  });

  it('no other file spells a message type slug or classifies weekly types by number', () => {
    const slugs = MESSAGE_TYPES.map((type) => type.slug);
    const found: string[] = [];
    for (const { file, text } of code()) {
      if (file === 'contract/messageTypes.ts') continue;
      for (const slug of slugs) if (text.includes(`'${slug}'`)) found.push(`${file}: '${slug}'`);
      if (/===\s*3\s*\|\|[^\n]*===\s*4\b|\[\s*3\s*,\s*4\s*\]/.test(text)) found.push(`${file}: types 3 and 4 by number`);
    }
    expect(found).toEqual([]);
  });
});

describe.each(testDatabases())('the seeded message_types rows on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => database.close());

  it('are the contract’s types (id, title, slug)', async () => {
    const rows = await database.query<{ id: number; title: string; slug: string }>('SELECT id, title, slug FROM message_types ORDER BY id');
    expect(rows).toEqual(MESSAGE_TYPES.map(({ id, title, slug }) => ({ id, title, slug })));
  });
});
