/** RFC 4180 as a reader sees it: CRLF records, fields quoted when they hold the separator, a quote or a line break, quotes doubled. */
export function parseCsv(text: string, separator = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === separator) {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') {
      throw new Error(`a bare line break at ${i}`);
    } else field += ch;
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}
