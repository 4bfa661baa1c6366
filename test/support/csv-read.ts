/**
 * A strict RFC 4180 reader for tests of the CSV exports — independent of the writer (csv-stringify): every record
 * ends with CRLF, a quoted field may hold commas, doubled quotes, CR and LF; anything else is an error (a bare
 * quote inside an unquoted field, text after a closing quote, an unterminated quote, a bare CR or LF between
 * records, a missing final CRLF). Takes the text WITHOUT its BOM.
 */
function readCsvStrict(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new Error(`unterminated quoted field in record ${records.length + 1}`);
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
        if (i < n && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after a closing quote in record ${records.length + 1}`);
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`bare quote in an unquoted field in record ${records.length + 1}`);
          field += text[i++];
        }
        if (text[i] === '\n') throw new Error(`bare LF in record ${records.length + 1}`);
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r' && text[i + 1] === '\n') {
        i += 2;
        break;
      }
      throw new Error(`record ${records.length + 1} does not end with CRLF`);
    }
    records.push(record);
  }
  return records;
}

/** The bytes of a download: checks the UTF-8 BOM (EF BB BF), decodes strictly as UTF-8 and reads the records. */
export async function readCsvDownload(body: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; records: string[][] }> {
  const bytes = Buffer.from(await new Response(body).arrayBuffer());
  if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) throw new Error(`no UTF-8 BOM: starts with ${bytes.subarray(0, 3).toString('hex')}`);
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  return { bytes, records: readCsvStrict(text.slice(1)) };
}
