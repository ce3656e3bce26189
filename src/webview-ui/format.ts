/**
 * Number formats for cells. Only cells that are numbers by the store's rule (numbers.ts: a plain
 * decimal within a number's range) are formatted; anything else is shown as it is.
 * Copy and export always carry the text of the file, never the formatted one.
 */
import { parseNumberText } from '../core/table/numbers';
import type { ColumnInfo, NumberFormat } from '../shared/tableUiProtocol';
import { l10n } from '../shared/l10n';
import { thousands as countText } from '../core/numberText';

/** A format a cell is shown in: a chosen one, or `money` (auto's format for USD amounts). */
export type ConcreteFormat = Exclude<NumberFormat, 'auto'> | 'money';

export const FORMAT_LABELS: Record<NumberFormat, string> = {
  auto: 'Auto (1,234.5678; ratios as %)',
  raw: 'As in the file',
  thousands: 'Thousands separators',
  fixed2: 'Fixed, 2 decimals',
  compact: 'Compact (1.2M)',
  percent: 'Percent (0.25 → 25.00%)',
};

/** For the toolbar, where space is short. */
export const SHORT_FORMAT_LABELS: Record<NumberFormat, string> = {
  auto: 'Numbers: auto',
  raw: 'Numbers: as in file',
  thousands: 'Numbers: 1,234.5678',
  fixed2: 'Numbers: 1,234.57',
  compact: 'Numbers: 1.2K',
  percent: 'Numbers: %',
};

const LOCALE = 'en-US';
const thousands = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 4 });
const fixed2 = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat(LOCALE, { notation: 'compact', maximumSignificantDigits: 3 });
const percent = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
// Cents always shown (−5,016.10, not −5,016.1 beside +3,795.50), finer digits of the file kept.
const money = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** The format chosen for a column: its own, else the table's (maybe `auto`). */
function chosenFormat(own: NumberFormat | undefined, table: NumberFormat): NumberFormat {
  return own && own !== 'auto' ? own : table;
}

/** The format a column is shown in: its own choice, else the table's, where `auto` means % for ratio metrics, two decimals at least for USD amounts and thousands otherwise. */
export function effectiveFormat(column: Pick<ColumnInfo, 'kind' | 'numeric'> | undefined, own: NumberFormat | undefined, table: NumberFormat): ConcreteFormat {
  const f = chosenFormat(own, table);
  if (f !== 'auto') return f;
  if (!column?.numeric) return 'raw';
  return column.kind === 'ratio' ? 'percent' : column.kind === 'usd' ? 'money' : 'thousands';
}

/**
 * The text a cell shows in a format, from its decimal text: Intl formats a string as the exact
 * decimal it spells (no double between), so 999999999999999999 keeps its 18 nines. A decimal out
 * of a number's range (1e400), which the table holds as text, is shown as it is.
 */
export function formatCell(text: string, format: ConcreteFormat): string {
  if (format === 'raw' || text.length === 0 || text.length > 40 || Number.isNaN(parseNumberText(text))) return text;
  // Intl reads a string argument as an exact decimal (ES2023 Intl.NumberFormat v3); its types only list numbers.
  const exact = text as unknown as number;
  switch (format) {
    case 'thousands':
      return thousands.format(exact);
    case 'fixed2':
      return fixed2.format(exact);
    case 'compact':
      return compact.format(exact);
    case 'percent':
      return percent.format(exact);
    case 'money':
      return money.format(exact);
  }
}

/** "12,345": the one way counts are written (core/numberText.ts), under the webview's name. */
export function formatCount(n: number): string {
  return countText(n);
}

/** What a cell shows: its text, a tooltip (a time's UTC), and whether it is a gain or a loss. */
export interface ShownCell {
  readonly text: string;
  readonly title?: string;
  readonly tone?: 'gain' | 'loss';
}

const MINUS = '\u2212';

/**
 * A profit or a return as shown: `shown` (the formatted text of `raw`) with a leading + for a
 * gain and − for a loss, so the sign is read without the colour; zero and non-numbers as they are.
 */
export function signedCell(raw: string, shown: string): ShownCell {
  const n = parseNumberText(raw.trim());
  if (Number.isNaN(n) || n === 0) return { text: shown };
  if (n > 0) return { text: shown.startsWith('+') ? shown : `+${shown}`, tone: 'gain' };
  return { text: shown.startsWith('-') ? MINUS + shown.slice(1) : shown.startsWith(MINUS) ? shown : MINUS + shown, tone: 'loss' };
}

/**
 * What a cell of a column shows, by the table's rules: a time in the person's zone, a number in the
 * column's format (its own, else the table's), a profit or return with its sign (and its tone
 * unless `colour` is off). The grid and a pipeline cell's result (the notebook renderer) both ask here.
 */
