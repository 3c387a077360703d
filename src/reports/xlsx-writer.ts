import { PassThrough, pipeline, type Writable } from 'node:stream';
import yazl from 'yazl';

/**
 * A one-sheet XLSX workbook written as it goes: the sheet's XML is made row by row and deflated
 * (level 1, on the thread pool) into a zip streamed to the output, so a fleet's month never sits in
 * memory. Cells are typed: numbers (a date or a duration is a number with a date or time format,
 * which is all an Excel date is), inline strings and booleans.
 *
 * Written here rather than with exceljs's streaming writer, which this replaced: exceljs makes a
 * row object, a cell object per value and an XML node tree per row, and stayed at about 1.6 µs of
 * CPU per cell at its best settings (values as arrays, a shared style object per column and per
 * row, shared strings off), 2.5 s for the 1.5 million cells of a 500-vehicle month of trips, half
 * the 5 s target before the report is even read (docs/performance.md). This writes each row as one
 * string from per-column pieces made once. exceljs stays the tests' independent reader.
 */

export type XlsxValue = string | number | boolean | null;

export interface XlsxColumn {
  width: number;
  /** An Excel number format (`0.0`, `yyyy-mm-dd`, `[h]:mm:ss`, …); none: General. */
  numFmt?: string | undefined;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Sheet XML gathered before it is handed to the zip: big enough that a write costs little per row. */
const CHUNK_CHARS = 64 * 1024;
const FIRST_CUSTOM_FORMAT = 164;

export class XlsxSheetWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly sheet = new PassThrough();
  /** Per column: its letter, and the ` s="…"` of its plain and its bold style. */
  private readonly letters: string[];
  private readonly styles: { plain: string; bold: string }[];
  private readonly finished: Promise<void>;
  private failure: Error | null = null;
  private chunk = '';
  private rowNumber = 0;

  constructor(output: Writable, sheetName: string, columns: readonly XlsxColumn[]) {
    this.letters = columns.map((_, i) => columnLetter(i));
    const formats = [...new Set(columns.flatMap((c) => (c.numFmt ? [c.numFmt] : [])))];
    // Style 0 is the default, 1 bold; then a plain and a bold one per number format.
    const styleOf = (numFmt: string | undefined, bold: boolean) => (numFmt ? 2 + 2 * formats.indexOf(numFmt) + (bold ? 1 : 0) : bold ? 1 : 0);
    const attribute = (style: number) => (style === 0 ? '' : ` s="${style}"`);
    this.styles = columns.map((c) => ({ plain: attribute(styleOf(c.numFmt, false)), bold: attribute(styleOf(c.numFmt, true)) }));

    this.finished = new Promise((resolve, reject) => {
      pipeline(this.zip.outputStream, output, (error) => {
        if (error) {
          this.failure = error;
          this.sheet.destroy();
          reject(error);
        } else resolve();
      });
    });
    // A failure is also met at the next pause(); end() reports it, if it is reached.
    this.finished.catch(() => {});
    const add = (name: string, xml: string) => this.zip.addBuffer(Buffer.from(XML_HEAD + xml), name, { compressionLevel: 1 });
    add('[Content_Types].xml', contentTypes());
    add('_rels/.rels', `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    add('xl/workbook.xml', `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    add(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    );
    add('xl/styles.xml', stylesXml(formats));
    this.zip.addReadStream(this.sheet, 'xl/worksheets/sheet1.xml', { compressionLevel: 1 });
    this.zip.end();

    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    this.chunk =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
      '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
  }

  /** The header row: the columns' names in bold. */
  header(names: readonly string[]): void {
    const r = ++this.rowNumber;
    this.chunk += `<row r="${r}">${names.map((name, i) => `<c r="${this.letters[i]}${r}" s="1" t="inlineStr"><is>${textElement(name)}</is></c>`).join('')}</row>`;
  }

  /** Appends a row; a null value leaves its cell out (a bold row keeps it, empty, in bold). */
  row(values: readonly XlsxValue[], bold = false): void {
    const r = ++this.rowNumber;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const style = bold ? this.styles[i]!.bold : this.styles[i]!.plain;
      const at = `<c r="${this.letters[i]}${r}"${style}`;
      if (typeof value === 'number') xml += Number.isFinite(value) ? `${at}><v>${value}</v></c>` : bold ? `${at}/>` : '';
      else if (typeof value === 'string') xml += `${at} t="inlineStr"><is>${textElement(value)}</is></c>`;
      else if (typeof value === 'boolean') xml += `${at} t="b"><v>${value ? 1 : 0}</v></c>`;
      else if (bold) xml += `${at}/>`;
    }
    this.chunk += `${xml}</row>`;
    if (this.chunk.length >= CHUNK_CHARS) this.flush();
  }

