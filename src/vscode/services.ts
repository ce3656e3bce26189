import type { Connection } from './connection';
import type { ContextKeySetter } from './contextKeys';
import type { CreditsService } from './credits';
import type { JobService } from './jobs/jobService';
import type { Log } from './log';
import type { ApiKeyStore } from './secrets';

/** The long-lived services activate() builds once and hands to every feature. */
export interface Services {
  readonly contextKeys: ContextKeySetter;
  readonly keys: ApiKeyStore;
  readonly log: Log;
  readonly connection: Connection;
  readonly credits: CreditsService;
  readonly jobs: JobService;
}
