import argon2 from 'argon2';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** argon2id with the library's defaults (OWASP-recommended memory-hard parameters). */
export const argon2Hasher: PasswordHasher = {
  hash: (password) => argon2.hash(password, { type: argon2.argon2id }),
  async verify(hash, password) {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  },
};

/** A hash of nothing, verified against when the account does not exist, so timing does not reveal it. */
export const DUMMY_HASH = '$argon2id$v=19$m=65536,t=3,p=4$XHLvOA63xzI9rytmeFNvKw$LVMFnKXvuiiE0VUROXnCcLcfj+V7SFvsdjwIQIyvzQg';