  /**
   * A turn of the event loop for the zip and the output to move on (without it the sheet would be
   * deflated only after the last row); waits while the output is behind (a slow client) and fails
   * when it was closed.
   */
  async pause(): Promise<void> {
    this.flush();
    if (this.failure) throw this.failure;
    if (!this.sheet.writableNeedDrain) return new Promise((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => {
      const done = () => {
        this.sheet.off('drain', done);
        this.sheet.off('close', done);
        resolve();
      };
      this.sheet.on('drain', done);
      this.sheet.on('close', done);
    });
    if (this.failure) throw this.failure;
  }

  /** Closes the sheet and the zip; resolves when the output has all of it. */
  async end(): Promise<void> {
    this.chunk += '</sheetData></worksheet>';
    this.flush();
    this.sheet.end();
    await this.finished;
  }

  private flush(): void {
    if (this.chunk.length === 0 || this.failure) return;
    this.sheet.write(this.chunk);
    this.chunk = '';
  }
}

function contentTypes(): string {
  const type = (part: string) => `application/vnd.openxmlformats-officedocument.spreadsheetml.${part}+xml`;
  return (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/xl/workbook.xml" ContentType="${type('sheet.main')}"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type('worksheet')}"/>` +
    `<Override PartName="/xl/styles.xml" ContentType="${type('styles')}"/></Types>`
  );
}

/** Formats every spreadsheet knows by number, written by it as Excel does; others are declared from id 164 on. */
const BUILT_IN_FORMATS: Record<string, number> = { '0': 1, '0.00': 2, '[h]:mm:ss': 46 };

/** Default and bold, then a plain and a bold style per number format. */
function stylesXml(formats: readonly string[]): string {
  const custom = formats.filter((code) => BUILT_IN_FORMATS[code] === undefined);
  const idOf = (code: string) => BUILT_IN_FORMATS[code] ?? FIRST_CUSTOM_FORMAT + custom.indexOf(code);
  const xf = (numFmtId: number, bold: boolean) =>
    `<xf numFmtId="${numFmtId}" fontId="${bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${bold ? ' applyFont="1"' : ''}/>`;
  const xfs = [xf(0, false), xf(0, true), ...formats.flatMap((code) => [xf(idOf(code), false), xf(idOf(code), true)])];
  const numFmts = custom.map((code) => `<numFmt numFmtId="${idOf(code)}" formatCode="${escapeXml(code)}"/>`).join('');
  return (
    `<styleSheet xmlns="${MAIN_NS}">` +
    (custom.length ? `<numFmts count="${custom.length}">${numFmts}</numFmts>` : '') +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
  );
}

/** `A`…`Z`, `AA`…: the letters of the 0-based column `index`. */
function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

// eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot hold at all are dropped
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex -- the same, and what must be escaped: most text has none
const NEEDS_WORK = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** `<t>`, told to keep the spaces at its ends where it has some (XML would drop them). */
function textElement(text: string): string {
  const spaced = text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32);
  return spaced ? `<t xml:space="preserve">${escapeXml(text)}</t>` : `<t>${escapeXml(text)}</t>`;
}

function escapeXml(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
