import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { XlsxSheetWriter, type XlsxColumn, type XlsxValue } from '../../src/reports/xlsx-writer.js';

/** A cell's value as Excel's serial (a reader may give a time-formatted cell as a Date). */
const excelSerial = (value: unknown) => (value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : Number(value));

/** The workbook the writer makes of these rows, read back by exceljs (an independent reader). */
async function writeAndRead(columns: XlsxColumn[], header: string[], rows: XlsxValue[][], totals?: XlsxValue[]): Promise<ExcelJS.Worksheet> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const sheet = new XlsxSheetWriter(output, 'Trips & stops', columns);
  sheet.header(header);
  for (const row of rows) sheet.row(row);
  if (totals) sheet.row(totals, true);
  await sheet.end();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  assert.equal(workbook.worksheets.length, 1);
  return workbook.worksheets[0]!;
}

describe('XLSX sheet writer', () => {
  it('writes typed cells: numbers, dates and durations by their formats, text as it is, booleans, and leaves nulls out', async () => {
    const day = 46_296; // 2026-10-01 as an Excel serial
    const sheet = await writeAndRead(
      [{ width: 10, numFmt: '0' }, { width: 30 }, { width: 20, numFmt: 'yyyy-mm-dd hh:mm:ss' }, { width: 12, numFmt: '[h]:mm:ss' }, { width: 12, numFmt: '0.0' }, { width: 8 }],
      ['ID', 'Name', 'When', 'How long', 'Speed', 'Open'],
      [
        [7, 'Tom & "Jerry" <ltd>', day + 0.5, 3_723 / 86_400, -12.5, true],
        [8, '  spaced out  ', day, 0, 0, false],
        [9, 'Водитель 🚚\u0001', null, null, null, null],
      ],
      [null, 'Total', null, 3_723 / 86_400, 12.5, null],
    );
    assert.equal(sheet.name, 'Trips & stops');
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['ID', 'Name', 'When', 'How long', 'Speed', 'Open']);
    assert.equal(sheet.getRow(1).getCell(1).font?.bold, true);
    const first = sheet.getRow(2);
    assert.equal(first.getCell(1).value, 7);
    assert.equal(first.getCell(1).numFmt, '0');
    assert.equal(first.getCell(2).value, 'Tom & "Jerry" <ltd>');
    assert.deepEqual(first.getCell(3).value, new Date('2026-10-01T12:00:00Z'));
    assert.equal(first.getCell(4).numFmt, '[h]:mm:ss');
    assert.equal(Math.round(excelSerial(first.getCell(4).value) * 86_400), 3_723);
    assert.equal(first.getCell(5).value, -12.5);
    assert.equal(first.getCell(5).numFmt, '0.0');
    assert.equal(first.getCell(6).value, true);
    assert.equal(sheet.getRow(3).getCell(2).value, '  spaced out  ', 'spaces at the ends are kept');
    assert.equal(sheet.getRow(3).getCell(6).value, false);
    const third = sheet.getRow(4);
    assert.equal(third.getCell(2).value, 'Водитель 🚚', 'a character XML cannot hold is dropped');
    assert.equal(third.getCell(3).value, null);
    const totals = sheet.getRow(5);
    assert.equal(totals.getCell(2).value, 'Total');
    assert.equal(totals.getCell(2).font?.bold, true);
    assert.equal(totals.getCell(5).value, 12.5);
    assert.equal(sheet.getColumn(2).width, 30);
    assert.deepEqual(sheet.views[0], { ...sheet.views[0], state: 'frozen', ySplit: 1 });
  });

  it('names columns past Z (AA, AB, …)', async () => {
    const columns = Array.from({ length: 30 }, () => ({ width: 6 }));
    const values = Array.from({ length: 30 }, (_, i) => i);
    const sheet = await writeAndRead(columns, values.map((i) => `c${i}`), [values]);
    assert.deepEqual((sheet.getRow(2).values as unknown[]).slice(1), values);
    assert.equal(sheet.getRow(2).getCell('AD').value, 29);
  });

  it('gives a reader that takes its time the whole workbook, pausing while it is behind', async () => {
    const output = new PassThrough({ highWaterMark: 1024 });
    const chunks: Buffer[] = [];
    // The reader takes one chunk per turn of the event loop.
    const reading = (async () => {
      for await (const chunk of output) {
        chunks.push(chunk as Buffer);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const sheet = new XlsxSheetWriter(output, 'Slow', [{ width: 10, numFmt: '0' }, { width: 40 }]);
    sheet.header(['N', 'Text']);
    for (let i = 0; i < 20_000; i++) {
      sheet.row([i, `row ${i} ${'x'.repeat(50)}`]);
      if (i % 500 === 499) await sheet.pause();
    }
    await sheet.end();
    await reading;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const read = workbook.worksheets[0]!;
    assert.equal(read.rowCount, 20_001);
    assert.equal(read.getRow(20_001).getCell(1).value, 19_999);
  });

  it('fails, instead of waiting for ever, when the output is closed half way', async () => {
    const output = new PassThrough({ highWaterMark: 1024 }); // nobody reads it: the writer is soon held up
    const sheet = new XlsxSheetWriter(output, 'Gone', [{ width: 40 }]);
    sheet.header(['Text']);
    const writing = (async () => {
      for (let i = 0; ; i++) {
        sheet.row([`row ${i} ${'x'.repeat(50)}`]);
        if (i % 500 === 499) await sheet.pause();
        if (i === 5_000) output.destroy();
      }
    })();
    await assert.rejects(writing);
  });
});
