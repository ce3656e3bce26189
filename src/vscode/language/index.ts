import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { FieldCache } from '../../core/query/fieldCache';
import type { QueryRunCache } from '../../core/query/runCache';
import { parseScope } from '../../core/transport/profiles';
import type { CallService } from '../calls/callService';
import { CommandIds } from '../base/ids';
import type { Services } from '../services';
import { QueryCodeLenses } from './codeLens';
import { QueryDiagnostics } from './diagnostics';
import { WAQUERY_LANGUAGE, WAQUERY_SELECTOR } from './documents';
import { QueryFieldService } from './fieldService';
import { newQueryFile } from './newQuery';
import { QueryCompletions, QueryHovers, QueryQuickFixes } from './providers';
import { QueryRunner, type RunQueryArgs } from './runner';
import { QuerySnippets } from './snippets';
import { l10n } from '../../shared/l10n';
import { showErrorIn, showWarning } from '../base/errors';
import { RESTRICTED_MODE } from '../base/connection';

/** The built-in extension that runs the JSON language service. */
const JSON_LANGUAGE_FEATURES = 'vscode.json-language-features';

/** What the query language exposes to the tests (through ExtensionApi.testing). */
interface QueryLanguage {
  readonly fields: QueryFieldService;
  readonly runner: QueryRunner;
  readonly diagnostics: QueryDiagnostics;
}

/**
 * The `waquery` language of `.waquery.json` files. Structure checks come from VS Code's JSON
 * language service, which serves this language because package.json lists it under
 * `jsonLanguageParticipants` and applies media/waquery.schema.json through `jsonValidation`;
 * that service only starts on JSON languages, so it is started here. Everything that needs the
 * server's field list (completions, hovers, field diagnostics, quick fixes) and the CodeLens
 * runs are ours.
 */
export function registerQueryLanguage(context: vscode.ExtensionContext, services: Services, calls: CallService, runs: QueryRunCache): QueryLanguage {
  const { connection, log, keys } = services;
  const storage = context.globalStorageUri.fsPath;
  const fields = new QueryFieldService(new FieldCache(path.join(storage, 'query-fields')), connection, log, keys.onDidChange);
  const runner = new QueryRunner(calls, connection, fields, runs);
  const diagnostics = new QueryDiagnostics(fields);
  const lenses = new QueryCodeLenses(fields, runner);
  context.subscriptions.push(
    fields,
    runner,
    diagnostics,
    lenses,
    vscode.languages.registerCompletionItemProvider(WAQUERY_SELECTOR, new QueryCompletions(fields), '"'),
    vscode.languages.registerCompletionItemProvider(WAQUERY_SELECTOR, new QuerySnippets()),
    vscode.languages.registerHoverProvider(WAQUERY_SELECTOR, new QueryHovers(fields)),
    vscode.languages.registerCodeActionsProvider(WAQUERY_SELECTOR, new QueryQuickFixes(fields), { providedCodeActionKinds: QueryQuickFixes.kinds }),
    vscode.languages.registerCodeLensProvider(WAQUERY_SELECTOR, lenses),
    registerCommand(CommandIds.newQuery, (target?: vscode.Uri) => newQueryFile(target instanceof vscode.Uri ? target : undefined)),
    registerCommand(CommandIds.refreshQueryFields, async () => {
      try {
        const entry = await fields.refresh();
        const msg = `Query fields refreshed from ${parseScope(entry.scope).baseUrl}: ${entry.main?.length ?? 0} on the main chain${entry.alt ? `, ${entry.alt.length} on the second chain` : ''} (free).`;
        void vscode.window.showInformationMessage(msg);
        return entry;
      } catch (e) {
        if (connection.keyWithheld()) {
          // The folder is untrusted: say so, with the way out, as every call held back does.
          const manage = l10n.t('Manage Workspace Trust');
          void showWarning(l10n.t('The query fields could not be read: {0}', RESTRICTED_MODE), manage).then((a) => {
            if (a === manage) void vscode.commands.executeCommand('workbench.trust.manage');
          });
          return undefined;
        }
        void showErrorIn(l10n.t('The query fields could not be read'), e);
        return undefined;
      }
    }),
    registerCommand(CommandIds.runQuery, (uri?: unknown, args?: RunQueryArgs) => runner.run(uri, args ?? {})),
    registerCommand(CommandIds.runQueryOnSecondChain, (uri?: unknown, args?: RunQueryArgs) => runner.run(uri, { ...args, chain: 'alt' })),
    registerCommand(CommandIds.estimateQuery, (uri?: unknown, args?: { chain?: 'main' | 'alt' }) => runner.estimate(uri, args ?? {})),
  );
  // Started with the first query file, not with the extension: it is a language server process.
  let started = false;
  const startJsonService = (doc: vscode.TextDocument): void => {
    if (started || doc.languageId !== WAQUERY_LANGUAGE) return;
    started = true;
    const json = vscode.extensions.getExtension(JSON_LANGUAGE_FEATURES);
    if (!json) log.warn(`${JSON_LANGUAGE_FEATURES} is not available: .waquery.json files get no structure checks from their JSON Schema.`);
    else if (!json.isActive) void json.activate().then(undefined, (e: unknown) => log.warn(`${JSON_LANGUAGE_FEATURES} did not start: ${String(e)}`));
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startJsonService));
  vscode.workspace.textDocuments.forEach(startJsonService);
  return { fields, runner, diagnostics };
}
