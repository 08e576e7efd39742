/**
 * zod's settings, before any schema parses. The CSP forbids eval; zod would otherwise probe
 * `new Function('')` and log a violation. Set on the global zod reads its settings from
 * (`z.config` writes the same object) rather than by importing zod: the shared chunk that holds
 * zod's `config` holds all its schemas, which the public site's first load does not need (only
 * the lazily loaded pages parse). zodConfig.test.ts checks zod still reads it.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };
