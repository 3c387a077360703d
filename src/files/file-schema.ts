import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { DateTimeText } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A file the employee's app uploaded for a task's form, as the upload answers it. */
export const StoredFile = Type.Object({
  fileID: Type.Integer({ description: 'what a picture or file field of the form names as its value' }),
  taskID: Type.Integer(),
  contentType: Type.String({ description: 'told by the file’s first bytes: image/jpeg, image/png, image/webp or application/pdf' }),
  size: Type.Integer({ description: 'bytes' }),
  fileName: nullable(Type.String()),
  createdDate: Type.String({ description: 'when the employee took it (`actedAt`), in the account’s zone' }),
  url: Type.String({ description: 'where API clients download it, with their bearer token' }),
});
export type StoredFile = Static<typeof StoredFile>;

export const storedFileExample: StoredFile = {
  fileID: 41,
  taskID: 311,
  contentType: 'image/jpeg',
  size: 183204,
  fileName: 'door.jpg',
  createdDate: '2026-03-02T11:19:02+03:00',
  url: 'https://lokator.example.com/v6/api/fileManagement/files/41',
};

export const UploadQuery = Type.Object({
  actedAt: Type.Optional(withExamples(DateTimeText, '2026-03-02T11:19:02+03:00')),
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'kept for the download’s name' })),
});
export type UploadQuery = Static<typeof UploadQuery>;
