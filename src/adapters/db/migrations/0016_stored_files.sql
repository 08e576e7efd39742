-- Uploaded files (tutors' profile pictures, pending uploads) by key: the PostgreSQL file storage
-- (src/adapters/files/postgresFileStorage.ts). In the database, every API process serves what any
-- other stored, the files survive a process or container being replaced, and they are backed up
-- with everything else. Keys are plain ASCII (`isValidFileKey`); the "C" collation orders them by
-- byte, so the keys under a prefix are one range of the primary key.
CREATE TABLE IF NOT EXISTS stored_files (
  key        text COLLATE "C" PRIMARY KEY,
  bytes      bytea NOT NULL,
  size       integer NOT NULL CHECK (size = octet_length(bytes)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Pictures are compressed already: kept out of line without another round of compression.
ALTER TABLE stored_files ALTER COLUMN bytes SET STORAGE EXTERNAL;
