-- Files sent with a mail (session notices' calendar files), kept with it in the dev mailbox: a JSON
-- array of {filename, contentType, content}, each content sealed like the body when the mail names
-- a data subject. Older rows and mail without files have [].
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS attachments jsonb NOT NULL DEFAULT '[]'::jsonb;
