/**
 * Messages made in src/core are localisable (issue 26): a typed error, an input check, a price and
 * a price gate's refusal are looked up in the translation bundle the extension host hands the
 * strings owner (src/core/l10n.ts) at activation, with their arguments (numbers already formatted)
 * put in; the table worker starts with the same bundle. With no bundle they are the English, byte
 * for byte (every other unit test holds that).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { endpoint, validateInput } from '../../../src/core/spec/catalog';
import { InsufficientCreditsError, MissingKeyError, NetworkError } from '../../../src/core/errors';
import { bundleInUse, useBundle } from '../../../src/core/l10n';
import { checkPipeline } from '../../../src/core/pipeline/format';
import { quote } from '../../../src/core/money/pricing';
import { priceGate } from '../../../src/core/money/quota';
import { tableWorkerOptions } from '../../../src/core/table/remoteTable';
import { fmtCredits } from '../../../src/core/numberText';

/** A small French bundle: English message → translation, as vscode.l10n.bundle holds it. */
const FR: Record<string, string> = {
  'Not enough credits for this call: it costs {0} and the balance is {1}.': 'Pas assez de crédits pour cet appel : il coûte {0} et le solde est de {1}.',
  'Nothing was charged.': 'Rien n’a été facturé.',
  'The quota is reset every 30 days.': 'Le quota est remis à zéro tous les 30 jours.',
  'Wallet Analytics: Set API Key': 'Wallet Analytics : définir la clé API',
  'No API key is set. Run “{0}” to enter the key issued with your API plan.': 'Aucune clé API n’est définie. Lancez « {0} » pour saisir la clé fournie avec votre offre.',
  '{0}: the minimum ({1}) is above the maximum ({2}).': '{0} : le minimum ({1}) dépasse le maximum ({2}).',
  '{0} credits': '{0} crédits',
  Free: 'Gratuit',
  'The network cannot reach {0}': 'Le réseau ne peut pas joindre {0}',
  'This call would cost {0}, above your limit of {1} per call. Nothing was sent and nothing was charged. To run it, raise {2} in Settings.':
    'Cet appel coûterait {0}, au-delà de votre limite de {1} par appel. Rien n’a été envoyé ni facturé. Pour le lancer, relevez {2} dans les paramètres.',
};

describe('core messages go through the strings owner (l10n.t)', () => {
  afterEach(() => useBundle(undefined));

  it('a typed error is said in the loaded bundle’s language, its numbers formatted as before', () => {
    const before = new InsufficientCreditsError({ needed: 1_500, balance: 20 }).message;
    assert.equal(before, 'Not enough credits for this call: it costs 1,500 and the balance is 20. Nothing was charged. The quota is reset every 30 days.');
    useBundle(FR);
    assert.equal(
      new InsufficientCreditsError({ needed: 1_500, balance: 20 }).message,
      'Pas assez de crédits pour cet appel : il coûte 1,500 et le solde est de 20. Rien n’a été facturé. Le quota est remis à zéro tous les 30 jours.',
    );
    // A command title inside a message, and a sentence built from parts (the network's words, then "Nothing was sent…").
    assert.equal(new MissingKeyError().message, 'Aucune clé API n’est définie. Lancez « Wallet Analytics : définir la clé API » pour saisir la clé fournie avec votre offre.');
    assert.match(new NetworkError({ sent: false, code: 'ENETUNREACH', detail: 'x', origin: 'https://api.example' }).message, /^Le réseau ne peut pas joindre api\.example \(x\)\./u);
  });

  it('an input check (the catalog’s cross-field rule) and a price gate’s refusal are looked up too', () => {
    useBundle(FR);
    const v = validateInput(endpoint('mcap'), { token: 'So11111111111111111111111111111111111111112', min_mcap_usd: 9, max_mcap_usd: 5 });
    assert.deepEqual(v.ok ? [] : v.errors, ['Market cap range : le minimum (9) dépasse le maximum (5).']);
    const gate = priceGate({ credits: 2_000_000, exact: true, text: 'x' }, { confirmAbove: 0, maxCreditsPerCall: 1_000_000 }, undefined, undefined);
    assert.equal(gate.kind, 'refuse');
    assert.match(gate.kind === 'refuse' ? gate.message : '', /^Cet appel coûterait 2,000,000 crédits, au-delà de votre limite de 1,000,000 crédits par appel\./u);
    assert.equal(fmtCredits(3), '3 crédits');
    assert.equal(quote(endpoint('credits'), {}).text, 'Gratuit');
  });

  it('a pipeline cell’s input problem stays at its input when the translation puts the label last (by key, not by text)', () => {
    const query = { where: { and: [{ field: 'trade_count_all', op: '>=', value: 0 }] }, limit: 10, zzz: 1 };
    const file = { version: 1 as const, cells: [{ name: 'q', call: 'wallet_database', inputs: { query } }] };
    const english = checkPipeline(file);
    assert.deepEqual(english.map((p) => [p.path, p.message]), [[['inputs', 'query'], '“q”: Query: takes no field named “zzz”.']]);
    useBundle({ '{0}:{1} takes no field named {2}.': 'Aucun champ nommé {2} n’est accepté par{1} {0}.' });
    const french = checkPipeline(file);
    assert.deepEqual(french.map((p) => [p.path, p.message]), [[['inputs', 'query'], '“q”: Aucun champ nommé “zzz” n’est accepté par Query.']]);
    // The validator says which input each problem is about, in any language.
    const v = validateInput(endpoint('wallet_database'), { query });
    assert.deepEqual(v.ok ? [] : v.problems.map((p) => p.field), ['query']);
  });

  it('the table worker starts with the bundle in use, and none is English again', () => {
    useBundle(FR);
    assert.equal(bundleInUse(), FR);
    assert.deepEqual((tableWorkerOptions().workerData as { l10nBundle?: unknown }).l10nBundle, FR);
    useBundle(undefined);
    assert.equal(bundleInUse(), undefined);
    assert.equal(fmtCredits(3), '3 credits');
  });
});
