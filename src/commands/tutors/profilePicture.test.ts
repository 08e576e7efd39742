import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database.ts';
import { migrate } from '../../adapters/db/migrate.ts';
import { PostgresFileStorage } from '../../adapters/files/postgresFileStorage.ts';
import {
  openPictureUpload,
  receivePictureUpload,
  tokenOfUploadUrl,
  UPLOAD_ALREADY_USED,
  UPLOAD_NOT_FOUND,
  UPLOAD_TTL_MINUTES,
  uploadPath,
} from './profilePicture.ts';

let db: TestDatabase;
let files: PostgresFileStorage;
beforeAll(async () => {
  db = await createTestDatabase('uploads');
  await migrate(db.sql);
  files = new PostgresFileStorage(db.sql);
});
afterAll(() => db?.drop());

const gif = Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1');
const now = new Date('2026-11-23T12:00:00.000Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

describe('picture uploads', () => {
  it(`accept the bytes once, within ${UPLOAD_TTL_MINUTES} minutes, for the tutor they were opened for only`, async () => {
    const { token } = await openPictureUpload(files, 't1', now);
    await expect(receivePictureUpload(files, 't2', token, gif, now)).rejects.toThrow(UPLOAD_NOT_FOUND);
    await expect(receivePictureUpload(files, 't1', token, gif, minutes(UPLOAD_TTL_MINUTES))).rejects.toThrow(UPLOAD_NOT_FOUND);
    expect(await receivePictureUpload(files, 't1', token, gif, minutes(1))).toEqual({ contentType: 'image/gif', size: gif.length });
    await expect(receivePictureUpload(files, 't1', token, gif, minutes(2))).rejects.toThrow(UPLOAD_ALREADY_USED);
  });

  it("remove a tutor's expired uploads when the tutor opens the next one, and leave live ones and other tutors' alone", async () => {
    const expired = await openPictureUpload(files, 't3', now);
    await receivePictureUpload(files, 't3', expired.token, gif, now);
    const live = await openPictureUpload(files, 't3', minutes(UPLOAD_TTL_MINUTES - 1));
    const other = await openPictureUpload(files, 't4', now);
    await openPictureUpload(files, 't3', minutes(UPLOAD_TTL_MINUTES + 1));
    const left = await files.list('uploads/t3/');
    expect(left.some((k) => k.includes(expired.token))).toBe(false);
    expect(left.some((k) => k.includes(live.token))).toBe(true);
    expect(await files.list('uploads/t4/')).toEqual([`uploads/t4/${other.token}.json`]);
  });

  it('read the token back from the upload URL, relative or absolute, and nothing else', () => {
    const token = 'ab'.repeat(24);
    expect(tokenOfUploadUrl(uploadPath(token))).toBe(token);
    expect(tokenOfUploadUrl(`https://topmark.test${uploadPath(token)}?x=1`)).toBe(token);
    for (const url of ['', '/api/tutor/profile-picture/uploads/../x', `/elsewhere/${token}`, uploadPath('short'), 'http://[bad']) {
      expect(tokenOfUploadUrl(url)).toBeNull();
    }
  });
});
