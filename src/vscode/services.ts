import type { Storage } from '../core/storage';
import type { Connection } from './base/connection';
import type { ContextKeySetter } from './base/contextKeys';
import type { CreditsService } from './base/credits';
import type { JobService } from './jobs/jobService';
import type { Log } from './base/log';
import type { ApiKeyStore } from './base/secrets';
import type { AgentAllowance } from './base/agentAllowance';

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
  /** What AI agents may spend today without asking, and what they spent (core/money/agentAllowance.ts). */
  readonly allowance: AgentAllowance;
}
