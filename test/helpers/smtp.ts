import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it takes. */
export async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The attachments of a raw MIME message: file name and decoded bytes (nodemailer writes them in base64). */
export function attachmentsOf(raw: string): { filename: string; content: Buffer }[] {
  const part = /Content-Disposition: attachment;\s*filename="?([^"\r\n]+)"?\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/g;
  return [...raw.matchAll(part)].map((m) => ({ filename: m[1]!, content: Buffer.from(m[2]!.replace(/\s/g, ''), 'base64') }));
}

/** The Subject header of a raw message, unfolded, with RFC 2047 encoded words (Q and B) decoded. */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1]!.replace(/\r?\n[ \t]/g, ' ');
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuoted(text.replace(/_/g, ' ')),
    );
}

/** The plain text of a raw message (its text/plain part when it has attachments), transfer encoding undone. */
export function textOf(raw: string): string {
  const split = (entity: string) => {
    const at = /\r?\n\r?\n/.exec(entity)!;
    return { headers: entity.slice(0, at.index), body: entity.slice(at.index + at[0].length) };
  };
  let entity = split(raw);
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(entity.headers)?.[1];
  if (boundary && /Content-Type: multipart\//i.test(entity.headers)) {
    const part = entity.body.split(`--${boundary}`).find((p) => /Content-Type: text\/plain/i.test(p));
    if (!part) throw new Error('no text/plain part');
    entity = split(part.replace(/^\r?\n/, ''));
    entity.body = entity.body.replace(/\r?\n$/, '');
  }
  if (/Content-Transfer-Encoding: base64/i.test(entity.headers)) return Buffer.from(entity.body.replace(/\s/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(entity.headers)) return decodeQuoted(entity.body.replace(/=\r?\n/g, ''));
  return entity.body;
}

function decodeQuoted(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

