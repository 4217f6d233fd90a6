import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvDocument, csvField, csvLine } from '@contract/csv';

/** An independent reading of one RFC 4180 line (no line breaks inside fields in these cases). */
function parseLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

describe('the one CSV writer', () => {
  it('leaves plain numbers alone, whether they arrive as numbers or as text', () => {
    for (const value of ['-5', -5, '+3.25', '-0.5', '-1e3', '.5', 42]) expect(csvField(value)).toBe(String(value));
  });

  it('defuses every other value a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-5+cmd|calc')).toBe("'-5+cmd|calc");
    expect(csvField('+A1')).toBe("'+A1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('-')).toBe("'-");
  });

  it('quotes commas, quotes and line breaks; objects as JSON; null and undefined empty', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField({ title: 'A' })).toBe('"{""title"":""A""}"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('reads back as what was written, but for the apostrophe of a formula', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).filter((s) => !/[\r\n]/.test(s)),
          { minLength: 1, maxLength: 6 },
        ),
        (fields) => {
          const back = parseLine(csvLine(fields));
          expect(back).toHaveLength(fields.length);
          back.forEach((field, i) => expect(field === fields[i] || field === `'${fields[i]}`).toBe(true));
        },
      ),
    );
  });

  it('writes a header and CRLF-ended lines in the header order', () => {
    expect(csvDocument(['b', 'a'], [{ a: 1, b: '-5' }])).toBe('b,a\r\n-5,1\r\n');
  });
});