export function displayCell(
  info: Pick<ColumnInfo, 'kind' | 'numeric' | 'signed' | 'date'>,
  text: string,
  own: NumberFormat | undefined,
  table: NumberFormat,
  colour: boolean,
): ShownCell {
  // "As in the file" is the file's text exactly: no sign added, no time moved to the person's zone
  // (issue 35 item 7); a gain or a loss keeps its colour.
  if (chosenFormat(own, table) === 'raw') {
    const tone = info.signed && colour ? signedCell(text, text).tone : undefined;
    return tone ? { text, tone } : { text };
  }
  if (info.date) return timeCell(text);
  const shown = formatCell(text, effectiveFormat(info, own, table));
  if (!info.signed) return { text: shown };
  const cell = signedCell(text, shown);
  return colour ? cell : { text: cell.text };
}

/** An ISO date-time with a time of day; a zone-less one is the service's UTC. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/u;
const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * "2024-05-01 14:00:05" of a Date in a time zone: the person's own (undefined) and UTC from the
 * Date's own fields, which costs nothing; any other zone (tests) through Intl, its formatter made
 * once. A grid render shows every time cell in view: Intl's formatToParts cost ~80 µs a cell, and a
 * formatter made per cell ~50 µs more, which took a wide table's scroll past a frame.
 */
function wallClock(d: Date, timeZone: string | undefined): string {
  if (timeZone === undefined) return stamp(d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds());
  if (timeZone === 'UTC') return stamp(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  const parts = zoneClock(timeZone).formatToParts(d);
  const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

function stamp(y: number, mo: number, day: number, h: number, mi: number, sec: number): string {
  return `${String(y).padStart(4, '0')}-${pad(mo)}-${pad(day)} ${pad(h)}:${pad(mi)}:${pad(sec)}`;
}

const zoneClocks = new Map<string, Intl.DateTimeFormat>();
function zoneClock(timeZone: string): Intl.DateTimeFormat {
  let f = zoneClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    zoneClocks.set(timeZone, f);
  }
  return f;
}

let localZone: string | undefined;
/** The person's time zone's name, read once. */
function ownZone(): string {
  localZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return localZone;
}

/**
 * A timestamp cell in the person's local time (`timeZone` for tests), with the UTC time as its
 * tooltip. A date without a time of day, or text that is not an ISO time, shows as it is.
 */
export function timeCell(text: string, timeZone?: string): ShownCell {
  const v = text.trim();
  const m = ISO_TIME.exec(v);
  if (!m) return { text };
  const d = new Date(m[8] ? v.replace(' ', 'T') : `${v.replace(' ', 'T')}Z`);
  if (Number.isNaN(d.getTime())) return { text };
  const zone = timeZone ?? ownZone();
  return { text: wallClock(d, timeZone), title: l10n.t('{0} UTC (shown in your time zone, {1}; the file holds {2})', wallClock(d, 'UTC'), zone, v) };
}

/** "3d 4h", "2h 05m", "45s": a duration in seconds, to the two largest units. */
export function durationText(seconds: number): string {
  const s = Math.round(Math.abs(seconds));
  const sign = seconds < 0 ? MINUS : '';
  if (s < 60) return `${sign}${s}s`;
  if (s < 3600) return `${sign}${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  if (s < 86_400) return `${sign}${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
  return `${sign}${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/**
 * A metric's value as a wallet card shows it (MetricKind, core/spec/metrics.ts): money with two
 * decimals (four for the native coin), ratios as %, counts with separators, seconds as a duration;
 * a signed metric with its sign. Empty: "—". Not a number: as it is.
 */
export function metricCell(raw: string | undefined, kind: string, signed: boolean): ShownCell {
  const v = (raw ?? '').trim();
  if (v === '') return { text: '—' };
  const n = parseNumberText(v);
  if (Number.isNaN(n)) return { text: v };
  let shown: string;
  if (kind === 'seconds') shown = durationText(n);
  else if (kind === 'ratio') shown = formatCell(v, 'percent');
  else if (kind === 'usd') shown = formatCell(v, 'fixed2');
  else shown = formatCell(v, 'thousands');
  return signed ? signedCell(v, shown) : { text: shown };
}

/** The file switcher's room (its CSS max-width, in characters). */
export const FILE_SWITCH_CHARS = 28;

/**
 * A result file's name as the file switcher shows it: whole when it fits, else its start and its
 * end around an ellipsis ("s1XT9Vhh…Zhj53P5Z.csv"), as an address is shortened, so two tokens' files
 * still read apart and the extension still shows (a 44-character mint cut at its end showed neither).
 * The option's title keeps the whole name.
 */
export function fileSwitchLabel(file: string, room = FILE_SWITCH_CHARS): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (name.length <= room) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 6 ? name.slice(dot) : '';
  const stem = name.slice(0, name.length - ext.length);
  const keep = room - 1 - ext.length;
  const head = Math.ceil(keep / 2);
  return `${stem.slice(0, head)}…${stem.slice(stem.length - (keep - head))}${ext}`;
}
