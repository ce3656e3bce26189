/**
 * Where a list of addresses can go next, best first: the one ranking behind every "Use … as input
 * to…" picker (the Requests view, the table's column menu, the analysis panel, address sets).
 * An endpoint that takes what the column holds comes first (a wallet column → PnL; a token column
 * → the token endpoints); one that takes the other kind comes after, marked, never first. Each
 * choice carries its price for this very list (pricing.ts quote), so every picker shows it. Pure.
 */
import type { Chain } from '../spec/addresses';
import { firstOfList, listItems, type PackedList } from '../spec/packedList';
import { ENDPOINTS, validateInput, type Endpoint } from '../spec/catalog';
import { roleFits, roleWanted, type AddressRole, type ListWant } from '../table/columnKind';
import type { FieldSpec } from '../spec/fields';
import { quote, type Quote } from '../money/pricing';
import { l10n } from '../l10n';
import { thousands } from '../numberText';

/** A list a column (or a result) offers. */
export interface ListOffer {
  /** The column it comes from ('address' for a list file). */
  readonly column: string;
  readonly chain: Chain;
  /** Whose addresses the column holds (columnKind.ts addressRole); undefined when nothing says. */
  readonly role: AddressRole | undefined;
  /** Distinct addresses, in order (at least the first `max` of the largest target); a long list packed (spec/packedList.ts). */
  readonly addresses: readonly string[] | PackedList;
  /** How many distinct addresses the column holds in all (may pass addresses.length). */
  readonly distinct: number;
}

/** One choice of a picker: an endpoint's list field, the list it would get, and its price. */
export interface InputTarget {
  readonly ep: Endpoint;
  readonly field: FieldSpec;
  readonly offer: ListOffer;
  /** What the field takes. */
  readonly wants: ListWant;
  /** True when the column holds what the field takes; false when it holds the other kind; undefined when unknown. */
  readonly fits: boolean | undefined;
  /** The addresses that would be sent: the offer's, cut at the field's most. */
  readonly count: number;
  /** True when the list was cut to the field's most. */
  readonly cut: boolean;
  readonly price: Quote;
}

/** A target that cannot take the list: too few addresses for its least. */
interface RefusedTarget {
  readonly ep: Endpoint;
  readonly field: FieldSpec;
  readonly reason: string;
}

/**
 * Results whose bare `address` column (a .txt list) lists tokens: the token finders. Every other
 * result's bare address column lists wallets. A hint only; a column's own name wins.
 */
const TOKEN_LISTS: ReadonlySet<string> = new Set(['trending', 'migratedtokens', 'mcaptokens', 'athmcap']);

/** What a result of `endpointId` lists in a bare address column, for addressRole's hint. */
export function resultRole(endpointId: string | undefined): AddressRole | undefined {
  if (endpointId === undefined) return undefined;
  return TOKEN_LISTS.has(endpointId) ? 'token' : 'wallet';
}

/** The endpoints' list fields that a queued call can be run with alone (the others defaulted or optional). */
export function listFields(): { ep: Endpoint; field: FieldSpec }[] {
  return ENDPOINTS.flatMap((ep) =>
    ep.family !== 'queued'
      ? []
      : ep.fields.filter((f) => f.kind === 'addressList').map((field) => ({ ep, field })),
  );
}

const rank = (fits: boolean | undefined): number => (fits === true ? 0 : fits === undefined ? 1 : 2);

/**
 * Every endpoint that can take one of `offers` as its list, best first: those whose field takes
 * what the column holds, then the unknown, then the other kind; in catalog order within each. For
 * each field the offer of its chain whose role fits is used (the first of its chain when none does).
 */
export function rankTargets(offers: readonly ListOffer[]): { targets: InputTarget[]; refused: RefusedTarget[] } {
  const targets: InputTarget[] = [];
  const refused: RefusedTarget[] = [];
  for (const { ep, field } of listFields()) {
    const wants = roleWanted(field.key);
    const mine = offers.filter((o) => o.chain === (field.chain ?? 'main') && o.addresses.length > 0);
    const offer = mine.find((o) => o.role !== undefined && roleFits(o.role, wants)) ?? mine.find((o) => o.role === undefined) ?? mine[0];
    if (!offer) continue;
    const max = field.max ?? Infinity;
    const list = firstOfList(offer.addresses, max);
    const least = field.min ?? 1;
    if (list.length < least) {
      refused.push({ ep, field, reason: l10n.t('takes at least {0}', thousands(least)) });
      continue;
    }
    // A short sample proves the other fields are optional or defaulted; the length was checked above.
    const checked = validateInput(ep, { [field.key]: listItems(list, 0, Math.max(1, least)) });
    if (!checked.ok) continue;
    const input = { ...checked.input, [field.key]: list };
    targets.push({
      ep,
      field,
      offer,
      wants,
      fits: offer.role === undefined ? undefined : roleFits(offer.role, wants),
      count: list.length,
      cut: offer.distinct > list.length,
      price: quote(ep, input),
    });
  }
  targets.sort((a, b) => rank(a.fits) - rank(b.fits));
  return { targets, refused };
}

let warmed: Promise<void> | undefined;

/**
 * The list fields' input checks built, one piece a turn of the host's loop: each field's schema,
 * then each endpoint's check and its first parse (zod builds a schema and compiles its parser on
 * first use: rankTargets' first run built them all in one turn, ~40 ms once, issue 34 item 4).
 * Once per process; later calls find them built.
 */
export function warmListChecks(): Promise<void> {
  const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  warmed ??= (async () => {
    for (const ep of new Set(listFields().map((t) => t.ep))) {
      for (const f of ep.fields) {
        await nextTurn();
        void f.schema;
      }
      await nextTurn();
      validateInput(ep, {});
    }
  })();
  return warmed;
}

/** rankTargets, its checks built first a piece a turn (warmListChecks): what a picker on the host calls. */
export async function rankTargetsWarm(offers: readonly ListOffer[]): Promise<ReturnType<typeof rankTargets>> {
  await warmListChecks();
  return rankTargets(offers);
}

/** "wallets", "tokens", "token creators": what a column holds, as a picker says it. */
export function roleText(role: AddressRole | undefined): string {
  switch (role) {
    case 'wallet':
      return 'wallets';
    case 'token':
      return 'tokens';
    case 'creator':
      return l10n.t('token creators (wallets)');
    default:
      return 'addresses';
  }
}
