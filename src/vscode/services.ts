import type { Storage } from '../core/storage';
import type { Connection } from './base/connection';
import type { ContextKeySetter } from './base/contextKeys';
import type { CreditsService } from './base/credits';
import type { JobService } from './jobs/jobService';
import type { Log } from './base/log';
import type { ApiKeyStore } from './base/secrets';

/** The long-lived services activate() builds once and hands to every feature. */
export interface Services {
  readonly contextKeys: ContextKeySetter;
  readonly keys: ApiKeyStore;
  readonly log: Log;
  readonly connection: Connection;
  readonly credits: CreditsService;
  readonly jobs: JobService;
  /** globalState and workspaceState, through the one typed map of keys (core/storage.ts). */
  readonly storage: Storage;
}
